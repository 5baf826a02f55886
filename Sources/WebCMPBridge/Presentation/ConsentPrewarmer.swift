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
/// - ``take(matching:store:trackingAuthorizer:)`` hands the bridge and its web view over to the UI, which then owns
///   them, only when the UI asks for the same request: the same store (the same storage,
///   `KeyValueStorage.Identity`), the same URL, mode (a settings request never gets the first layer), dialect,
///   origins, fallback, timeouts, tracking policy and tracking client, and the same commit rules (``BridgeConfiguration/cmpSDKID``,
///   ``BridgeConfiguration/cmpSDKVersion``, ``BridgeConfiguration/gdprApplies``, expiry, migration, limits, the
///   disclosed-vendors policy, dismissal, links, settings opener): a page pre-warmed for other rules would store
///   consent under those;
/// - a web view waits where WebKit keeps its page running (the `place` closure: a window of a foreground scene); when
///   there is none yet (at launch, before a scene is active), ``sceneActivated()`` tries again;
/// - it is released (the bridge invalidated, the `release` closure of
///   ``init(idleTimeout:handoverTimeout:scheduler:release:place:)`` called with the web view) on
///   ``didReceiveMemoryWarning()``, after ``idleTimeout`` seconds without a ``take()``, when the page's run ends on its
///   own (a load failure, the ready timeout) and on ``releasePrewarmed()``;
/// - a bridge that was taken but whose presentation never began (``ConsentBridge/beginPresentation()``) within
///   ``handoverTimeout`` seconds — the presentation was refused, a SwiftUI sheet never appeared, the taker dropped
///   it — is released the same way, so that its page does not run hidden in a window for the rest of the app's life.
///
/// ```swift
/// let prewarmer = ConsentPrewarmer<MyWebView>(release: { $0.close() })
/// prewarmer.prewarm(configuration: configuration, store: store) { MyWebView() }
/// // later, when presenting:
/// if let prewarmed = prewarmer.take(matching: configuration, store: store) { present(prewarmed.bridge, in: prewarmed.webView) }
/// ```
///
/// While it holds a bridge, the prewarmer is the bridge's delegate; the events reported off-screen are handed over
/// with it (`Prewarmed.eventsBeforePresentation`), and the UI sets its own delegate when it takes it.
@MainActor
package final class ConsentPrewarmer<WebView: CMPWebView>: ConsentBridgeDelegate {
    /// A pre-warmed bridge and its web view: the bridge is attached and started (loading or ready).
    package struct Prewarmed {
        /// The bridge, attached to ``webView`` and started; its delegate is `nil`.
        package let bridge: ConsentBridge
        /// The web view with the CMP page loading or loaded.
        package let webView: WebView
        /// What the bridge reported before it was taken, in order (e.g. ``ConsentBridgeEvent/uiReady(_:)``, or the
        /// diagnostic of a hosted page that failed and was replaced by the fallback).
        package var eventsBeforePresentation: [ConsentBridgeEvent] = []
    }

    /// Seconds a pre-warmed view is kept without being taken. Default 120.
    package let idleTimeout: TimeInterval
    /// Seconds a taken bridge has to begin its presentation before it is released. Default 10 (a presentation shows
    /// in well under a second).
    package let handoverTimeout: TimeInterval
    /// How many times a web view was created (for tests and measurements).
    private(set) var createdCount = 0

    private let scheduler: BridgeScheduler
    private let release: @MainActor (WebView) -> Void
    private let place: @MainActor (WebView) -> Bool
    private var current: Prewarmed?
    /// Whether ``current``'s web view waits where its page keeps running.
    private var placed = false
    /// Bridges handed over whose presentation has not been checked yet, with their check.
    private var handedOver: [(prewarmed: Prewarmed, check: ScheduledWork)] = []
    private var currentRequest: (key: PrewarmKey, trackingAuthorizer: TrackingAuthorizer)?
    private var idleWork: ScheduledWork?

    /// Creates a prewarmer.
    /// - Parameters:
    ///   - idleTimeout: seconds before an untaken pre-warmed view is released.
    ///   - handoverTimeout: seconds a taken bridge has to begin its presentation before it is released.
    ///   - scheduler: time; `BridgeScheduler.live` in apps.
    ///   - release: destroys a released web view (e.g. `WKCMPWebView.invalidate()`); the bridge is already
    ///     invalidated.
    ///   - place: puts a new web view where its page keeps running (a window); `false` when there is no such place
    ///     yet (``sceneActivated()`` tries again).
    package init(
        idleTimeout: TimeInterval = 120, handoverTimeout: TimeInterval = 10, scheduler: BridgeScheduler = .live,
        release: @escaping @MainActor (WebView) -> Void = { _ in },
        place: @escaping @MainActor (WebView) -> Bool = { _ in true }
    ) {
        self.idleTimeout = idleTimeout
        self.handoverTimeout = handoverTimeout
        self.scheduler = scheduler
        self.place = place
        self.release = release
    }

    /// Whether a pre-warmed bridge is held.
    package var isPrewarmed: Bool { current != nil }

    /// Whether the held bridge's page is ready (presenting it shows the CMP at once).
    package var isReady: Bool { current?.bridge.state == .ready }

    /// Whether the held web view waits where its page keeps running (see `place` in
    /// ``init(idleTimeout:handoverTimeout:scheduler:release:place:)``).
    package var isPlaced: Bool { current != nil && placed }

    /// A scene became active (or entered the foreground): a held web view that found no window so far is placed now.
    package func sceneActivated() {
        guard let current, !placed else { return }
        placed = place(current.webView)
    }

    /// Creates the web view and the bridge and starts loading the CMP page off-screen, when consent is needed and
    /// nothing is pre-warmed yet.
    /// - Returns: whether a pre-warmed bridge is held afterwards (`false` when the stored consent is good).
    @discardableResult
    package func prewarm(
        configuration: BridgeConfiguration, store: ConsentStore, trackingAuthorizer: TrackingAuthorizer = .unavailable,
        makeWebView: () -> WebView
    ) -> Bool {
        if current != nil { return true }
        guard !configuration.tracking.shouldRequestBeforeCMP(status: trackingAuthorizer.status()),
            ConsentBridge.needsConsentUI(
                store: store, expiry: configuration.expiry, now: scheduler.now(), migration: configuration.migration)
                != nil
        else { return false }
        let webView = makeWebView()
        createdCount += 1
        let bridge = ConsentBridge(
            configuration: configuration, store: store, scheduler: scheduler, trackingAuthorizer: trackingAuthorizer)
        bridge.delegate = self
        current = Prewarmed(bridge: bridge, webView: webView)
        currentRequest = (PrewarmKey(configuration, store: store), trackingAuthorizer)
        placed = place(webView)
        idleWork = scheduler.schedule(idleTimeout) { [weak self] in self?.releasePrewarmed() }
        bridge.attach(to: webView)
        bridge.start(readyTimeoutWaitsForPresentation: true)
        return current != nil
    }

    /// Hands the pre-warmed bridge and web view over and forgets them, when they were pre-warmed for the same
    /// request: the same `store` (the same storage), every setting of `configuration` that decides the page or what
    /// is stored (see the type's notes; the fallback page by its entry URL), and the same `trackingAuthorizer` (or a
    /// copy of it). `nil` when none is held or it was made for another request (it is then kept until it is taken,
    /// released, or idle). The bridge must begin its presentation within ``handoverTimeout`` seconds.
    package func take(
        matching configuration: BridgeConfiguration, store: ConsentStore,
        trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) -> Prewarmed? {
        guard let request = currentRequest, request.key == PrewarmKey(configuration, store: store),
            request.trackingAuthorizer.isSame(as: trackingAuthorizer)
        else { return nil }
        return take()
    }

    /// Hands the pre-warmed bridge and web view over, whatever they were made for, and forgets them. `nil` when none
    /// is held. A UI should use ``take(matching:store:trackingAuthorizer:)``. The bridge must begin its presentation
    /// within ``handoverTimeout`` seconds, or it is released.
    package func take() -> Prewarmed? {
        guard let prewarmed = current else { return nil }
        forget()
        prewarmed.bridge.delegate = nil
        let bridge = prewarmed.bridge
        let check = scheduler.schedule(handoverTimeout) { [weak self, weak bridge] in
            guard let self, let bridge else { return }
            self.checkHandover(of: bridge)
        }
        handedOver.append((prewarmed, check))
        return prewarmed
    }

    /// The handover of `bridge` is due: released unless its presentation began.
    private func checkHandover(of bridge: ConsentBridge) {
        guard let index = handedOver.firstIndex(where: { $0.prewarmed.bridge === bridge }) else { return }
        let prewarmed = handedOver.remove(at: index).prewarmed
        guard !bridge.wasPresented else { return }
        bridge.invalidate()
        release(prewarmed.webView)
    }

    /// Releases the pre-warmed view because the system is short of memory.
    package func didReceiveMemoryWarning() {
        releasePrewarmed()
    }

    /// Releases the pre-warmed view, if any: invalidates its bridge and hands the web view to `release`.
    package func releasePrewarmed() {
        guard let prewarmed = current else { return }
        forget()
        prewarmed.bridge.invalidate()
        release(prewarmed.webView)
    }

    private func forget() {
        current = nil
        currentRequest = nil
        placed = false
        idleWork?.cancel()
        idleWork = nil
    }

    /// Records what the held bridge reports; a run that ends on its own before presentation (a load failure, the
    /// ready timeout) is released at once.
    package func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
        guard current?.bridge === bridge else { return }
        current?.eventsBeforePresentation.append(event)
        if event.endsPresentation { releasePrewarmed() }
    }
}

