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
/// (removing its handlers and scripts and finishing its event streams). Dialect rules: the core's `DialectDetection`
/// (see <doc:MessageDialects>).
///
/// Readiness: a ready message (Gravito `CMP-loaded`/`start`; the forwarder's `ready` once the page's `__tcfapi` or
/// `__gpp` answers `ping` as loaded), a UI-shown event or a save. Onesecondbefore pages have no ready message: with that dialect configured,
/// the finished main-frame load counts as ready. In automatic mode a load alone never counts: a page whose CMP never
/// speaks ends in a ``ConsentBridgeError/timeout(seconds:)``.
@MainActor
public final class ConsentBridge {
    /// The configuration.
    public let configuration: BridgeConfiguration
    /// The consent store.
    public let store: ConsentStore
    /// The delegate.
    public weak var delegate: (any ConsentBridgeDelegate)?
    /// The current state.
    public internal(set) var state: State = .idle
    /// The dialect the page speaks: configured, or detected from its messages.
    public var dialect: CMPDialect? { detection.current }

    /// The most recent events (up to ``eventLogCapacity``), for tests and the Linux host.
    package internal(set) var eventLog: [ConsentBridgeEvent] = []
    /// How many events ``eventLog`` keeps; older ones are dropped so that a long-lived page cannot grow memory.
    package static let eventLogCapacity = 256

    let scheduler: BridgeScheduler
    package let trackingAuthorizer: TrackingAuthorizer
    let decoder: CMPMessageDecoder
    var detection: DialectDetection
    weak var webView: (any CMPWebView)?
    var timeout: ScheduledWork?
    private var pendingFinish: ScheduledWork?
    /// The loads this bridge started; events of replaced ones are ignored (``ConsentBridge/handleLoadEvent(_:)``).
    var loads = LoadTracker()
    /// Every task the bridge started; ``invalidate()`` cancels them.
    var tasks = OwnedTasks()
    /// Whether the ready timeout waits for ``beginPresentation()`` (a pre-warmed page loads off-screen).
    var readyTimeoutWaitsForPresentation = false
    /// Why the web view could not be set up in ``attach(to:)``; ``start()`` then ends the run.
    private var setupFailure: WebViewSetupError?
    var configVersion: String?
    var pageGPP: (string: String, sections: [Int]?)?
    var pageUSPrivacy: String?
    var gppProgress = GPPUIProgress()
    var lastPayload: ConsentPayload?
    private var announcedReady = false
    var openedSettings = false
    var settingsOpening: SettingsOpening?
    var settingsTimer: ScheduledWork?
    /// In ``ConsentUIMode/settings`` mode: what made the CMP show its UI (a ``PrivacySettingsCall/name``, or "the page
    /// itself"); on a Gravito or Onesecondbefore page, which gives no UI signal, "the page (its ready message)" once it
    /// is ready. `nil` until then (see <doc:PrivacySettings>).
    public internal(set) var privacySettingsOpenedBy: String?
    var userChose = false
    /// Why consent was needed when the bridge was created (`nil`: the stored consent was good).
    let renewalReason: ConsentRenewalReason?
    /// Whether the web view shows (or loads) the app's fallback page instead of the hosted one.
    var showingFallback = false
    /// Whether the page being loaded has answered (see ``decidePolicy(for:)``).
    var pageAnswered = false
    var trackingPending = false
    var isPresented = false
    var presentationWaiters: [CheckedContinuation<Void, Never>] = []
    var continuations: [UUID: AsyncStream<ConsentBridgeEvent>.Continuation] = [:]

    /// Creates a bridge.
    /// - Parameters:
    ///   - configuration: the CMP page and policies.
    ///   - store: where consent is stored (``ConsentStore/userDefaults(suiteName:)`` in apps).
    ///   - scheduler: time; ``BridgeScheduler/live`` in apps.
    ///   - trackingAuthorizer: App Tracking Transparency; used only when ``BridgeConfiguration/tracking`` enables it.
    public init(
        configuration: BridgeConfiguration, store: ConsentStore, scheduler: BridgeScheduler = .live,
        trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) {
        self.configuration = configuration
        self.store = store
        self.scheduler = scheduler
        self.trackingAuthorizer = trackingAuthorizer
        decoder = CMPMessageDecoder(limits: configuration.limits)
        detection = DialectDetection(configured: configuration.dialect)
        renewalReason = Self.needsConsentUI(
            store: store, expiry: configuration.expiry, now: scheduler.now(), migration: configuration.migration)
    }

    // MARK: Lifecycle

    /// Registers the message handlers and user scripts in `webView` and starts receiving its events.
    public func attach(to webView: any CMPWebView) {
        guard state == .idle else { return }
        self.webView = webView
        webView.eventHandler = { [weak self] event in self?.handle(event) }
        webView.navigationPolicy = { [weak self] request in self?.decidePolicy(for: request) ?? .allow }
        do {
            for dialect in detection.listened { try webView.addMessageHandler(named: dialect.handlerName) }
        } catch {
            setupFailure = error
        }
        if detection.listened.contains(.tcf) { webView.addUserScript(CMPScripts.tcfForwarder) }
        for failure in CMPScripts.resourceFailures { report(.diagnostic(failure.description)) }
    }

    /// Loads the CMP page and starts the ready timeout. With ``TrackingPolicy/Timing/beforeCMP`` the tracking prompt
    /// comes first (once the app is active). When the web view could not be set up (``attach(to:)``), the run ends at
    /// once with ``ConsentBridgeError/webViewSetupFailed(_:)`` and nothing is loaded.
    public func start() {
        start(readyTimeoutWaitsForPresentation: false)
    }

