import Foundation
import WebCMPBridge

/// A ``CMPWebView`` for tests, without a simulator: it records what the bridge asks of it, lets a test post messages
/// as a page would, and reports load events in the order `WKWebView` does — which is harsher than WebKitGTK:
///
/// - a load that replaces a pending one makes the pending one fail with `NSURLErrorCancelled` (-999), reported
///   **after** the new load began (queued until ``deliverPendingEvents()`` or the next event the test triggers), and
///   ``url`` is then already the new URL; the failure names the URL that failed, as the error's
///   `NSURLErrorFailingURLErrorKey` does;
/// - a navigation the navigation policy stops fails with `WebKitErrorDomain` 102 (frame load interrupted), as
///   WebKit reports a cancelled redirect or response (for a new navigation action it may report nothing; the fake
///   takes the harsher case);
/// - `window.open` and `target=_blank` reach the navigation policy as a new-window request, as they reach
///   `WKUIDelegate.webView(_:createWebViewWith:for:windowFeatures:)`, and never load in this view;
/// - a second script message handler of a name someone else registered fails (`WKUserContentController` raises
///   `NSInvalidArgumentException`; the adapter must throw instead): see ``foreignHandlerNames``;
/// - the web content process can be terminated (``terminateContentProcess()``);
/// - the app can go to the background and come back (``enterBackground()``, ``enterForeground()``), or become inactive
///   under an alert (``resignActive()``, ``becomeActive()``), reported in UIKit's order as `WKCMPWebView` reports
///   them (``AppLifecycleEvent``).
///
/// ```swift
/// let webView = FakeWebView()
/// let bridge = ConsentBridge(configuration: configuration, store: .inMemory(), scheduler: clock)
/// bridge.attach(to: webView)
/// bridge.start()
/// webView.post("jsHandler", json: #"{"type":"CMP-loaded"}"#, origin: "https://cmp.example.com")
/// ```
@MainActor
public final class FakeWebView: CMPWebView {
    /// One ``load(_:id:)`` call.
    public struct Load: Sendable, Hashable {
        /// The load's identity (`nil` for a navigation the page started itself).
        package var id: WebViewLoadID?
        /// The URL loaded.
        public var url: URL
    }

    package var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    package var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?

    /// Every ``load(_:id:)`` call, in order.
    public private(set) var loads: [Load] = []
    /// The URLs of ``loads``.
    public var loadedURLs: [URL] { loads.map(\.url) }
    /// The user scripts currently installed.
    public private(set) var userScripts: [UserScript] = []
    /// Every script evaluated, in order.
    public private(set) var evaluated: [String] = []
    /// The message handlers currently registered by the adapter.
    public private(set) var handlers: Set<String> = []
    /// How many times ``removeAllUserScripts()`` was called.
    public private(set) var removedAllUserScripts = 0
    /// The URLs the navigation policy sent out of the view (a decision to open them externally).
    public private(set) var openedExternally: [URL] = []
    /// How many times the bridge asked to open the app's Settings (``CMPWebView/openAppSettings()``).
    public private(set) var openedAppSettings = 0
    /// Handler names registered on the same content controller by someone else (the app): registering one of them
    /// throws a ``WebCMPBridge/ConsentBridgeError`` with the code ``WebCMPBridge/ConsentBridgeError/Code/webViewSetupFailed``.
    public var foreignHandlerNames: Set<String> = []
    /// Like `WKWebView.url`: the URL of the newest navigation, already while it is pending.
    public private(set) var url: URL?

    private var provisional: Load?
    private var pendingEvents: [WebViewEvent] = []

    /// Creates a web view.
    public init() {}

    // MARK: CMPWebView

    package func load(_ url: URL, id: WebViewLoadID) {
        startNavigation(Load(id: id, url: url))
        loads.append(Load(id: id, url: url))
    }

    public func addUserScript(_ script: UserScript) { userScripts.append(script) }

    public func openAppSettings() { openedAppSettings += 1 }

    public func removeAllUserScripts() {
        userScripts.removeAll()
        removedAllUserScripts += 1
    }

    public func evaluateJavaScript(_ source: String) { evaluated.append(source) }

    public func addMessageHandler(named name: String) throws(ConsentBridgeError) {
        guard !foreignHandlerNames.contains(name) else { throw .webViewSetupFailed(.messageHandlerNameInUse(name)) }
        handlers.insert(name)
    }

    public func removeMessageHandler(named name: String) { handlers.remove(name) }

    // MARK: What the page and WebKit do

    /// Delivers the events WebKit reports after the call that caused them returned (the cancellation of a replaced
    /// load). Every other event method delivers them first.
    public func deliverPendingEvents() {
        let events = pendingEvents
        pendingEvents.removeAll()
        for event in events { eventHandler?(event) }
    }

