import Foundation

// The journey target's ONE point of contact with the kit's API (Fuzz/Targets/Journey/JourneyTarget.swift decides
// what happens, JourneyInvariants.swift checks the promises): how a presentation is made and told what UIKit did, how
// a pre-warm is taken, how the gate decides, how the tracking client answers, how the app's lifecycle reaches the
// kit. When the kit's API changes, this file changes; the journeys and the invariants do not.
//
// A presentation is the core's `ConsentSession`, made, asked for and started the way the glue (WebCMPBridgeUI's
// ConsentViewController, which no Linux build compiles) does it; the journey reports UIKit's facts to it.

/// The fake clock: `now` moves only in `advance(by:)`, which fires what is due, in order (work scheduled by what
/// fires, and due by then, fires in the same advance).
@MainActor
final class JourneyClock {
    nonisolated(unsafe) private(set) var elapsed: TimeInterval = 0
    private var pending: [(id: Int, due: TimeInterval, action: @MainActor @Sendable () -> Void)] = []
    private var nextID = 0
    nonisolated static let epoch = Date(timeIntervalSince1970: 1_750_000_000)

    /// The kit's scheduler on this clock.
    var scheduler: BridgeScheduler {
        BridgeScheduler(
            now: { [self] in JourneyClock.epoch + self.elapsed },
            schedule: { [self] delay, action in
                let id = self.nextID
                self.nextID += 1
                self.pending.append((id, self.elapsed + max(0, delay), action))
                return ScheduledWork { [weak self] in self?.pending.removeAll { $0.id == id } }
            })
    }

    var now: Date { Self.epoch + elapsed }
    var pendingCount: Int { pending.count }

    /// Moves time on by `seconds`, firing everything due by then in order of due time; `each` runs after every fired
    /// work, and when `stop` then holds, time stops there. Returns the seconds not moved on (0 unless stopped).
    @discardableResult
    func advance(by seconds: TimeInterval, after each: () -> Void = {}, stopWhen stop: () -> Bool = { false })
        -> TimeInterval
    {
        let target = elapsed + seconds
        while let next = pending.indices.min(by: { pending[$0].due < pending[$1].due }), pending[next].due <= target {
            let work = pending.remove(at: next)
            elapsed = max(elapsed, work.due)
            work.action()
            each()
            if stop() { return target - elapsed }
        }
        elapsed = target
        return 0
    }

    func reset() {
        pending.removeAll()
        elapsed = 0
    }
}

/// The fake web view: records loads, handlers, Settings openings; the journey posts messages through it.
@MainActor
final class JourneyWebView: CMPWebView {
    var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    var handlers: Set<String> = []
    var lastLoad: WebViewLoadID?
    /// Set by the world: called on every Settings opening through the web view's own path.
    var onOpenSettings: (@MainActor () -> Void)?
    /// Whether the prewarmer (or the glue) released this web view.
    var released = false
    /// Whether the prewarmer made it (its page loads before any UI shows it).
    var prewarmed = false
    /// Whether a UI has shown it to the user (the journey reported `.shown` to a session presenting it).
    var shownToUser = false
    /// Whether a user can have acted on its page: not a pre-warmed page no UI has shown yet (SessionPromises.md,
    /// promise 5: a choice such a page states is recorded as a report).
    var userCanAct: Bool { !prewarmed || shownToUser }

    func load(_ url: URL, id: WebViewLoadID) { lastLoad = id }
    func addUserScript(_ script: UserScript) {}
    func removeAllUserScripts() {}
    func evaluateJavaScript(_ source: String) {}
    func addMessageHandler(named name: String) throws(ConsentBridgeError) { handlers.insert(name) }
    func removeMessageHandler(named name: String) { handlers.remove(name) }
    func openAppSettings() { onOpenSettings?() }

    /// The page (generic TCF forwarder, handler `webcmpTCF`) posts `body` from the main frame of its own origin.
    func post(_ body: String) {
        guard handlers.contains("webcmpTCF") else { return }
        eventHandler?(.message(ScriptMessage(
            handlerName: "webcmpTCF", body: .json(body), isMainFrame: true, origin: "https://cmp.example.com")))
    }

    func send(_ event: WebViewEvent) { eventHandler?(event) }
}

