import Foundation

/// The bridge's decisions as a value: one ``handle(_:)`` takes what happened (``Input``) and returns what to do
/// (``Effect``), in order, and one ``decide(_:)`` answers a navigation synchronously with a ``NavigationAnswer`` of its
/// own. No async, no clock, no web view, no store: ``ConsentBridge`` runs it (performs the effects, owns the timers
/// and tasks, answers with inputs), its table tests feed it inputs, and the `bridge` fuzz target explores orderings of
/// inputs on it directly.
///
/// Its state is one ``Phase`` whose cases carry their data (``Run`` while the run is live: its ``Stage``, loads,
/// settings and stored consent are values of their own), beside what lives across phases: the ``Presentation``, the
/// armed ``timers``, whether the app is in the background, and the dialect in force. The run keeps two facts of its
/// own as Bools, as no other state says them: whether its ready timeout waits for a presentation (fixed at the start)
/// and whether `uiReady` was announced (once per run, whatever reloads follow). Nothing waits in it for the runner: a
/// commit's request carries what its answer needs (the run only numbers its requests and remembers the last one
/// answered), and a navigation's answer is returned, not remembered.
///
/// The rules it applies:
/// - **Messages** are untrusted: only from the main frame and an allowed origin, decoded by their dialect's rules
///   (``MessageDialect``), classified by ``DialectDetection``; a save is committed (``Effect/commit(_:)``, a numbered
///   ``CommitRequest`` of the current load that the runner hands back with the store's answer), and only a commit the
///   store reports as stored is announced. Only the answer to the live run's latest request of the current load is
///   taken, once (an older one must not set the run's consent back); a stray, late or second one is ignored with a
///   diagnostic. The run keeps two numbers for it (the last request asked for, the last answered), no pending commit.
/// - **Loads** are told apart by identity (``LoadTracker``): events of a replaced load are ignored; a cancelled load is
///   no failure (`WebViewLoadFailure.Kind`); a main-document error status fails; a terminated web content process
///   reloads once. A failure before the page was ready may load the app's fallback page (``FallbackDecision``).
/// - **Navigations** are decided by ``NavigationPolicy``; one that is the load itself redirected away before the page
///   answered is cancelled and fails the load (``Input/loadRedirected(_:)``, fed by the runner right after).
/// - **The UI ends once** (``ConsentBridgeEvent/uiFinished(_:)`` at most once); then nothing is stored, and App Tracking
///   Transparency is requested when due, after the presentation and once the app is active; then ``Effect/detach``.
/// - **Time is the page's time**: the machine owns its armed timers (``timers``); while the app is in the background
///   (`AppLifecycleEvent`, reported by the adapter) or the UI is covered, WebKit suspends or throttles the page, so
///   the timers pause and go on with what they had left when the app returns or the UI shows again.
/// - **After ``Effect/detach``** the machine emits nothing; ``decide(_:)`` still answers with the navigation policy's
///   decision alone (`ConsentBridge.decidePolicy(for:)`, which the adapters call, still answers after it).
struct BridgeMachine: Sendable {
    /// The configuration.
    let configuration: BridgeConfiguration
    /// Why consent was needed when the bridge was created (`nil`: the stored consent was good).
    let renewalReason: ConsentRenewalReason?
    /// The message decoder (the configuration's limits, the machine's dialects).
    let decoder: CMPMessageDecoder
    /// Where the run is.
    private(set) var phase: Phase = .created
    /// The dialect in force: configured or detected.
    var detection: DialectDetection
    /// Whether a UI shows the web view, on screen or covered.
    private(set) var presentation = Presentation.hidden
    /// Whether the app is in the background (`AppLifecycleEvent.didEnterBackground` until it returns).
    private(set) var inBackground = false
    /// The page's requests to open the app's Settings: at most one opening per foreground period.
    var appSettings = AppSettingsRequests()
    /// The armed timers: scheduled, not yet fired or cancelled (paused ones included).
    private(set) var timers: Set<Timer> = []
    /// In settings mode, what opened the CMP's privacy settings (see ``ConsentBridge/privacySettingsOpenedBy``).
    var privacySettingsOpenedBy: String?
    /// The page the run loads (``BridgeConfiguration/resolvedURL``), and the fallback page's with the same query
    /// items; worked out once, as the configuration does not change.
    private let resolvedURL: URL
    private let fallbackURL: URL?
    /// The configured allowed origins, and those with the fallback page's, normalised once: every message and
    /// navigation is checked against them.
    private let configuredOrigins: SecurityOrigin.AllowList
    private let originsWithFallback: SecurityOrigin.AllowList