    /// Posts a JSON text body as the page would, on a registered handler only (like WebKit).
    public func post(
        _ handler: String, json: String, isMainFrame: Bool = true, origin: String? = "https://cmp.example.com"
    ) {
        deliverPendingEvents()
        guard handlers.contains(handler) else { return }
        eventHandler?(.message(ScriptMessage(
            handlerName: handler, body: .json(json), isMainFrame: isMainFrame, origin: origin)))
    }

    /// The main document's response arrives for the pending navigation.
    public func respond(statusCode: Int) {
        deliverPendingEvents()
        eventHandler?(.didReceiveResponse(provisional?.url ?? url, statusCode: statusCode, load: provisional?.id))
    }

    /// The pending navigation (or, without one, the current page) finishes loading.
    public func finishLoading() {
        deliverPendingEvents()
        let finished = provisional
        provisional = nil
        eventHandler?(.didFinishLoading(finished?.url ?? url, load: finished?.id))
    }

    /// The pending navigation fails (network, TLS …); the failure names the URL that failed.
    public func failLoading(
        description: String = "The Internet connection appears to be offline.",
        domain: String = "NSURLErrorDomain", code: Int = -1009
    ) {
        deliverPendingEvents()
        let failed = provisional
        provisional = nil
        eventHandler?(.didFailLoading(
            WebViewLoadFailure(url: failed?.url, domain: domain, code: code, description: description),
            load: failed?.id))
    }

    /// The web content process terminates (iOS ends them while the app is in the background).
    public func terminateContentProcess() {
        deliverPendingEvents()
        provisional = nil
        eventHandler?(.contentProcessDidTerminate)
    }

    /// The app leaves for the background (the user switches apps, opens a vendor's policy in the browser, locks the
    /// screen): `willResignActive`, then `didEnterBackground`, as UIKit posts them.
    public func enterBackground() {
        report([.willResignActive, .didEnterBackground])
    }

    /// The app returns from the background: `willEnterForeground`, then `didBecomeActive`, as UIKit posts them.
    public func enterForeground() {
        report([.willEnterForeground, .didBecomeActive])
    }

    /// The app becomes inactive without leaving the foreground (a system alert such as App Tracking Transparency's,
    /// the app switcher, Control Center): `willResignActive`.
    public func resignActive() {
        report([.willResignActive])
    }

    /// The app is active again after ``resignActive()``: `didBecomeActive`.
    public func becomeActive() {
        report([.didBecomeActive])
    }

    private func report(_ lifecycle: [AppLifecycleEvent]) {
        deliverPendingEvents()
        for event in lifecycle { eventHandler?(.appLifecycle(event)) }
    }

    /// The page navigates its main frame (a link, `location.href = …`): the navigation policy decides; an allowed
    /// navigation becomes pending (its events carry no load identity), a refused one fails with `WebKitErrorDomain`
    /// 102, and one sent out is recorded in ``openedExternally``.
    public func followLink(to target: URL) {
        _ = followLinkDecision(to: target)
    }

    /// ``followLink(to:)``, returning the navigation policy's decision (for the package's tests).
    package func followLinkDecision(to target: URL) -> NavigationDecision {
        deliverPendingEvents()
        let decision = navigationPolicy?(NavigationRequest(url: target, isMainFrame: true)) ?? .allow
        switch decision {
        case .allow:
            startNavigation(Load(id: nil, url: target))
        case .cancel, .openExternally:
            if case .openExternally(let external) = decision { openedExternally.append(external) }
            eventHandler?(.didFailLoading(
                WebViewLoadFailure(
                    url: target, domain: WebViewLoadFailure.webKitErrorDomain, code: 102,
                    description: "Frame load interrupted"),
                load: nil))
        }
        return decision
    }

    /// The page opens a new window (`window.open`, a `target=_blank` link): the navigation policy decides, as
    /// `WKCMPWebView` asks it from `webView(_:createWebViewWith:for:windowFeatures:)`. Nothing loads in this view.
    public func openNewWindow(_ target: URL?) {
        _ = openNewWindowDecision(target)
    }

    /// ``openNewWindow(_:)``, returning the navigation policy's decision (for the package's tests).
    package func openNewWindowDecision(_ target: URL?) -> NavigationDecision {
        deliverPendingEvents()
        let decision = navigationPolicy?(NavigationRequest(url: target, isMainFrame: false, opensNewWindow: true))
            ?? .cancel
        if case .openExternally(let external) = decision { openedExternally.append(external) }
        return decision
    }

    private func startNavigation(_ load: Load) {
        if let replaced = provisional {
            pendingEvents.append(.didFailLoading(
                WebViewLoadFailure(
                    url: replaced.url, domain: WebViewLoadFailure.urlErrorDomain, code: -999, description: "cancelled"),
                load: replaced.id))
        }
        provisional = load
        url = load.url
    }
}