/// The fake App Tracking Transparency client. `request()` never suspends (the journey runs synchronously): it answers
/// at once the way iOS does — `.notDetermined` without a prompt while the app is inactive; otherwise, per journey, the
/// answer at once (the alert answered instantly), or iOS 17.4's early `.denied` with the status still `.notDetermined`
/// while the alert shows late (after `showDelay` active seconds) or never, and is answered `answerDelay` seconds after
/// it showed. The alert on screen makes the app resign active; its answer makes it active again (the world does that).
@MainActor
final class JourneyTracking {
    enum Alert: Equatable {
        case none
        /// Requested; shows after this many more seconds of active app, or never (`nil`).
        case pending(showIn: TimeInterval?)
        /// On screen; answered after this many more seconds.
        case onScreen(answerIn: TimeInterval)
    }
    var status: TrackingAuthorizationStatus = .notDetermined
    var answer: TrackingAuthorizationStatus = .authorized
    var earlyDenied = false
    var showDelay: TimeInterval? = 2
    var answerDelay: TimeInterval = 3
    /// Whether the app is active; becoming active resumes what waits for it (`waitUntilActive`).
    var active = true {
        didSet { if active { resumeWaitingForActive() } }
    }
    var alert: Alert = .none
    var requests = 0
    private var waitingForActive: [CheckedContinuation<Void, Never>] = []

    /// `waitUntilActive` returns once the app is active, as the live client does (it waits for
    /// `didBecomeActiveNotification`): Apple's `ATTrackingManager.h` says "Calls to the API only prompt when the
    /// application state is `UIApplicationStateActive`", so the kit waits for an active app before it asks. (A fake
    /// that returned at once let the kit request while inactive, get `.notDetermined` twice and settle with another
    /// bridge's alert still to come: a finding of the harness, not of the kit.)
    lazy var client = TrackingAuthorizer(
        status: { [unowned self] in self.status },
        request: { [unowned self] in self.request() },
        waitUntilActive: { [unowned self] in await self.waitUntilActive() })

    private func waitUntilActive() async {
        guard !active else { return }
        await withCheckedContinuation { waitingForActive.append($0) }
        resuming -= 1
    }

    /// Resumes every wait for an active app. Swift's runtime resumes a task now and then through another thread, so
    /// the resumption reaches the main queue a little later: `JourneyKit.settle()` waits until ``resuming`` is 0.
    func resumeWaitingForActive() {
        let waiting = waitingForActive
        waitingForActive.removeAll()
        resuming += waiting.count
        for continuation in waiting { continuation.resume() }
    }

    /// Waits for an active app resumed whose task has not run yet.
    private(set) var resuming = 0

    private func request() -> TrackingAuthorizationStatus {
        requests += 1
        guard active, status == .notDetermined else { return status }
        // One alert at a time: a request while one is pending or up answers early again and shows nothing new.
        if alert != .none { return .denied }
        if !earlyDenied {
            status = answer
            return answer
        }
        alert = .pending(showIn: showDelay)
        return .denied
    }

    func reset() {
        status = .notDetermined; answer = .authorized; earlyDenied = false; showDelay = 2; answerDelay = 3
        active = true; alert = .none; requests = 0
        resumeWaitingForActive()
    }
}

/// One presentation of the consent UI: the core's `ConsentSession` (the one owner of the run), as the glue makes it;
/// the journey reports UIKit's facts to it. Held only by what holds it in an app (UIKit while presented, the app's
/// reference): the session keeps itself alive as long as it must.
@MainActor
final class JourneyPresentation {
    let session: ConsentSession<JourneyWebView>
    let wasPrewarmed: Bool

    init(_ session: ConsentSession<JourneyWebView>, wasPrewarmed: Bool) {
        self.session = session
        self.wasPrewarmed = wasPrewarmed
    }

    var bridge: ConsentBridge { session.bridge }
    var webView: JourneyWebView { session.webView }
    var phase: ConsentPresentationLifecycle.Phase { session.phase }
    /// Whether UIKit may show this UI now: asked for and not yet gone.
    var mayBeOnScreen: Bool { [.presenting, .shown, .covered].contains(session.phase) }
    /// Whether the session still waits for its run's task to return (the bridge is done, the task not yet).
    var awaitsRunTask: Bool { session.isStarted && session.outcome == nil && session.bridge.state == .invalidated }

