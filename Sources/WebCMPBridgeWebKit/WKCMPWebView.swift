#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// `CMPWebView` on `WKWebView`: an adapter only. Every decision (dialects, origins, limits, navigation) is made by the
/// core; this class forwards what WebKit reports and carries out what the core decides.
///
/// - Script messages reach the core with `frameInfo.isMainFrame` and `frameInfo.securityOrigin`, so the core's origin
///   policy rejects iframes and foreign origins. `WKUserContentController` retains its message handlers, so the
///   adapter registers a weak proxy; ``invalidate()`` removes the handlers and the adapter's user scripts.
/// - Navigation: every navigation is decided by ``navigationPolicy`` (the bridge's ``ConsentBridge/decidePolicy(for:)``);
///   a link away from the CMP page is cancelled and handed to ``openExternally`` (the system browser by default).
///   The main document's HTTP status is reported, so an HTTP error page is a load failure.
/// - The app's navigation delegate is kept, not replaced: a web view passed to ``init(webView:)`` keeps its delegate,
///   which receives every navigation callback the adapter does not consume (as if it were the delegate), and the
///   adapter's events too (`didFinish`, `didFail…`, process termination). For policy decisions the core decides
///   first: a navigation it allows is then offered to the app's delegate, which may still cancel it; one it cancels
///   never reaches the app's delegate.
@MainActor
public final class WKCMPWebView: NSObject, CMPWebView {
    /// The web view.
    public let webView: WKWebView
    public var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    public var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    /// Opens a URL the core sent out of the consent UI (``NavigationDecision/openExternally(_:)``). Default: the system
    /// browser (`UIApplication.open` / `NSWorkspace.open`).
    public var openExternally: @MainActor (URL) -> Void = WKCMPWebView.openInSystemBrowser

    private var handlerNames: Set<String> = []
    private var ownScripts: [WKUserScript] = []
    private var messageProxy: WeakScriptMessageHandler?
    private let navigationProxy: NavigationDelegateProxy

    /// Wraps `webView`. Its current navigation delegate keeps receiving what the adapter does not consume.
    public init(webView: WKWebView) {
        self.webView = webView
        navigationProxy = NavigationDelegateProxy(previous: webView.navigationDelegate)
        super.init()
        navigationProxy.target = self
        webView.navigationDelegate = navigationProxy
    }

    /// Creates a web view with `configuration`.
    public convenience init(configuration: WKWebViewConfiguration = WKWebViewConfiguration()) {
        self.init(webView: WKWebView(frame: .zero, configuration: configuration))
    }

    public func load(_ url: URL) {
        webView.load(URLRequest(url: url))
    }

    public func addUserScript(_ script: UserScript) {
        let userScript = WKUserScript(
            source: script.source, injectionTime: .atDocumentStart, forMainFrameOnly: script.forMainFrameOnly)
        ownScripts.append(userScript)
        webView.configuration.userContentController.addUserScript(userScript)
    }

    public func removeAllUserScripts() {
        let controller = webView.configuration.userContentController
        let others = controller.userScripts.filter { script in !ownScripts.contains { $0 === script } }
        controller.removeAllUserScripts()
        others.forEach(controller.addUserScript)
        ownScripts.removeAll()
    }

    public func evaluateJavaScript(_ source: String) {
        webView.evaluateJavaScript(source, completionHandler: nil)
    }

    public func addMessageHandler(named name: String) {
        guard !handlerNames.contains(name) else { return }
        let proxy = messageProxy ?? WeakScriptMessageHandler(self)
        messageProxy = proxy
        handlerNames.insert(name)
        webView.configuration.userContentController.add(proxy, name: name)
    }

    public func removeMessageHandler(named name: String) {
        guard handlerNames.remove(name) != nil else { return }
        webView.configuration.userContentController.removeScriptMessageHandler(forName: name)
    }

    /// Removes every handler and user script this adapter added, stops forwarding events, and gives the web view its
    /// previous navigation delegate back.
    public func invalidate() {
        for name in handlerNames { removeMessageHandler(named: name) }
        removeAllUserScripts()
        eventHandler = nil
        navigationPolicy = nil
        if webView.navigationDelegate === navigationProxy { webView.navigationDelegate = navigationProxy.previous }
    }