    /// A machine for `configuration`; `dialects` are the dialects it speaks (default: every registered one).
    init(
        configuration: BridgeConfiguration, renewalReason: ConsentRenewalReason?,
        dialects: [any MessageDialect] = DialectRegistry.all
    ) {
        self.configuration = configuration
        self.renewalReason = renewalReason
        decoder = CMPMessageDecoder(limits: configuration.limits, dialects: dialects)
        detection = DialectDetection(
            configured: configuration.dialect, dialects: dialects, listensForUIEvidence: configuration.mode == .settings)
        resolvedURL = configuration.resolvedURL
        fallbackURL = configuration.fallback.map { configuration.addingQueryItems(to: $0.entryURL) }
        let configured = SecurityOrigin.AllowList(configuration.allowedOrigins)
        configuredOrigins = configured
        originsWithFallback = configuration.fallback.map { configured.adding($0.origin) } ?? configured
    }

    /// Takes in `input` and returns the effects, in the order the runner performs them.
    mutating func handle(_ input: Input) -> [Effect] {
        var out = Effects()
        switch input {
        case .attached(let setupFailure, let resourceFailures):
            guard case .created = phase else { break }
            phase = .attached(setupFailure: setupFailure)
            for failure in resourceFailures { report(.diagnostic(failure), &out) }
        case .start(let waits, let trackingStatus):
            start(readyTimeoutWaitsForPresentation: waits, trackingStatus: trackingStatus, &out)
        case .webView(.message(let message)):
            guard withRun({ $0.loads.markAnswered() }) != nil else { break }
            handle(message, &out)
        case .webView(.appLifecycle(let event)):
            appLifecycle(event, &out)
        case .webView(let event):
            handleLoadEvent(event, &out)
        case .loadRedirected(let redirect):
            loadRedirected(redirect, &out)
        case .timerFired(let timer):
            timerFired(timer, &out)
        case .presentationBegan:
            changePauses(&out) { $0.presentation = .shown }
            if let run, run.stage == .loading, !timers.contains(.ready) { armReadyTimeout(&out) }
        case .presentationEnded:
            presentationEnded(&out)
        case .presentationCovered:
            guard isPresented else { break }   // only a UI that shows the web view can be covered
            changePauses(&out) { $0.presentation = .covered }
        case .presentationUncovered:
            guard isPresented else { break }
            changePauses(&out) { $0.presentation = .shown }
        case .appActive:
            appActive(&out)
        case .trackingAnswered(let result, let statusNow):
            trackingAnswered(result, statusNow: statusNow, &out)
        case .trackingStatusRead(let status):
            trackingStatusRead(status, &out)
        case .committed(let request, let outcome, let trackingStatus):
            committed(request, outcome, trackingStatus: trackingStatus, &out)
        case .invalidate:
            invalidate(&out)
        }
        return out.list
    }

    // MARK: State for the runner and the app

    /// The public state.
    var state: ConsentBridge.State {
        switch phase {
        case .created, .attached: return .idle
        case .running(let run): return run.stage == .ready ? .ready : .loading
        case .finished(let reason, _): return .finished(reason)
        case .invalidated: return .invalidated
        }
    }

    /// The dialect in force: configured, or detected from the page's messages.
    var dialect: CMPDialect? { detection.current?.dialect }

    /// Whether a UI shows the web view (covered or not).
    var isPresented: Bool { presentation != .hidden }

    /// Whether the UI that shows the web view is covered.
    var isCovered: Bool { presentation == .covered }

    /// The handlers the runner registers, and removes on ``Effect/detach``.
    var handlerNames: [String] { detection.listened.map(\.handlerName) }

    /// The user scripts the runner adds.
    var userScripts: [UserScript] { detection.listened.flatMap(\.userScripts) }

    /// Whether the user may dismiss the UI with the system gesture now (``BridgeConfiguration/interactiveDismissal``).
    var allowsInteractiveDismissal: Bool {
        switch configuration.interactiveDismissal {
        case .always: return true
        case .never: return false
        case .afterChoice: return (run?.consent.userChose ?? true) || renewalReason.isNilOrRetry
        }
    }

    /// The run's data while it is live (changed only through ``withRun(_:)``).
    var run: Run? {
        guard case .running(let run) = phase else { return nil }
        return run
    }

    /// Changes the live run's data in place and returns `body`'s result; `nil` (and no change) in any other phase.
    /// For changes of the run's data alone: `body` cannot reach the machine's other state or its effects.
    @discardableResult
    mutating func withRun<Result>(_ body: (inout Run) -> Result) -> Result? {
        guard case .running(var run) = phase else { return nil }
        phase = .created   // the run is held only by `run` while `body` changes it (no copy)
        defer { phase = .running(run) }
        return body(&run)
    }

