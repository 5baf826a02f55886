#if canImport(WebKit)
import Foundation
import WebKit

/// `CMPWebView` on `WKWebView`: an adapter only. Every decision (dialects, origins, limits) is made by the core.
///
/// Script messages reach the core with `frameInfo.isMainFrame` and `frameInfo.securityOrigin`, so the core's origin
/// policy rejects iframes and foreign origins. `WKUserContentController` retains its message handlers, so the adapter
/// registers a weak proxy (the classic retain cycle is avoided); ``invalidate()`` removes the handlers and the
/// adapter's user scripts.
@MainActor
public final class WKCMPWebView: NSObject, CMPWebView {
    /// The web view.
    public let webView: WKWebView
    public var eventHandler: (@MainActor (WebViewEvent) -> Void)?

    private var handlerNames: Set<String> = []
    private var ownScripts: [WKUserScript] = []
    private var messageProxy: WeakScriptMessageHandler?
    private var navigationProxy: WeakNavigationDelegate?

    /// Wraps `webView` (its navigation delegate is taken over).
    public init(webView: WKWebView) {
        self.webView = webView
        super.init()
        let navigation = WeakNavigationDelegate(self)
        navigationProxy = navigation
        webView.navigationDelegate = navigation
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
            source: script.source,
            injectionTime: script.injectionTime == .documentStart ? .atDocumentStart : .atDocumentEnd,
            forMainFrameOnly: script.forMainFrameOnly)
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

    /// Removes every handler and user script this adapter added and stops forwarding events.
    public func invalidate() {
        for name in handlerNames { removeMessageHandler(named: name) }
        removeAllUserScripts()
        eventHandler = nil
        if webView.navigationDelegate === navigationProxy { webView.navigationDelegate = nil }
    }

    fileprivate func receive(_ message: WKScriptMessage) {
        let frame = message.frameInfo
        let origin = frame.securityOrigin
        eventHandler?(.message(ScriptMessage(
            handlerName: message.name,
            body: .foundation(message.body),
            isMainFrame: frame.isMainFrame,
            origin: SecurityOrigin.origin(protocol: origin.protocol, host: origin.host, port: origin.port))))
    }

    fileprivate func send(_ event: WebViewEvent) {
        eventHandler?(event)
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

/// Maps navigation callbacks to `WebViewEvent`s without retaining the adapter.
@MainActor
private final class WeakNavigationDelegate: NSObject, WKNavigationDelegate {
    weak var target: WKCMPWebView?

    init(_ target: WKCMPWebView) {
        self.target = target
    }

    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        target?.send(.didFinishLoading(webView.url))
    }

    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: Error) {
        target?.send(.didFailLoading(webView.url, description: error.localizedDescription))
    }

    func webView(_ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: Error) {
        target?.send(.didFailLoading(webView.url, description: error.localizedDescription))
    }

    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        target?.send(.contentProcessDidTerminate)
    }
}
#endif