    /// ``start()``; with `readyTimeoutWaitsForPresentation` the ready timeout starts only when a UI presents the page
    /// (``beginPresentation()``): a pre-warmed page loads off-screen, where WebKit may throttle it.
    package func start(readyTimeoutWaitsForPresentation: Bool) {
        guard state == .idle, webView != nil else { return }
        state = .loading
        self.readyTimeoutWaitsForPresentation = readyTimeoutWaitsForPresentation
        if let setupFailure { return fail(.webViewSetupFailed(setupFailure)) }
        guard configuration.tracking.shouldRequestBeforeCMP(status: trackingAuthorizer.status()) else { return load() }
        tasks.start { @MainActor [weak self] in
            await self?.trackingAuthorizer.waitUntilActive()
            guard let self, !Task.isCancelled, self.state == .loading else { return }
            await self.requestTracking()
            guard !Task.isCancelled else { return }
            self.load()
        }
    }

    /// Attaches, starts, and waits until the run is over: the UI finished, tracking was requested when due, and the
    /// bridge invalidated itself. Cancelling the calling task invalidates the bridge.
    public func run(in webView: any CMPWebView) async -> ConsentOutcome {
        let stream = events()
        attach(to: webView)
        start()
        var outcome = ConsentOutcome()
        for await event in stream { outcome.record(event) }
        invalidate()
        return outcome
    }

    /// Stops everything: cancels the timeout and every task the bridge started (a pending tracking request never
    /// prompts afterwards), removes the handlers and user scripts, and finishes the event streams. Messages that
    /// arrive afterwards are ignored.
    public func invalidate() {
        guard state != .invalidated else { return }
        state = .invalidated
        tasks.cancelAll()
        timeout?.cancel()
        timeout = nil
        pendingFinish?.cancel()
        pendingFinish = nil
        settingsTimer?.cancel()
        settingsTimer = nil
        if let webView {
            webView.eventHandler = nil
            webView.navigationPolicy = nil
            for dialect in detection.listened { webView.removeMessageHandler(named: dialect.handlerName) }
            webView.removeAllUserScripts()
        }
        webView = nil
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
        endPresentation()
    }

    var isActive: Bool { state == .loading || state == .ready }

    /// Loads `url` (default: the hosted page) as a new load (``LoadTracker``) and (re)starts the ready timeout.
    func load(_ url: URL? = nil) {
        guard state == .loading, let webView else { return }
        armReadyTimeout()
        pageAnswered = false
        let target = url ?? configuration.resolvedURL
        webView.load(target, id: loads.begin(target))
    }

    /// (Re)starts the ready timeout, unless it waits for a presentation that has not begun.
    func armReadyTimeout() {
        timeout?.cancel()
        timeout = nil
        guard !readyTimeoutWaitsForPresentation || isPresented else { return }
        timeout = scheduler.schedule(configuration.readyTimeout) { [weak self] in self?.readyTimeoutFired() }
    }

    private func readyTimeoutFired() {
        guard state == .loading, !loadFallback(after: .timeout(seconds: configuration.readyTimeout)) else { return }
        report(.error(.timeout(seconds: configuration.readyTimeout)))
        if configuration.clearsConsentOnTimeout { store.clearAll() }
        finish(.timedOut)
    }

    /// Ends the UI: nothing is stored afterwards. Then, once the UI is gone and the app is active, a pending tracking
    /// request is made, and the bridge invalidates itself.
    func finish(_ reason: UIFinishReason) {
        guard isActive else { return }
        state = .finished(reason)
        timeout?.cancel()
        timeout = nil
        pendingFinish?.cancel()
        pendingFinish = nil
        settingsTimer?.cancel()
        settingsTimer = nil
        report(.uiFinished(reason))
        guard trackingPending else { return invalidate() }
        tasks.start { @MainActor [weak self] in
            while let self, self.isPresented, !Task.isCancelled {
                await withCheckedContinuation { self.presentationWaiters.append($0) }
            }
            guard !Task.isCancelled else { return }
            await self?.trackingAuthorizer.waitUntilActive()
            guard let self, !Task.isCancelled, self.state != .invalidated else { return }
            await self.requestTracking()
            self.invalidate()
        }
    }

    /// Finishes with ``UIFinishReason/consentSaved`` after ``BridgeConfiguration/finishDelay``: CMPs update their GPP
    /// string just after the TCF event (or the other way round), and what arrives meanwhile is still stored.
    func finishAfterSettling() {
        pendingFinish?.cancel()
        pendingFinish = scheduler.schedule(configuration.finishDelay) { [weak self] in self?.finish(.consentSaved) }
    }

    /// Marks the page ready and reports ``ConsentBridgeEvent/uiReady(_:)`` once, when the dialect is known.
    /// `injectRecordTo` answers a Gravito ready message with the stored record (every time the page asks), posted to
    /// that origin only (the asking page's, already checked against the allowed origins).
    func becomeReady(injectRecordTo origin: String? = nil) {
        guard isActive else { return }
        state = .ready
        timeout?.cancel()
        timeout = nil
        if let origin {
            webView?.evaluateJavaScript(CMPScripts.cookieData(record: store.record(), targetOrigin: origin))
        }
        openSettingsIfNeeded()
        if let dialect, !announcedReady {
            announcedReady = true
            report(.uiReady(dialect))
        }
    }

    // MARK: Events from the web view

    private func handle(_ event: WebViewEvent) {
        guard isActive else { return }
        guard case .message(let message) = event else { return handleLoadEvent(event) }
        noteLoadProgress(event)
        handle(message)
    }

    func fail(_ error: ConsentBridgeError) {
        guard !loadFallback(after: error) else { return }
        report(.error(error))
        finish(.failed)
    }
}