    /// The origins allowed to post and to navigate the main frame: the configured ones, and the fallback's while it
    /// is shown.
    var allowedOrigins: SecurityOrigin.AllowList {
        run?.loads.showsFallback == true ? originsWithFallback : configuredOrigins
    }

    // MARK: Starting and loading

    /// Privacy settings at the start of a page load: to be opened in settings mode, not requested (`nil`) otherwise.
    var freshSettings: SettingsOpening? {
        configuration.mode == .settings ? SettingsOpening() : nil
    }

    private mutating func start(
        readyTimeoutWaitsForPresentation waits: Bool, trackingStatus: TrackingAuthorizationStatus, _ out: inout Effects
    ) {
        guard case .attached(let setupFailure) = phase else { return }
        let trackingFirst = setupFailure == nil
            && configuration.tracking.shouldRequestBeforeCMP(status: trackingStatus)
        phase = .running(Run(
            stage: trackingFirst ? .trackingFirst(.waitingForActiveApp) : .loading,
            readyTimeoutWaitsForPresentation: waits, settings: freshSettings))
        if let setupFailure { return fail(setupFailure, &out) }
        if trackingFirst { return out.append(.waitUntilActive) }
        load(nil, &out)
    }

    /// Loads `url` (default: the hosted page; `fallback`: the app's fallback page) as a new load and (re)starts the
    /// ready timeout.
    mutating func load(_ url: URL?, fallback: Bool = false, _ out: inout Effects) {
        guard run?.stage == .loading else { return }
        let target = url ?? resolvedURL
        guard let id = withRun({ $0.loads.begin(target, fallback: fallback) }) else { return }
        armReadyTimeout(&out)
        out.append(.load(target, id: id))
    }

    /// (Re)starts the ready timeout, unless it waits for a presentation that has not begun.
    private mutating func armReadyTimeout(_ out: inout Effects) {
        guard let run else { return }
        cancel(.ready, &out)
        if !run.readyTimeoutWaitsForPresentation || isPresented {
            schedule(.ready, seconds: configuration.readyTimeout, &out)
        }
    }

    private mutating func timerFired(_ timer: Timer, _ out: inout Effects) {
        // The runner fires only armed timers; a stray fire (a replaced timer's late one) changes nothing.
        guard timers.remove(timer) != nil else { return }
        if timer == .trackingSettle { return readTrackingStatusAgain(&out) }
        guard let run else { return }
        switch timer {
        case .ready:
            guard run.stage != .ready else { return }
            let error = ConsentBridgeError.timeout(seconds: configuration.readyTimeout)
            guard !loadFallback(after: error, &out) else { return }
            report(.failed(error), &out)
            if configuration.clearsConsentOnTimeout { out.append(.clearStore) }
            finish(.timedOut, &out)
        case .finishDelay:
            finish(.consentSaved, &out)
        case .settingsAttempt, .settingsRetry:
            settingsTimerFired(timer, &out)
        case .trackingSettle:
            break
        }
    }

    // MARK: Timers

    /// Arms `timer` for `seconds` (replacing it if armed); paused at once while the timers are paused.
    mutating func schedule(_ timer: Timer, seconds: TimeInterval, _ out: inout Effects) {
        timers.insert(timer)
        out.append(.schedule(timer, seconds: seconds))
        if timersPaused { out.append(.pause(timer)) }
    }

    /// Stops `timer` if it is armed.
    mutating func cancel(_ timer: Timer, _ out: inout Effects) {
        guard timers.remove(timer) != nil else { return }
        out.append(.cancel(timer))
    }

    /// Whether the timers are paused: the page is suspended (the app in the background) or throttled (the UI covered,
    /// so the web view is outside a window).
    var timersPaused: Bool { inBackground || isCovered }

    /// Applies `change` to the pausing conditions and pauses or resumes every armed timer when that changes whether
    /// they are paused (in ``Timer``'s order).
    private mutating func changePauses(_ out: inout Effects, _ change: (inout BridgeMachine) -> Void) {
        let wasPaused = timersPaused
        change(&self)
        guard wasPaused != timersPaused, !phase.isInvalidated else { return }
        for timer in Timer.allCases where timers.contains(timer) {
            out.append(timersPaused ? .pause(timer) : .resume(timer))
        }
    }

    // MARK: The app's lifecycle