    func onFinish(_ handler: @escaping (ConsentOutcome) -> Void) { session.onFinish = handler }
    func onDismissRequest(_ handler: @escaping () -> Void) { session.onDismiss = handler }
    func onEvent(_ handler: @escaping (ConsentBridgeEvent) -> Void) { session.onEvent = handler }
}

/// The composed kit of one journey: the store, the clock, the tracking client, the prewarmer, the presentations.
@MainActor
final class JourneyKit {
    let clock = JourneyClock()
    let tracking = JourneyTracking()
    let storage: KeyValueStorage
    var store: ConsentStore
    var configuration: BridgeConfiguration
    var consentRequired = true
    var migrationEnabled = true
    private(set) var prewarmer: ConsentPrewarmer<JourneyWebView>!
    var makeWebView: () -> JourneyWebView = { JourneyWebView() }

    init() {
        storage = .inMemory()
        store = ConsentStore(storage: storage)
        configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/")!, dialect: .tcf, readyTimeout: 30)
        prewarmer = makePrewarmer()
    }

    private func makePrewarmer() -> ConsentPrewarmer<JourneyWebView> {
        ConsentPrewarmer<JourneyWebView>(scheduler: clock.scheduler, release: { $0.released = true })
    }

    /// A new journey: empty storage (`previousSDK` seeds a previous SDK's IAB keys), the configuration's options.
    func reset(tracking policy: TrackingPolicy, migration: Bool, consentRequired: Bool, previousSDK: String?) {
        prewarmer = makePrewarmer()
        clock.reset()
        tracking.reset()
        try? storage.write([:], storage.keys([""]))
        if let previousSDK {
            try? storage.write(["IABTCF_TCString": .string(previousSDK), "IABTCF_gdprApplies": .int(1)], [])
        }
        store = ConsentStore(storage: storage)
        store.historyMaximumEntries = 3
        configuration.tracking = policy
        configuration.migration = ConsentMigration(isEnabled: migration)
        migrationEnabled = migration
        self.consentRequired = consentRequired
    }

    /// Whether the store's history entry says the user chose (what the kit records for a user's choice).
    func saysUserChose(_ entry: ConsentHistoryEntry) -> Bool { entry.provenance.action == .userChoice }

    /// Whether the stored history holds an entry a migration made.
    func historyHasMigration() -> Bool { consentHistory().contains { $0.provenance.source == .previousSDK } }

    /// The stored history as the store's `consentHistory()` returns it, decoded again only when its stored text
    /// changed (decoding it after every step was a sixth of the target's time).
    func consentHistory() -> [ConsentHistoryEntry] {
        let text = historyText()
        if text != cachedHistory.text { cachedHistory = (text, store.consentHistory()) }
        return cachedHistory.entries
    }
    private var cachedHistory: (text: String?, entries: [ConsentHistoryEntry]) = (nil, [])

    /// The history's stored text (compared instead of decoded: it changes exactly when the history does).
    func historyText() -> String? {
        guard case .string(let text)? = storage.load([ConsentStore.historyKey])[ConsentStore.historyKey] else { return nil }
        return text
    }

    // MARK: Presenting

    /// The sessions made so far (weakly), whose run tasks `settle()` waits for.
    private var sessions: [Weak] = []
    private struct Weak { weak var presentation: JourneyPresentation? ; weak var session: ConsentSession<JourneyWebView>? }

    /// A new presentation (the glue's controller or SwiftUI host): with the pre-warmed bridge when `takePrewarm` and
    /// one matches, else a new bridge. Not yet asked for.
    func makePresentation(takePrewarm: Bool) -> JourneyPresentation {
        let session: ConsentSession<JourneyWebView>
        var prewarmed = false
        if takePrewarm, let taken = prewarmer.take(
            matching: configuration, store: store, trackingAuthorizer: tracking.client) {
            session = ConsentSession(
                bridge: taken.bridge, webView: taken.webView, eventsBeforePresentation: taken.eventsBeforePresentation,
                makeWebView: { [unowned self] in self.makeWebView() }, runEnded: { _ in }, release: { $0.released = true })
            prewarmed = true
        } else {
            let bridge = ConsentBridge(
                configuration: configuration, store: store, scheduler: clock.scheduler,
                trackingAuthorizer: tracking.client)
            session = ConsentSession(
                bridge: bridge, webView: makeWebView(), makeWebView: { [unowned self] in self.makeWebView() }, runEnded: { _ in },
                release: { $0.released = true })
        }
        sessions.append(Weak(session: session))
        return JourneyPresentation(session, wasPrewarmed: prewarmed)
    }

