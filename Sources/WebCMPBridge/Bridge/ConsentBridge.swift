import Foundation

/// Connects a hosted CMP page in a web view to the app: validates what the page posts, answers it, stores consent
/// as the IAB in-app keys (through the core's `ConsentCommit`), and reports events.
///
/// ```swift
/// let bridge = ConsentBridge(configuration: BridgeConfiguration(cmpURL: url), store: .userDefaults())
/// let outcome = await bridge.run(in: webView)   // any CMPWebView: WKCMPWebView on Apple platforms
/// ```
///
/// A bridge serves one run of the CMP UI: idle → loading → ready → finished → invalidated. Once the UI is finished
/// nothing the page sends is stored; then, when the app enabled it and the user granted marketing purposes, App
/// Tracking Transparency is requested once the UI is gone and the app is active, and the bridge invalidates itself
/// (removing its handlers and scripts and finishing its event streams). Dialect rules: see <doc:MessageDialects>.
///
/// Every decision is the core's `BridgeMachine`, a value that takes what happened and returns what to do; the bridge
/// is its runner: it performs those effects (loads, scripts, commits, reports), owns every timer and task it starts,
/// and cancels all of them in ``invalidate()``.
///
/// Readiness: a ready message (Gravito `CMP-loaded`/`start`; the forwarder's `ready` once the page's `__tcfapi` or
/// `__gpp` answers `ping` as loaded), a UI-shown event or a save. Onesecondbefore pages have no ready message: with that dialect configured,
/// the finished main-frame load counts as ready. In automatic mode a load alone never counts: a page whose CMP never
/// speaks ends in a ``ConsentBridgeError/Code/timeout``.
@MainActor
public final class ConsentBridge {
    /// The configuration.
    public let configuration: BridgeConfiguration
    /// The consent store.
    public let store: ConsentStore
    /// The bridge's owner, told every event synchronously (``ConsentBridgeDelegate``: the kit's own; apps use
    /// ``events()``).
    package weak var delegate: (any ConsentBridgeDelegate)?
    /// The most recent events (up to ``eventLogCapacity``), for tests and the Linux host.
    package internal(set) var eventLog: [ConsentBridgeEvent] = []
    /// How many events ``eventLog`` keeps; older ones are dropped so that a long-lived page cannot grow memory.
    package static let eventLogCapacity = 256

    let scheduler: BridgeScheduler
    package let trackingAuthorizer: TrackingAuthorizer
    /// Every decision: the run's state and rules.
    var machine: BridgeMachine
    weak var webView: (any CMPWebView)?
    /// The timers the machine scheduled (a generation number tells a replaced timer's late fire apart).
    private var timers: [BridgeMachine.Timer: RunnerTimer] = [:]
    /// Numbers the timers started, so that a replaced timer's late fire is told apart.
    private var timerGeneration = 0
    /// Every task the bridge started; ``invalidate()`` cancels them.
    var tasks = OwnedTasks()
    /// Whether the machine's ``BridgeMachine/Effect/detach`` was performed: nothing is performed afterwards.
    private(set) var detached = false
    var continuations: [UUID: AsyncStream<ConsentBridgeEvent>.Continuation] = [:]
    /// Whether a UI ever began presenting this bridge (``beginPresentation()``): a pre-warmed bridge handed over and
    /// never presented is released (`ConsentPrewarmer`).
    package internal(set) var wasPresented = false
    /// This bridge's hold over its storage's consent UI (`ConsentUIHolds`, what ``ConsentGate`` waits on): held while
    /// ``BridgeMachine/holdsConsentUI`` says its UI or its tracking prompt may be on screen, set after every input;
    /// released with the bridge, it lets go of a run the bridge left in progress.
    let consentUIHold: ConsentUIHold

    /// Creates a bridge (on the clock of apps; tests pass `WebCMPBridgeTesting`'s `ManualScheduler` to
    /// `init(configuration:store:scheduler:trackingAuthorizer:)`).
    /// - Parameters:
    ///   - configuration: the CMP page and policies.
    ///   - store: where consent is stored (``IABInAppConsent/ConsentStore/userDefaults(suiteName:)`` in apps).
    ///   - trackingAuthorizer: App Tracking Transparency; used only when ``BridgeConfiguration/tracking`` enables it.
    public convenience init(
        configuration: BridgeConfiguration, store: ConsentStore, trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) {
        self.init(configuration: configuration, store: store, scheduler: .live, trackingAuthorizer: trackingAuthorizer)
    }

    /// Creates a bridge on `scheduler`'s time (`BridgeScheduler.live` in apps).
    package init(
        configuration: BridgeConfiguration, store: ConsentStore, scheduler: BridgeScheduler,
        trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) {
        self.configuration = configuration
        self.store = store
        self.scheduler = scheduler
        self.trackingAuthorizer = trackingAuthorizer
        consentUIHold = store.storage.identity.consentUIHolds.makeHold()
        machine = BridgeMachine(
            configuration: configuration,
            renewalReason: Self.needsConsentUI(
                store: store, expiry: configuration.expiry, now: scheduler.now(), migration: configuration.migration))
    }