    /// The default of ``openExternally``.
    public static func openInSystemBrowser(_ url: URL) {
        #if canImport(UIKit)
        UIApplication.shared.open(url)
        #elseif canImport(AppKit)
        NSWorkspace.shared.open(url)
        #endif
    }

    fileprivate func receive(_ message: WKScriptMessage) {
        let frame = message.frameInfo
        let origin = frame.securityOrigin
        eventHandler?(.message(ScriptMessage(
            handlerName: message.name, body: .foundation(message.body), isMainFrame: frame.isMainFrame,
            origin: SecurityOrigin.origin(protocol: origin.protocol, host: origin.host, port: origin.port))))
    }

    fileprivate func send(_ event: WebViewEvent) {
        eventHandler?(event)
    }

    /// The core's decision for `action` (allow when no bridge is attached), carried out for `openExternally`.
    fileprivate func decision(for action: WKNavigationAction) -> NavigationDecision {
        let request = NavigationRequest(
            url: action.request.url, isMainFrame: action.targetFrame?.isMainFrame ?? true,
            opensNewWindow: action.targetFrame == nil)
        let decision = navigationPolicy?(request) ?? .allow
        if case .openExternally(let url) = decision { openExternally(url) }
        return decision
    }
}

/// Forwards script messages to the adapter without retaining it (`WKUserContentController` retains its handlers).
@MainActor
private final class WeakScriptMessageHandler: NSObject, WKScriptMessageHandler {
    weak var target: WKCMPWebView?

    init(_ target: WKCMPWebView) {
        self.target = target
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        target?.receive(message)
    }
}

/// The web view's navigation delegate: reports to the adapter (held weakly) and forwards to the delegate the web view
/// had before (held weakly, as `WKWebView` holds its delegate). Callbacks it does not implement go straight to the
/// previous delegate through Objective-C message forwarding.
@MainActor
private final class NavigationDelegateProxy: NSObject, WKNavigationDelegate {
    weak var target: WKCMPWebView?
    /// Read from `responds(to:)` / `forwardingTarget(for:)`, which WebKit calls on the main thread; never written
    /// after `init`.
    nonisolated(unsafe) weak var previous: (any WKNavigationDelegate)?

    init(previous: (any WKNavigationDelegate)?) {
        self.previous = previous
    }

    nonisolated override func responds(to selector: Selector!) -> Bool {
        super.responds(to: selector) || (previous?.responds(to: selector) ?? false)
    }

    nonisolated override func forwardingTarget(for selector: Selector!) -> Any? {
        super.responds(to: selector) ? nil : previous
    }

    func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    ) {
        guard target?.decision(for: navigationAction) ?? .allow == .allow else {
            return decisionHandler(.cancel, preferences)
        }
        // The app's delegate may still cancel what the core allows (the preferences variant first, as WebKit does).
        if previous?.webView?(
            webView, decidePolicyFor: navigationAction, preferences: preferences, decisionHandler: decisionHandler)
            != nil
        {
            return
        }
        let plain: @MainActor @Sendable (WKNavigationActionPolicy) -> Void = { decisionHandler($0, preferences) }
        if previous?.webView?(webView, decidePolicyFor: navigationAction, decisionHandler: plain) == nil {
            decisionHandler(.allow, preferences)
        }
    }

    func webView(
        _ webView: WKWebView, decidePolicyFor navigationResponse: WKNavigationResponse,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationResponsePolicy) -> Void
    ) {
        if navigationResponse.isForMainFrame, let response = navigationResponse.response as? HTTPURLResponse {
            target?.send(.didReceiveResponse(response.url, statusCode: response.statusCode))
        }
        if previous?.webView?(webView, decidePolicyFor: navigationResponse, decisionHandler: decisionHandler) == nil {
            decisionHandler(.allow)
        }
    }

    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        target?.send(.didFinishLoading(webView.url))
        previous?.webView?(webView, didFinish: navigation)
    }

    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        target?.send(.didFailLoading(webView.url, description: error.localizedDescription))
        previous?.webView?(webView, didFail: navigation, withError: error)
    }

    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
    ) {
        target?.send(.didFailLoading(webView.url, description: error.localizedDescription))
        previous?.webView?(webView, didFailProvisionalNavigation: navigation, withError: error)
    }

    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        target?.send(.contentProcessDidTerminate)
        previous?.webViewWebContentProcessDidTerminate?(webView)
    }
}
#endif
