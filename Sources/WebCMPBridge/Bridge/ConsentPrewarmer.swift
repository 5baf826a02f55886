import Foundation

/// Loads the CMP page off-screen before the app presents it, so that presenting shows it at once.
///
/// The prewarmer owns the decision and the lifecycle; the platform glue only creates and destroys the web view:
/// - ``prewarm(configuration:store:trackingAuthorizer:makeWebView:)`` creates a web view and a ``ConsentBridge`` and
///   starts loading **only when** ``ConsentBridge/needsConsentUI(store:expiry:now:migration:)`` says consent is
///   needed, and not when the configuration asks for App Tracking Transparency before the CMP
///   (``TrackingPolicy/beforeCMP``): that prompt must not appear at launch without a consent UI;
/// - the pre-warmed page's ready timeout starts only when a UI presents it (``ConsentBridge/beginPresentation()``):
///   off-screen, WebKit may throttle the page's timers, and a slow start there must not end in a timeout;
/// - there is at most one pre-warmed view: a second call keeps the first;
/// - ``take(matching:trackingAuthorizer:)`` hands the bridge and its web view over to the UI, which then owns them
///   (the prewarmer forgets them), only when the UI asks for the same page: the same URL, mode (a settings request
///   never gets the first layer), dialect, origins, fallback, timeouts, tracking policy and tracking client;
/// - it is released (the bridge invalidated, the `release` closure of ``init(idleTimeout:scheduler:release:)`` called
///   with the web view) on ``didReceiveMemoryWarning()``, after ``idleTimeout`` seconds without a ``take()``, when the
///   page's run ends on its own (a load failure, the ready timeout) and on ``releasePrewarmed()``.
///
/// ```swift
/// let prewarmer = ConsentPrewarmer<MyWebView>(release: { $0.close() })
/// prewarmer.prewarm(configuration: configuration, store: store) { MyWebView() }
/// // later, when presenting:
/// if let prewarmed = prewarmer.take(matching: configuration) { present(prewarmed.bridge, in: prewarmed.webView) }
/// ```
///
/// While it holds a bridge, the prewarmer is the bridge's delegate; the events reported off-screen are handed over
/// with it (``Prewarmed/eventsBeforePresentation``), and the UI sets its own delegate when it takes it.
@MainActor
public final class ConsentPrewarmer<WebView: CMPWebView>: ConsentBridgeDelegate {
    /// A pre-warmed bridge and its web view: the bridge is attached and started (loading or ready).
    public struct Prewarmed {
        /// The bridge, attached to ``webView`` and started; its delegate is `nil`.
        public let bridge: ConsentBridge
        /// The web view with the CMP page loading or loaded.
        public let webView: WebView
        /// What the bridge reported before it was taken, in order (e.g. ``ConsentBridgeEvent/uiReady(_:)``, or the
        /// diagnostic of a hosted page that failed and was replaced by the fallback).
        public var eventsBeforePresentation: [ConsentBridgeEvent] = []
    }

    /// Seconds a pre-warmed view is kept without being taken. Default 120.
    public let idleTimeout: TimeInterval
    /// How many times a web view was created (for tests and measurements).
    private(set) var createdCount = 0

    private let scheduler: BridgeScheduler
    private let release: @MainActor (WebView) -> Void
    private var current: Prewarmed?
    private var currentRequest: (key: PrewarmKey, trackingAuthorizer: TrackingAuthorizer)?
    private var idleWork: ScheduledWork?

    /// Creates a prewarmer.
    /// - Parameters:
    ///   - idleTimeout: seconds before an untaken pre-warmed view is released.
    ///   - scheduler: time; ``BridgeScheduler/live`` in apps.
    ///   - release: destroys a released web view (e.g. `WKCMPWebView.invalidate()`); the bridge is already
    ///     invalidated.
    public init(
        idleTimeout: TimeInterval = 120, scheduler: BridgeScheduler = .live,
        release: @escaping @MainActor (WebView) -> Void = { _ in }
    ) {
        self.idleTimeout = idleTimeout
        self.scheduler = scheduler
        self.release = release
    }