    /// The current state.
    public var state: State { machine.state }
    /// The dialect the page speaks: configured, or detected from its messages.
    public var dialect: CMPDialect? { machine.dialect }
    /// In ``ConsentUIMode/settings`` mode: what made the CMP show its UI (a ``PrivacySettingsCall/name``, or "the page
    /// itself"), set only on evidence that it shows it — on every dialect, Gravito and Onesecondbefore pages included
    /// (their TCF/GPP API's signals). `nil` until then, and for good when opening failed (see <doc:PrivacySettings>).
    public var privacySettingsOpenedBy: String? { machine.privacySettingsOpenedBy }

    // MARK: Lifecycle

    /// Registers the message handlers and user scripts (the app context's first, ``BridgeConfiguration/appContext``)
    /// in `webView` and starts receiving its events.
    package func attach(to webView: any CMPWebView) {
        guard state == .idle, self.webView == nil else { return }
        self.webView = webView
        webView.eventHandler = { [weak self] event in
            guard let self else { return }
            handle(.webView(event, now: scheduler.now()))
        }
        webView.navigationPolicy = { [weak self] request in self?.decidePolicy(for: request) ?? .allow }
        var setupFailure: ConsentBridgeError?
        do {
            for name in machine.handlerNames { try webView.addMessageHandler(named: name) }
        } catch {
            setupFailure = error
        }
        // The app's context first, so that it is defined before every other script and the page's own.
        if let context = machine.configuration.appContext { webView.addUserScript(context.userScript) }
        for script in machine.userScripts { webView.addUserScript(script) }
        handle(.attached(
            setupFailure: setupFailure, resourceFailures: CMPScripts.resourceFailures.map(\.description)))
    }

    /// Loads the CMP page and starts the ready timeout. With ``TrackingPolicy/beforeCMP`` the tracking prompt
    /// comes first (once the app is active). When the web view could not be set up (`attach(to:)`), the run ends at
    /// once with ``ConsentBridgeError/Code/webViewSetupFailed`` and nothing is loaded.
    public func start() {
        start(readyTimeoutWaitsForPresentation: false)
    }

    /// ``start()``; with `readyTimeoutWaitsForPresentation` the ready timeout starts only when a UI presents the page
    /// (``beginPresentation()``): a pre-warmed page loads off-screen, where WebKit may throttle it.
    package func start(readyTimeoutWaitsForPresentation: Bool) {
        // Only a start the machine takes reads the store (a second start of a running bridge, e.g. a pre-warmed page
        // a session takes, is ignored and needs no read).
        guard webView != nil, machine.phase.awaitsStart else { return }
        let stored = store.versionedRecord()
        handle(.start(
            readyTimeoutWaitsForPresentation: readyTimeoutWaitsForPresentation,
            trackingStatus: trackingAuthorizer.status(), stored: stored.record, version: stored.version))
    }

    /// Attaches, starts, and waits until the run is over: the UI finished, tracking was requested when due, and the
    /// bridge invalidated itself. Cancelling the calling task invalidates the bridge.
    package func run(in webView: any CMPWebView) async -> ConsentOutcome {
        let stream = events()
        attach(to: webView)
        start()
        var outcome = ConsentOutcome()
        for await event in stream { outcome.record(event) }
        invalidate()
        return outcome
    }

    /// Stops everything: cancels every timer and every task the bridge started (a pending tracking request never
    /// prompts afterwards), removes the handlers and user scripts, and finishes the event streams. Messages that
    /// arrive afterwards are ignored.
    public func invalidate() {
        handle(.invalidate)
    }

    /// What the web view does with a navigation of the CMP page: the page stays unless the user follows a link away
    /// from it, which opens outside the consent UI.
    ///
    /// Before the page being loaded has answered (no document from an allowed origin, no finished load, no message),
    /// a main-frame `http(s)` navigation away from the allowed origins is the load itself going elsewhere — an HTTP
    /// redirect of the CMP URL to another host or to `https`, a script redirect before the page shows — not a link
    /// the user followed: it is cancelled and the run fails with ``ConsentBridgeError/Code/loadFailed`` naming the
    /// origin (or the fallback page is shown), instead of opening the redirect target in the browser. Add the origin
    /// to ``BridgeConfiguration/allowedOrigins``, or configure the final URL, to load it in the consent UI.
    package func decidePolicy(for request: NavigationRequest) -> NavigationDecision {
        let answer = machine.decide(request)
        if let redirect = answer.redirect { handle(.loadRedirected(redirect)) }
        return answer.decision
    }

    // MARK: Running the machine

    /// Feeds `input` to the machine and performs its effects, in order; an effect answered at once (the store's
    /// answer to a save, the tracking status read) gives its answer as the next input once every effect of this one
    /// was performed: the runner never feeds the machine from inside an effect. An input that arrives while effects
    /// are performed (a web view calling back synchronously) is handled at once, as the machine has already moved on:
    /// effects are always performed in the order the machine emitted them. The storage's consent-UI hold follows the
    /// machine's state before the effects are performed (an input handled meanwhile sets it again, from the newer
    /// state).
    func handle(_ input: BridgeMachine.Input) {
        var inputs = [input]
        while !inputs.isEmpty {
            let effects = machine.handle(inputs.removeFirst())
            consentUIHold.isHeld = machine.holdsConsentUI
            reportTrackingRequestInFlight()
            for effect in effects {
                if let answer = perform(effect) { inputs.append(answer) }
            }
        }
    }