    /// `present(from:)`: asks to present it (UIKit's preconditions hold) and, when it may, loads its view, which
    /// starts the run. `false`: refused (a second present of the same UI is refused and leaves it as it is).
    @discardableResult
    func present(_ presentation: JourneyPresentation) -> Bool {
        guard presentation.session.requestPresentation(allowed: true) else { return false }
        presentation.session.start()
        return true
    }

    /// What UIKit reported about the presentation.
    func shown(_ p: JourneyPresentation) { p.session.report(.shown) }
    func covered(_ p: JourneyPresentation) { p.session.report(.covered) }
    func uncovered(_ p: JourneyPresentation) { p.session.report(.uncovered) }
    func dismissed(_ p: JourneyPresentation) { p.session.report(.dismissed) }
    func removedFromParent(_ p: JourneyPresentation) { p.session.report(.removedFromParent) }
    /// The screen was torn down without a dismissal (the window's root replaced, the scene closed).
    func tornDown(_ p: JourneyPresentation) { p.session.report(.tornDown) }
    func closeTapped(_ p: JourneyPresentation) { p.session.report(.closeRequested) }

    // MARK: Pre-warming

    @discardableResult
    func prewarm() -> Bool {
        prewarmer.prewarm(configuration: configuration, store: store, trackingAuthorizer: tracking.client) {
            let webView = makeWebView()
            webView.prewarmed = true
            return webView
        }
    }
    func releasePrewarm() { prewarmer.releasePrewarmed() }
    func memoryWarning() { prewarmer.didReceiveMemoryWarning() }
    var isPrewarmed: Bool { prewarmer.isPrewarmed }

    // MARK: The app's lifecycle

    /// The app's lifecycle event, as every live web view's adapter reports it.
    func lifecycle(_ event: AppLifecycleEvent, webViews: [JourneyWebView]) {
        for webView in webViews { webView.send(.appLifecycle(event)) }
        if event == .didBecomeActive || event == .willEnterForeground { prewarmer.sceneActivated() }
    }

    // MARK: The gate

    /// What a `ConsentGate.wait` waiting now would resume with (`nil`: it waits on).
    func gateDecision() -> ConsentGateOutcome? {
        ConsentGate(
            store: store, expiry: configuration.expiry, consentRequired: consentRequired,
            migration: configuration.migration
        ).decide(now: clock.now)
    }

    // MARK: After each step

    /// Lets the kit's tasks run: their first jobs run when the main queue drains; a session whose bridge is done
    /// waits for its run's task (`await bridge.run(in:)`), whose resumption Swift's runtime may route through another
    /// thread: waited for here, so that a journey is the same on every run.
    func settle() {
        // A task started by a task (the tracking request after the wait for an active app, a delivery after the last
        // request in flight settled) is queued while the queue drains and runs only at the next drain: four drains
        // run chains of four such tasks now, not at the next timer (which may be a clock jump later).
        for _ in 0..<4 { drainMainQueue() }
        sessions.removeAll { $0.session == nil }
        var spins = 0
        var started: Date?
        while tracking.resuming > 0 || sessions.contains(where: { $0.session.map(JourneyKit.awaitsRunTask) ?? false }) {
            drainMainQueue()
            spins += 1
            if spins > 64 {
                sched_yield()
                if started == nil { started = Date() }
                fuzzCheck(Date().timeIntervalSince(started!) < 5, "journey harness: a run's task did not return in 5 s")
            }
        }
    }

    private static func awaitsRunTask(_ session: ConsentSession<JourneyWebView>) -> Bool {
        session.isStarted && session.outcome == nil && session.bridge.state == .invalidated
    }

    /// Forgets the sessions of the journey (after it invalidated everything).
    func forgetSessions() { sessions.removeAll() }
}

@_silgen_name("_dispatch_main_queue_callback_4CF")
private func _dispatchMainQueueCallback(_ message: UnsafeMutableRawPointer?)

/// Runs the jobs on the main queue (the kit's `Task { @MainActor … }` bodies up to their first suspension).
@MainActor
func drainMainQueue() {
    _dispatchMainQueueCallback(nil)
}