    /// Whether a pre-warmed bridge is held.
    package var isPrewarmed: Bool { current != nil }

    /// Whether the held bridge's page is ready (presenting it shows the CMP at once).
    package var isReady: Bool { current?.bridge.state == .ready }

    /// Creates the web view and the bridge and starts loading the CMP page off-screen, when consent is needed and
    /// nothing is pre-warmed yet.
    /// - Returns: whether a pre-warmed bridge is held afterwards (`false` when the stored consent is good).
    @discardableResult
    public func prewarm(
        configuration: BridgeConfiguration, store: ConsentStore, trackingAuthorizer: TrackingAuthorizer = .unavailable,
        makeWebView: () -> WebView
    ) -> Bool {
        if current != nil { return true }
        guard !configuration.tracking.shouldRequestBeforeCMP(status: trackingAuthorizer.status()),
            ConsentBridge.needsConsentUI(store: store, expiry: configuration.expiry, now: scheduler.now()) != nil
        else { return false }
        let webView = makeWebView()
        createdCount += 1
        let bridge = ConsentBridge(
            configuration: configuration, store: store, scheduler: scheduler, trackingAuthorizer: trackingAuthorizer)
        bridge.delegate = self
        current = Prewarmed(bridge: bridge, webView: webView)
        currentRequest = (PrewarmKey(configuration), trackingAuthorizer)
        idleWork = scheduler.schedule(idleTimeout) { [weak self] in self?.releasePrewarmed() }
        bridge.attach(to: webView)
        bridge.start(readyTimeoutWaitsForPresentation: true)
        return current != nil
    }

    /// Hands the pre-warmed bridge and web view over and forgets them, when they were pre-warmed for the same page:
    /// `configuration`'s resolved URL, mode, dialect, allowed origins, fallback, ready timeout and tracking policy,
    /// and the same `trackingAuthorizer` (or a copy of it). `nil` when none is held or it was made for another
    /// request (it is then kept until it is taken, released, or idle).
    public func take(
        matching configuration: BridgeConfiguration, trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) -> Prewarmed? {
        guard let request = currentRequest, request.key == PrewarmKey(configuration),
            request.trackingAuthorizer.isSame(as: trackingAuthorizer)
        else { return nil }
        return take()
    }

    /// Hands the pre-warmed bridge and web view over, whatever they were made for, and forgets them. `nil` when none
    /// is held. A UI should use ``take(matching:trackingAuthorizer:)``.
    public func take() -> Prewarmed? {
        guard let prewarmed = current else { return nil }
        forget()
        prewarmed.bridge.delegate = nil
        return prewarmed
    }

    /// Releases the pre-warmed view because the system is short of memory.
    public func didReceiveMemoryWarning() {
        releasePrewarmed()
    }

    /// Releases the pre-warmed view, if any: invalidates its bridge and hands the web view to `release`.
    public func releasePrewarmed() {
        guard let prewarmed = current else { return }
        forget()
        prewarmed.bridge.invalidate()
        release(prewarmed.webView)
    }

    private func forget() {
        current = nil
        currentRequest = nil
        idleWork?.cancel()
        idleWork = nil
    }

    /// Records what the held bridge reports; a run that ends on its own before presentation (a load failure, the
    /// ready timeout) is released at once.
    public func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
        guard current?.bridge === bridge else { return }
        current?.eventsBeforePresentation.append(event)
        if event.endsPresentation { releasePrewarmed() }
    }
}

/// What a pre-warmed page was made for: a request matches it when all of this is equal.
struct PrewarmKey: Hashable {
    var url: URL
    var mode: ConsentUIMode
    var dialect: CMPDialect?
    var allowedOrigins: Set<String>
    var fallbackEntry: URL?
    var readyTimeout: TimeInterval
    var tracking: TrackingPolicy

    init(_ configuration: BridgeConfiguration) {
        url = configuration.resolvedURL
        mode = configuration.mode
        dialect = configuration.dialect
        allowedOrigins = configuration.allowedOrigins
        fallbackEntry = configuration.fallback?.entryURL
        readyTimeout = configuration.readyTimeout
        tracking = configuration.tracking
    }
}