/// What a pre-warmed page was made for: a request matches it when all of this is equal — the store's storage and
/// every setting of the configuration (the language and query items through the resolved URL, the fallback page by
/// its entry URL).
struct PrewarmKey: Hashable {
    var storage: KeyValueStorage.Identity
    var url: URL
    var mode: ConsentUIMode
    var dialect: CMPDialect?
    var allowedOrigins: Set<String>
    var fallbackEntry: URL?
    var readyTimeout: TimeInterval
    var finishDelay: TimeInterval
    var settingsAttemptTimeout: TimeInterval
    var tracking: TrackingPolicy
    var externalLinks: ExternalLinkPolicy
    var clearsConsentOnTimeout: Bool
    var cmpSDKID: Int?
    var cmpSDKVersion: Int?
    var gdprApplies: Bool?
    var expiry: ConsentExpiryPolicy
    var limits: JSONLimits
    var interactiveDismissal: InteractiveDismissal
    var privacySettings: PrivacySettingsOpener?
    var migration: ConsentMigration
    var missingDisclosedVendors: MissingDisclosedVendorsPolicy

    init(_ configuration: BridgeConfiguration, store: ConsentStore) {
        storage = store.storage.identity
        url = configuration.resolvedURL
        mode = configuration.mode
        dialect = configuration.dialect
        allowedOrigins = configuration.allowedOrigins
        fallbackEntry = configuration.fallback?.entryURL
        readyTimeout = configuration.readyTimeout
        finishDelay = configuration.finishDelay
        settingsAttemptTimeout = configuration.settingsAttemptTimeout
        tracking = configuration.tracking
        externalLinks = configuration.externalLinks
        clearsConsentOnTimeout = configuration.clearsConsentOnTimeout
        cmpSDKID = configuration.cmpSDKID
        cmpSDKVersion = configuration.cmpSDKVersion
        gdprApplies = configuration.gdprApplies
        expiry = configuration.expiry
        limits = configuration.limits
        interactiveDismissal = configuration.interactiveDismissal
        privacySettings = configuration.privacySettings
        migration = configuration.migration
        missingDisclosedVendors = configuration.missingDisclosedVendors
    }
}