    /// The app's lifecycle: the background pauses the timers and the foreground resumes them; a page whose web
    /// content process terminated in the background reloads in the foreground; an early tracking answer is read
    /// again at the next activation.
    private mutating func appLifecycle(_ event: AppLifecycleEvent, _ out: inout Effects) {
        switch event {
        case .willResignActive:
            break
        case .didEnterBackground:
            changePauses(&out) { $0.inBackground = true }
            appSettings.appEnteredBackground()
        case .willEnterForeground, .didBecomeActive:
            changePauses(&out) { $0.inBackground = false }
            reloadAfterTermination(&out)   // a page whose process terminated in the background
            if event == .didBecomeActive { readTrackingStatusAgain(&out) }
        }
    }

    /// Loads the fallback page instead of ending the run with `error`, when ``FallbackDecision`` says so.
    /// - Returns: whether the fallback is now loading (then `error` was reported as a diagnostic, not as an error).
    mutating func loadFallback(after error: ConsentBridgeError, _ out: inout Effects) -> Bool {
        guard let run, let fallback = configuration.fallback, let fallbackURL,
            FallbackDecision.loadsFallback(FallbackDecision.Situation(
                hasFallback: true, showingFallback: run.loads.showsFallback, becameReady: run.stage == .ready,
                error: error, renewalReason: renewalReason))
        else { return false }
        withRun { $0.stage = .loading }
        report(.diagnostic("\(error); showing the app's fallback page (\(fallback.origin))"), &out)
        load(fallbackURL, fallback: true, &out)
        return true
    }

    // MARK: Readiness and the end of the UI

    /// Marks the page ready and reports ``ConsentBridgeEvent/uiReady(_:)`` once, when the dialect is known.
    /// `injectRecordTo` answers a ready message with the stored record, posted to that origin only.
    mutating func becomeReady(injectRecordTo origin: String? = nil, _ out: inout Effects) {
        guard run != nil else { return }
        withRun { run in
            run.stage = .ready
            if run.loads.recovery == .reloaded { run.loads.recovery = .none }
        }
        cancel(.ready, &out)
        if let origin { out.append(.injectStoredRecord(targetOrigin: origin)) }
        openSettingsIfNeeded(&out)
        if let dialect, withRun({ run in
            defer { run.announcedReady = true }
            return !run.announcedReady
        }) == true {
            report(.uiReady(dialect), &out)
        }
    }

    /// Ends the UI after ``BridgeConfiguration/finishDelay``: CMPs update their GPP string just after the TCF event
    /// (or the other way round), and what arrives meanwhile is still stored.
    mutating func finishAfterSettling(_ out: inout Effects) {
        guard run != nil else { return }
        schedule(.finishDelay, seconds: configuration.finishDelay, &out)
    }

    /// Reports `error` as the failure that ends the UI (``ConsentBridgeEvent/failed(_:)``) and ends it, unless the
    /// fallback page is loaded instead. Every failure that ends the UI comes through here or the ready timeout.
    mutating func fail(_ error: ConsentBridgeError, _ out: inout Effects) {
        guard !loadFallback(after: error, &out) else { return }
        report(.failed(error), &out)
        finish(.failed, &out)
    }

    /// Ends the UI: nothing is stored afterwards. A pending tracking request follows once the UI is gone and the app
    /// is active; otherwise the bridge detaches.
    mutating func finish(_ reason: UIFinishReason, _ out: inout Effects) {
        guard let run else { return }
        for timer in Timer.allCases { cancel(timer, &out) }
        phase = .finished(reason, tracking: isPresented ? .waitingForPresentationEnd : .request(.waitingForActiveApp))
        report(.uiFinished(reason), &out)
        guard run.consent.trackingDue else { return invalidate(&out) }
        if !isPresented { out.append(.waitUntilActive) }
    }

    private mutating func presentationEnded(_ out: inout Effects) {
        changePauses(&out) { $0.presentation = .hidden }
        switch phase {
        case .running:
            finish(.dismissedByUser, &out)
        case .finished(let reason, .waitingForPresentationEnd):
            phase = .finished(reason, tracking: .request(.waitingForActiveApp))
            out.append(.waitUntilActive)
        case .created, .attached, .finished(_, .request), .invalidated:
            break   // a UI may go away in any phase; only a live run or a prompt waiting for it cares
        }
    }

    private mutating func invalidate(_ out: inout Effects) {
        guard !phase.isInvalidated else { return }
        phase = .invalidated
        presentation = .hidden
        timers.removeAll()
        out.append(.detach)
    }

    // MARK: App Tracking Transparency

