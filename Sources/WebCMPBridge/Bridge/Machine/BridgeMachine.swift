import Foundation

/// The bridge's decisions as a value: one ``handle(_:)`` takes what happened (``Input``) and returns what to do
/// (``Effect``), in order, and one ``decide(_:)`` answers a navigation synchronously with a ``NavigationAnswer`` of its
/// own. No async, no clock, no web view, no store: ``ConsentBridge`` runs it (performs the effects, owns the timers
/// and tasks, answers with inputs), its table tests feed it inputs, and the `bridge` fuzz target explores orderings of
/// inputs on it directly.
///
/// Its state is one ``Phase`` whose cases carry their data (``Run`` while the run is live: its ``Stage``, loads,
/// settings and stored consent are values of their own), beside what lives across phases: the ``Presentation``, the
/// armed ``timers``, whether the app is in the background, and the dialect in force. The run keeps three facts of its
/// own as Bools, as no other state says them: whether it is a pre-warmed page no UI has shown yet (its ready timeout
/// waits, what it states as a choice is a report, and it never leads to the tracking prompt), whether `uiReady` was
/// announced (once per run, whatever reloads follow) and whether the CMP's UI is up. A navigation's answer is
/// returned, not remembered.
///
/// The rules it applies:
/// - **Messages** are untrusted: only from the main frame and an allowed origin, decoded by their dialect's rules
///   (``MessageDialect``), classified by ``DialectDetection``. **A save is one pass**: the machine runs ``ConsentCommit``
///   itself on the record in force (``Run/stored``) and the message's time, and hands the store one numbered
///   ``Save`` (``Effect/store(_:)``); the store's answer is one input (``Input/storeAnswered(_:_:trackingStatus:)``),
///   and only a save stored is announced. Only the answer to the live run's latest save of the current load is taken,
///   once; a stray, late or second one is ignored with a diagnostic.
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
    /// Whether the app is active: from `didBecomeActive` until `willResignActive` (or `didEnterBackground`). A system
    /// alert, the tracking prompt among them, makes it inactive while it is up. Assumed active at first.
    private(set) var isActive = true
    /// The armed timers: scheduled, not yet fired or cancelled (paused ones included).
    private(set) var timers: Set<Timer> = []
    /// In settings mode, what opened the CMP's privacy settings (see ``ConsentBridge/privacySettingsOpenedBy``).
    var privacySettingsOpenedBy: String?
    /// The page the run loads (``BridgeConfiguration/resolvedURL``), and the fallback page's with the same query
    /// items; worked out once, as the configuration does not change.
    let resolvedURL: URL
    let fallbackURL: URL?
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
            guard case .created = phase else { break }   // ignored: a second attach
            phase = .attached(setupFailure: setupFailure)
            for failure in resourceFailures { report(.diagnostic(failure), &out) }
        case .start(let waits, let trackingStatus, let stored, let version):
            start(
                readyTimeoutWaitsForPresentation: waits, trackingStatus: trackingStatus, stored: stored,
                version: version, &out)
        case .webView(.message(let message), let now):
            guard withRun({ $0.loads.markAnswered() }) != nil else { break }
            handle(message, now: now, &out)
        case .webView(.appLifecycle(let event), _):
            appLifecycle(event, &out)
        case .webView(let event, _):
            handleLoadEvent(event, &out)
        case .loadRedirected(let redirect):
            loadRedirected(redirect, &out)
        case .timerFired(let timer):
            timerFired(timer, &out)
        case .presentationBegan:
            changePauses(&out) { $0.presentation = .shown }
            withRun { $0.awaitsFirstPresentation = false }
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
            tracking(.appActive, &out)
        case .trackingAnswered(let result, let statusNow):
            tracking(.answered(result, statusNow: statusNow), &out)
        case .trackingStatusRead(let status):
            tracking(.statusRead(status), &out)
        case .storeAnswered(let id, let error, let written, let trackingStatus):
            storeAnswered(id, error, written: written, trackingStatus: trackingStatus, &out)
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

    private mutating func start(
        readyTimeoutWaitsForPresentation waits: Bool, trackingStatus: TrackingAuthorizationStatus,
        stored: ConsentRecord?, version: ConsentStore.RecordVersion, _ out: inout Effects
    ) {
        guard case .attached(let setupFailure) = phase else { return }   // ignored: before the attach, or a second start
        let trackingFirst = setupFailure == nil
            && configuration.tracking.shouldRequestBeforeCMP(status: trackingStatus)
        phase = .running(Run(
            stage: trackingFirst ? .trackingFirst(TrackingPrompt()) : .loading,
            awaitsFirstPresentation: waits && !isPresented, settings: freshSettings, stored: stored,
            storedVersion: version))
        if let setupFailure { return fail(setupFailure, &out) }
        if trackingFirst { return out.append(.waitUntilActive) }   // a new prompt waits for an active app
        load(nil, &out)
    }

    private mutating func timerFired(_ timer: Timer, _ out: inout Effects) {
        // The runner fires only armed timers; a stray fire (a replaced timer's late one) changes nothing.
        guard timers.remove(timer) != nil else { return }
        if timer == .trackingSettle { return tracking(.settleWindowEnded, &out) }
        // Every other timer is armed only while the run is live: finish(_:_:) and invalidation disarm them all.
        guard let run else { return unreachable("\(timer) armed in \(phase)") }
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
            unreachable("handled above")
        }
    }

    // MARK: Timers

    /// Arms `timer` for `seconds` (replacing it if armed); paused at once while it is to be paused (``isPaused(_:)``,
    /// in `BridgeMachine+Pauses.swift`).
    mutating func schedule(_ timer: Timer, seconds: TimeInterval, _ out: inout Effects) {
        timers.insert(timer)
        out.append(.schedule(timer, seconds: seconds))
        if isPaused(timer) { out.append(.pause(timer)) }
    }

    /// Stops `timer` if it is armed.
    mutating func cancel(_ timer: Timer, _ out: inout Effects) {
        guard timers.remove(timer) != nil else { return }
        out.append(.cancel(timer))
    }

    // MARK: The app's lifecycle

    /// The app's lifecycle: the background pauses the timers and the foreground resumes them; resigning active
    /// pauses the tracking prompt's settle window, and becoming active resumes it and reads an early tracking answer
    /// again (the alert is gone); a page whose web content process terminated in the background reloads in the
    /// foreground.
    private mutating func appLifecycle(_ event: AppLifecycleEvent, _ out: inout Effects) {
        switch event {
        case .willResignActive:
            changePauses(&out) { $0.isActive = false }
        case .didEnterBackground:
            changePauses(&out) {
                $0.inBackground = true
                $0.isActive = false
            }
            appSettings.appEnteredBackground()
        case .willEnterForeground:
            changePauses(&out) { $0.inBackground = false }
            reloadAfterTermination(&out)   // a page whose process terminated in the background
        case .didBecomeActive:
            changePauses(&out) {
                $0.inBackground = false
                $0.isActive = true
            }
            reloadAfterTermination(&out)
            tracking(.becameActive, &out)
        }
    }

    // MARK: Readiness and the end of the UI

    /// Ends the UI: nothing is stored afterwards. A pending tracking request follows once the UI is gone and the app
    /// is active; otherwise the bridge detaches.
    ///
    /// A prompt before the CMP that was requested and has not settled (its alert may be up, or still to come: iOS 17.4's
    /// early answer) is carried over: the run ends only once it settled (its settle window goes on), so that the
    /// outcome never reaches the app while that alert may be on screen (promise 1).
    mutating func finish(_ reason: UIFinishReason, _ out: inout Effects) {
        guard let run else { return }   // ignored: the UI ended already (it ends once)
        if case .trackingFirst(let prompt) = run.stage, prompt.isRequested {
            for timer in Timer.allCases where timer != .trackingSettle { cancel(timer, &out) }
            phase = .finished(reason, tracking: .request(prompt))
            return report(.uiFinished(reason), &out)
        }
        for timer in Timer.allCases { cancel(timer, &out) }
        phase = .finished(reason, tracking: isPresented ? .waitingForPresentationEnd : .request(TrackingPrompt()))
        report(.uiFinished(reason), &out)
        // The prompt follows a consent UI: a pre-warmed page no UI has shown has none (its saves are reports).
        guard run.consent.trackingDue, !run.awaitsFirstPresentation else { return invalidate(&out) }
        if !isPresented { out.append(.waitUntilActive) }   // a new prompt waits for an active app
    }

    private mutating func presentationEnded(_ out: inout Effects) {
        changePauses(&out) { $0.presentation = .hidden }
        switch phase {
        case .running:
            finish(.dismissedByUser, &out)
        case .finished(let reason, .waitingForPresentationEnd):
            phase = .finished(reason, tracking: .request(TrackingPrompt()))
            out.append(.waitUntilActive)   // a new prompt waits for an active app
        case .created, .attached, .finished(_, .request), .invalidated:
            break   // a UI may go away in any phase; only a live run or a prompt waiting for it cares
        }
    }

    /// Moves the tracking prompt after the UI to `prompt` (``BridgeMachine+Tracking.swift``; the prompt before the
    /// CMP is the run's, changed through ``withRun(_:)``).
    mutating func setTrackingAfterUI(_ prompt: TrackingPrompt) {
        guard case .finished(let reason, .request) = phase else {
            return unreachable("no tracking prompt after the UI in \(phase)")   // callers read trackingPrompt first
        }
        phase = .finished(reason, tracking: .request(prompt))
    }

    mutating func invalidate(_ out: inout Effects) {
        guard !phase.isInvalidated else { return }
        phase = .invalidated
        timers.removeAll()   // the presentation stays as reported: a UI may still show the page while it goes
        out.append(.detach)
    }

    // MARK: Reporting

    /// Reports `event` (nothing after ``Effect/detach``).
    mutating func report(_ event: ConsentBridgeEvent, _ out: inout Effects) {
        guard !phase.isInvalidated else { return }
        out.append(.report(event))
    }
}
