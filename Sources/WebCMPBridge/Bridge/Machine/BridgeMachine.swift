import Foundation

/// The bridge's decisions as a value: one ``handle(_:)`` takes what happened (``Input``) and returns what to do
/// (``Effect``), in order. No async, no clock, no web view, no store: ``ConsentBridge`` runs it (performs the
/// effects, owns the timers and tasks, answers with inputs), its table tests feed it inputs, and the `bridge` fuzz
/// target explores orderings of inputs on it directly.
///
/// Its state is one ``Phase`` whose cases carry their data (``Run`` while the run is live). The rules it applies:
/// - **Messages** are untrusted: only from the main frame and an allowed origin, decoded by their dialect's rules
///   (``MessageDialect``), classified by ``DialectDetection``; a save is committed (``Effect/commit(_:)``), and only a
///   commit the store reports as stored is announced.
/// - **Loads** are told apart by identity (``LoadTracker``): events of a replaced load are ignored; a cancelled load is
///   no failure (``WebViewLoadFailure/Kind``); a main-document error status fails; a terminated web content process
///   reloads once. A failure before the page was ready may load the app's fallback page (``FallbackDecision``).
/// - **The UI ends once** (``ConsentBridgeEvent/uiFinished(_:)`` at most once); then nothing is stored, and App Tracking
///   Transparency is requested when due, after the presentation and once the app is active; then ``Effect/detach``.
/// - **After ``Effect/detach``** the machine emits nothing but the answer to a navigation: the navigation policy's
///   decision alone (``ConsentBridge/decidePolicy(for:)`` is public and still answers after it).
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
    /// Whether a UI shows the web view (presentation and run are independent: a pre-warmed page loads unpresented).
    private(set) var isPresented = false
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
            guard run != nil else { break }
            run?.pageAnswered = true
            handle(message, &out)
        case .webView(let event):
            handleLoadEvent(event, &out)
        case .navigation(let request):
            decide(request, &out)
        case .timerFired(let timer):
            timerFired(timer, &out)
        case .presentationBegan:
            isPresented = true
            if let run, run.stage == .loading, !run.readyTimerRuns { armReadyTimeout(&out) }
        case .presentationEnded:
            presentationEnded(&out)
        case .appActive:
            appActive(&out)
        case .trackingAnswered(let result):
            trackingAnswered(result, &out)
        case .committed(let outcome, let trackingStatus):
            committed(outcome, trackingStatus: trackingStatus, &out)
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

    /// The handlers the runner registers, and removes on ``Effect/detach``.
    var handlerNames: [String] { detection.listened.map(\.handlerName) }

    /// The user scripts the runner adds.
    var userScripts: [UserScript] { detection.listened.flatMap(\.userScripts) }

    /// Whether the user may dismiss the UI with the system gesture now (``BridgeConfiguration/interactiveDismissal``).
    var allowsInteractiveDismissal: Bool {
        switch configuration.interactiveDismissal {
        case .always: return true
        case .never: return false
        case .afterChoice: return (run?.userChose ?? true) || renewalReason.isNilOrRetry
        }
    }

    /// The run's data while it is live. Setting it is ignored in any other phase.
    var run: Run? {
        get {
            guard case .running(let run) = phase else { return nil }
            return run
        }
        set {
            guard let newValue, case .running = phase else { return }
            phase = .running(newValue)
        }
    }

    /// The origins allowed to post and to navigate the main frame: the configured ones, and the fallback's while it
    /// is shown.
    var allowedOrigins: SecurityOrigin.AllowList {
        run?.showingFallback == true ? originsWithFallback : configuredOrigins
    }

    // MARK: Starting and loading

    /// Privacy settings at the start of a page load: to be opened in settings mode, not requested otherwise.
    var freshSettings: SettingsProgress {
        configuration.mode == .settings ? .pending(SettingsOpening()) : .notRequested
    }

    private mutating func start(
        readyTimeoutWaitsForPresentation waits: Bool, trackingStatus: TrackingAuthorizationStatus, _ out: inout Effects
    ) {
        guard case .attached(let setupFailure) = phase else { return }
        let trackingFirst = setupFailure == nil
            && configuration.tracking.shouldRequestBeforeCMP(status: trackingStatus)
        phase = .running(Run(
            stage: trackingFirst ? .trackingFirst(asked: false) : .loading,
            readyTimeoutWaitsForPresentation: waits, settings: freshSettings))
        if let setupFailure { return fail(.webViewSetupFailed(setupFailure), &out) }
        if trackingFirst { return out.append(.waitUntilActive) }
        load(nil, &out)
    }

    /// Loads `url` (default: the hosted page) as a new load and (re)starts the ready timeout.
    mutating func load(_ url: URL?, _ out: inout Effects) {
        guard var run, run.stage == .loading else { return }
        let target = url ?? resolvedURL
        run.pageAnswered = false
        let id = run.loads.begin(target)
        self.run = run
        armReadyTimeout(&out)
        out.append(.load(target, id: id))
    }

    /// (Re)starts the ready timeout, unless it waits for a presentation that has not begun.
    private mutating func armReadyTimeout(_ out: inout Effects) {
        guard var run else { return }
        if run.readyTimerRuns { out.append(.cancel(.ready)) }
        run.readyTimerRuns = !run.readyTimeoutWaitsForPresentation || isPresented
        self.run = run
        if run.readyTimerRuns { out.append(.schedule(.ready, seconds: configuration.readyTimeout)) }
    }

    private mutating func timerFired(_ timer: Timer, _ out: inout Effects) {
        guard var run else { return }
        switch timer {
        case .ready:
            guard run.readyTimerRuns else { return }
            run.readyTimerRuns = false
            self.run = run
            guard run.stage != .ready else { return }
            let error = ConsentBridgeError.timeout(seconds: configuration.readyTimeout)
            guard !loadFallback(after: error, &out) else { return }
            report(.error(error), &out)
            if configuration.clearsConsentOnTimeout { out.append(.clearStore) }
            finish(.timedOut, &out)
        case .finishDelay:
            guard run.finishScheduled else { return }
            run.finishScheduled = false
            self.run = run
            finish(.consentSaved, &out)
        case .settingsAttempt, .settingsRetry:
            settingsTimerFired(timer, &out)
        }
    }

    /// Loads the fallback page instead of ending the run with `error`, when ``FallbackDecision`` says so.
    /// - Returns: whether the fallback is now loading (then `error` was reported as a diagnostic, not as an error).
    mutating func loadFallback(after error: ConsentBridgeError, _ out: inout Effects) -> Bool {
        guard var run, let fallback = configuration.fallback, let fallbackURL,
            FallbackDecision.loadsFallback(FallbackDecision.Situation(
                hasFallback: true, showingFallback: run.showingFallback, becameReady: run.stage == .ready,
                error: error, renewalReason: renewalReason))
        else { return false }
        run.showingFallback = true
        run.stage = .loading
        self.run = run
        report(.diagnostic("\(error); showing the app's fallback page (\(fallback.origin))"), &out)
        load(fallbackURL, &out)
        return true
    }

    // MARK: Readiness and the end of the UI

    /// Marks the page ready and reports ``ConsentBridgeEvent/uiReady(_:)`` once, when the dialect is known.
    /// `injectRecordTo` answers a ready message with the stored record, posted to that origin only.
    mutating func becomeReady(injectRecordTo origin: String? = nil, _ out: inout Effects) {
        guard var run else { return }
        run.stage = .ready
        if run.readyTimerRuns { out.append(.cancel(.ready)) }
        run.readyTimerRuns = false
        self.run = run
        if let origin { out.append(.injectStoredRecord(targetOrigin: origin)) }
        openSettingsIfNeeded(&out)
        if let dialect, self.run?.announcedReady == false {
            self.run?.announcedReady = true
            report(.uiReady(dialect), &out)
        }
    }

    /// Ends the UI after ``BridgeConfiguration/finishDelay``: CMPs update their GPP string just after the TCF event
    /// (or the other way round), and what arrives meanwhile is still stored.
    mutating func finishAfterSettling(_ out: inout Effects) {
        guard run != nil else { return }
        run?.finishScheduled = true
        out.append(.schedule(.finishDelay, seconds: configuration.finishDelay))
    }

    /// Reports `error` and ends the UI, unless the fallback page is loaded instead.
    mutating func fail(_ error: ConsentBridgeError, _ out: inout Effects) {
        guard !loadFallback(after: error, &out) else { return }
        report(.error(error), &out)
        finish(.failed, &out)
    }

    /// Ends the UI: nothing is stored afterwards. A pending tracking request follows once the UI is gone and the app
    /// is active; otherwise the bridge detaches.
    mutating func finish(_ reason: UIFinishReason, _ out: inout Effects) {
        guard let run else { return }
        if run.readyTimerRuns { out.append(.cancel(.ready)) }
        if run.finishScheduled { out.append(.cancel(.finishDelay)) }
        for timer in run.settings.runningTimers { out.append(.cancel(timer)) }
        phase = .finished(reason, tracking: isPresented ? .waitingForPresentationEnd : .waitingForActiveApp)
        report(.uiFinished(reason), &out)
        guard run.trackingPending else { return invalidate(&out) }
        if !isPresented { out.append(.waitUntilActive) }
    }

    private mutating func presentationEnded(_ out: inout Effects) {
        isPresented = false
        switch phase {
        case .running:
            finish(.dismissedByUser, &out)
        case .finished(let reason, .waitingForPresentationEnd):
            phase = .finished(reason, tracking: .waitingForActiveApp)
            out.append(.waitUntilActive)
        default:
            break
        }
    }

    private mutating func invalidate(_ out: inout Effects) {
        guard !phase.isInvalidated else { return }
        phase = .invalidated
        isPresented = false
        out.append(.detach)
    }

    // MARK: App Tracking Transparency

    private mutating func appActive(_ out: inout Effects) {
        switch phase {
        case .running(var run) where run.stage == .trackingFirst(asked: false):
            run.stage = .trackingFirst(asked: true)
            phase = .running(run)
            out.append(.requestTracking)
        case .finished(let reason, .waitingForActiveApp):
            phase = .finished(reason, tracking: .requesting)
            out.append(.requestTracking)
        default:
            break
        }
    }

    private mutating func trackingAnswered(
        _ result: Result<TrackingAuthorizationStatus, TrackingAuthorizationError>, _ out: inout Effects
    ) {
        switch phase {
        case .running(var run) where run.stage == .trackingFirst(asked: true):
            reportTracking(result, &out)
            run.stage = .loading
            phase = .running(run)
            load(nil, &out)
        case .finished(_, .requesting):
            reportTracking(result, &out)
            invalidate(&out)
        default:
            break
        }
    }

    private mutating func reportTracking(
        _ result: Result<TrackingAuthorizationStatus, TrackingAuthorizationError>, _ out: inout Effects
    ) {
        switch result {
        case .success(let status): report(.trackingAuthorization(status), &out)
        case .failure(let error): report(.error(.trackingAuthorizationFailed(error)), &out)
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