    /// How long an early `.denied` waits for the app's next activation before the status is read again
    /// (``TrackingRequest/settling``): the alert is usually answered within seconds; an alert that never shows must
    /// not hold the CMP page (before the CMP) or the run's end for long.
    static let trackingSettleTimeout: TimeInterval = 10

    /// The tracking request in progress, in either place (before the CMP, after the UI).
    private var trackingRequest: TrackingRequest? {
        switch phase {
        case .running(let run):
            if case .trackingFirst(let request) = run.stage { return request }
            return nil
        case .finished(_, .request(let request)):
            return request
        case .created, .attached, .finished(_, .waitingForPresentationEnd), .invalidated:
            return nil
        }
    }

    /// Moves the tracking request in progress to `request`.
    private mutating func setTrackingRequest(_ request: TrackingRequest) {
        switch phase {
        case .running:
            withRun { $0.stage = .trackingFirst(request) }
        case .finished(let reason, .request):
            phase = .finished(reason, tracking: .request(request))
        case .created, .attached, .finished(_, .waitingForPresentationEnd), .invalidated:
            assertionFailure("no tracking request to move in \(phase)")   // callers check trackingRequest first
        }
    }

    private mutating func appActive(_ out: inout Effects) {
        guard trackingRequest == .waitingForActiveApp else { return }
        setTrackingRequest(.requesting)
        out.append(.requestTracking)
    }

    /// App Tracking Transparency answered. From iOS 17.4 the request can answer `.denied` before its alert is even
    /// shown, with the status still `.notDetermined`: then the answer settles first (``TrackingRequest/settling``).
    private mutating func trackingAnswered(
        _ result: Result<TrackingAuthorizationStatus, ConsentBridgeError>,
        statusNow: TrackingAuthorizationStatus?, _ out: inout Effects
    ) {
        guard trackingRequest == .requesting else { return }
        if case .success(.denied) = result, statusNow == .notDetermined {
            setTrackingRequest(.settling)
            return schedule(.trackingSettle, seconds: Self.trackingSettleTimeout, &out)
        }
        trackingSettled(result, &out)
    }

    /// The app became active again, or ``Timer/trackingSettle`` fired: read the status once more.
    private mutating func readTrackingStatusAgain(_ out: inout Effects) {
        guard trackingRequest == .settling else { return }
        out.append(.readTrackingStatus)
    }

    /// The status read again: the user's answer if the alert was answered, else the early `.denied`.
    private mutating func trackingStatusRead(_ status: TrackingAuthorizationStatus, _ out: inout Effects) {
        guard trackingRequest == .settling else { return }
        cancel(.trackingSettle, &out)
        trackingSettled(.success(status == .notDetermined ? .denied : status), &out)
    }

    /// The request's answer is final: report it, then load the CMP page (before the CMP) or detach (after the UI).
    private mutating func trackingSettled(
        _ result: Result<TrackingAuthorizationStatus, ConsentBridgeError>, _ out: inout Effects
    ) {
        switch phase {
        case .running:
            reportTracking(result, &out)
            withRun { $0.stage = .loading }
            load(nil, &out)
        case .finished:
            reportTracking(result, &out)
            invalidate(&out)
        case .created, .attached, .invalidated:
            assertionFailure("a tracking answer settled in \(phase)")   // callers check trackingRequest first
        }
    }

    private mutating func reportTracking(
        _ result: Result<TrackingAuthorizationStatus, ConsentBridgeError>, _ out: inout Effects
    ) {
        switch result {
        case .success(let status): report(.trackingAuthorization(status), &out)
        case .failure(let error): report(.error(error), &out)
        }
    }

    // MARK: Reporting

    /// Reports `event` (nothing after ``Effect/detach``).
    mutating func report(_ event: ConsentBridgeEvent, _ out: inout Effects) {
        guard !phase.isInvalidated else { return }
        out.append(.report(event))
    }
}

extension BridgeMachine {
    /// The effects of one input, in order.
    struct Effects {
        /// The effects so far.
        private(set) var list: [Effect] = []

        /// Appends `effect`.
        mutating func append(_ effect: Effect) {
            list.append(effect)
        }
    }
}

extension BridgeMachine.Phase {
    /// Whether the machine has detached.
    var isInvalidated: Bool {
        if case .invalidated = self { return true }
        return false
    }
}

extension Optional where Wrapped == ConsentRenewalReason {
    /// Whether stored consent is in force: good (`nil`), or only waiting for the hosted page
    /// (``ConsentRenewalReason/hostedPageNotShown``).
    var isNilOrRetry: Bool { self == nil || self == .hostedPageNotShown }
}