    /// Performs `effect`; returns the answer of an effect answered at once.
    func perform(_ effect: BridgeMachine.Effect) -> BridgeMachine.Input? {
        guard !detached else { return nil }
        switch effect {
        case .load(let url, let id):
            webView?.load(url, id: id)
        case .evaluate(let script):
            webView?.evaluateJavaScript(script)
        case .injectStoredRecord(let origin):
            webView?.evaluateJavaScript(CMPScripts.cookieData(record: store.record(), targetOrigin: origin))
        case .store(let save):
            let (error, written) = write(save)
            return .storeAnswered(save.id, error, written: written, trackingStatus: trackingAuthorizer.status())
        case .report(let event):
            report(event)
        case .schedule(let timer, let seconds):
            timers[timer]?.work?.cancel()
            timers[timer] = start(timer, seconds: seconds)
        case .cancel(let timer):
            timers.removeValue(forKey: timer)?.work?.cancel()
        case .pause(let timer):
            guard var running = timers[timer], let work = running.work else { return nil }
            work.cancel()
            running.work = nil
            running.remaining = running.left(at: scheduler.now())
            timers[timer] = running
        case .resume(let timer):
            guard let paused = timers[timer], paused.work == nil else { return nil }
            timers[timer] = start(timer, seconds: paused.remaining)
        case .waitUntilActive:
            tasks.start { @MainActor [weak self] in
                await self?.trackingAuthorizer.waitUntilActive()
                guard !Task.isCancelled else { return }
                self?.afterOtherTrackingRequests()
            }
        case .requestTracking:
            tasks.start { @MainActor [weak self] in
                guard let authorizer = self?.trackingAuthorizer else { return }
                let result: Result<TrackingAuthorizationStatus, ConsentBridgeError>
                do throws(ConsentBridgeError) {
                    result = .success(try await authorizer.request())
                } catch {
                    result = .failure(error)
                }
                guard !Task.isCancelled else { return }
                self?.handle(.trackingAnswered(result, statusNow: authorizer.status()))
            }
        case .readTrackingStatus:
            return .trackingStatusRead(trackingAuthorizer.status())
        case .openAppSettings:
            webView?.openAppSettings()
        case .clearStore:
            store.clearAll(
                provenance: ConsentProvenance(.app, .cleared),
                details: ConsentHistoryEntry.pageDetails(dialect: machine.dialect, pageURL: configuration.cmpURL))
        case .detach:
            detach()
        }
        return nil
    }

    /// Writes `save` (one lock of the storage) only over the stored text it was prepared on (``BridgeMachine/Save/replacing``);
    /// the answer is `nil` and the text it left when it is stored. When another write changed the record meanwhile
    /// nothing is written and the error is ``ConsentStoreError/recordChanged(current:version:)``: the machine
    /// prepares the save again on the record in force.
    private func write(_ save: BridgeMachine.Save) -> (ConsentStoreError?, ConsentStore.RecordVersion) {
        do {
            let written = try store.apply(
                save.keys, record: save.record, provenance: save.provenance, details: save.details, now: save.now,
                replacing: save.replacing)
            return (nil, written)
        } catch {
            return (error, save.replacing)
        }
    }

    /// Schedules `timer` to fire after `seconds`, as a new generation.
    private func start(_ timer: BridgeMachine.Timer, seconds: TimeInterval) -> RunnerTimer {
        timerGeneration += 1
        let generation = timerGeneration
        let work = scheduler.schedule(seconds) { [weak self] in self?.timerFired(timer, generation: generation) }
        return RunnerTimer(work: work, generation: generation, deadline: scheduler.now() + seconds, remaining: seconds)
    }

    private func timerFired(_ timer: BridgeMachine.Timer, generation: Int) {
        guard timers[timer]?.generation == generation else { return }
        timers[timer] = nil
        handle(.timerFired(timer))
    }

    private func detach() {
        detached = true
        tasks.cancelAll()
        for (_, timer) in timers { timer.work?.cancel() }
        timers.removeAll()
        if let webView {
            webView.eventHandler = nil
            webView.navigationPolicy = nil
            for name in machine.handlerNames { webView.removeMessageHandler(named: name) }
            webView.removeAllUserScripts()
        }
        webView = nil
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
        delegate?.bridgeDidDetach(self)
    }
}

/// A timer the runner scheduled for the machine: its work (`nil` while paused), its generation, when it fires and,
/// while paused, the time it had left.
private struct RunnerTimer {
    var work: ScheduledWork?
    let generation: Int
    let deadline: Date
    var remaining: TimeInterval

    /// The time left at `now`: never negative, never more than it had (the date may jump).
    func left(at now: Date) -> TimeInterval {
        min(max(0, deadline.timeIntervalSince(now)), remaining)
    }
}
