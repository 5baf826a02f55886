#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// `CMPWebView` on `WKWebView`: an adapter only. Every decision (dialects, origins, limits, navigation, what a load
/// failure means) is made by the core; this class reports what WebKit says and carries out what the core decides.
///
/// - Script messages reach the core with `frameInfo.isMainFrame` and `frameInfo.securityOrigin`, so the core's origin
///   policy rejects iframes and foreign origins. `WKUserContentController` retains its message handlers, so the
///   adapter registers a weak proxy; ``invalidate()`` removes the handlers and the adapter's user scripts.
/// - **Handler names never raise.** ``init(configuration:)`` gives the web view its own `WKUserContentController`
///   (the configuration's user scripts are copied; the configuration you pass is not changed), so the consent UI's
///   handlers cannot collide with the app's. With ``init(webView:)`` the controller is the app's: a name this kind of
///   adapter registered before and left behind (an adapter dropped without ``invalidate()``) is removed first; a
///   name another live adapter holds is refused with ``WebCMPBridge/ConsentBridgeError/Code/webViewSetupFailed``. WebKit offers
///   no way to ask which names the app itself registered: do not register the dialects' names (`jsHandler`,
///   `osbCmpMessageHandler`, `webcmpTCF`) on a web view you pass to ``init(webView:)``.
/// - **Loads are identified** by the `WKNavigation` that `load(_:)` returned: events carry the core's
///   ``WebViewLoadID``; a failure carries the URL from the error (`NSURLErrorFailingURLErrorKey`), never
///   `webView.url`, which during a replaced load is already the next one; cancellations (-999) and policy
///   interruptions (WebKit error 102) are reported as such and the core ignores them.
/// - Navigation: every navigation is decided by ``navigationPolicy`` (the bridge's ``ConsentBridge/decidePolicy(for:)``);
///   a link away from the CMP page is cancelled and handed to ``openExternally`` (by default the system opens it from
///   the web view's window, which an app extension may do too: ``openFromWindow(_:of:)``).
///   New windows (`window.open`, `target="_blank"`) reach `WKUIDelegate.webView(_:createWebViewWith:for:windowFeatures:)`,
///   are asked as ``NavigationRequest/opensNewWindow`` requests, and never open a web view.
/// - **Handler names do not outlive the adapter.** An adapter dropped without ``invalidate()`` removes the names it
///   registered (and its user scripts) from the content controller when it is deallocated, so the app's own later
///   `add(_:name:)` of such a name cannot raise; a name another live adapter has taken over since is left alone.
/// - **The app's lifecycle** is reported as it happens: the adapter observes `UIApplication`'s
///   `willResignActive`, `didEnterBackground`, `willEnterForeground` and `didBecomeActive` notifications (available
///   in app extensions too) and reports each as ``WebViewEvent/appLifecycle(_:)``; the core decides what they mean
///   (its timers pause in the background, where WebKit suspends the page).
/// - The app's delegates are kept, not replaced: a web view passed to ``init(webView:)`` keeps its navigation and UI
///   delegates, which receive the callbacks listed on the proxies below (the adapter's events too). The adapter
///   implements each of them itself and forwards with WebKit's default when the app's delegate is gone or does not
///   implement it: WebKit caches which methods a delegate responds to when it is assigned, so a proxy must never
///   claim a method it cannot always answer. Other optional methods (downloads, media permissions, context menus)
///   are not forwarded while the adapter is installed.
@MainActor
public final class WKCMPWebView: NSObject, CMPWebView, ScriptMessageReceiver {
    /// The web view.
    public let webView: WKWebView
    package var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    package var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    /// Opens a URL the core sent out of the consent UI (``NavigationDecision/openExternally(_:)``). Default:
    /// ``openFromWindow(_:of:)`` with this adapter's web view (the system opens it from the web view's window scene, as
    /// `UIApplication.open` does; safe in an app extension). An app may set ``openInSystemBrowser(_:)`` or its own
    /// opener; an app extension that can open URLs passes its own (`NSExtensionContext.open(_:completionHandler:)`).
    public var openExternally: @MainActor (URL) -> Void

    private var handlerNames: Set<String> = []
    private var ownScripts: [WKUserScript] = []
    private var messageProxy: WeakScriptMessageHandler?
    private let navigationProxy: NavigationDelegateProxy
    private let uiProxy: UIDelegateProxy
    /// The app's lifecycle notifications, observed while the adapter lives.
    private var lifecycleObservers: AppLifecycleObservers?
    /// The navigations ``load(_:id:)`` started (the newest few), to tag their events with the core's identity.
    private var navigations: [(navigation: WKNavigation, id: WebViewLoadID, url: URL)] = []
    /// The load whose navigation is provisional now (`nil`: one the page started).
    fileprivate var provisionalLoad: WebViewLoadID?

    /// Wraps `webView`. Its current navigation and UI delegates keep receiving what the adapter forwards. Its
    /// `WKUserContentController` is the app's: see the type's notes on handler names.
    public init(webView: WKWebView) {
        self.webView = webView
        openExternally = { [weak webView] url in
            if let webView { WKCMPWebView.openFromWindow(url, of: webView) }
        }
        navigationProxy = NavigationDelegateProxy(previous: webView.navigationDelegate)
        uiProxy = UIDelegateProxy(previous: webView.uiDelegate)
        super.init()
        navigationProxy.target = self
        uiProxy.target = self
        webView.navigationDelegate = navigationProxy
        webView.uiDelegate = uiProxy
        lifecycleObservers = AppLifecycleObservers { [weak self] event in self?.eventHandler?(.appLifecycle(event)) }
    }

    deinit {
        // Dropped without invalidate(): take our handler names and user scripts off a content controller that may
        // outlive us (the app's, with init(webView:)), or the app's own add(_:name:) of such a name would raise.
        // WebKit's objects are main-actor bound; deinit runs where the last reference went, normally the main thread.
        let cleanup = AdapterLeftovers(webView: webView, handlerNames: handlerNames, scripts: ownScripts)
        if Thread.isMainThread {
            MainActor.assumeIsolated { cleanup.remove() }
        } else {
            Task { @MainActor in cleanup.remove() }
        }
    }

    /// Creates a web view from a copy of `configuration` with its own `WKUserContentController` (holding copies of the
    /// configuration's user scripts), so that no handler of the app's can collide with the consent UI's. The
    /// configuration you pass is not changed.
    public convenience init(configuration: WKWebViewConfiguration = WKWebViewConfiguration()) {
        self.init(webView: WKWebView(frame: .zero, configuration: Self.consentConfiguration(from: configuration)))
    }

    /// A copy of `configuration` with a new user content controller holding its user scripts.
    static func consentConfiguration(from configuration: WKWebViewConfiguration) -> WKWebViewConfiguration {
        let copy = (configuration.copy() as? WKWebViewConfiguration) ?? WKWebViewConfiguration()
        let controller = WKUserContentController()
        for script in configuration.userContentController.userScripts { controller.addUserScript(script) }
        copy.userContentController = controller
        return copy
    }

    package func load(_ url: URL, id: WebViewLoadID) {
        guard let navigation = webView.load(URLRequest(url: url)) else { return }
        navigations.append((navigation, id, url))
        if navigations.count > 8 { navigations.removeFirst() }
    }

    public func addUserScript(_ script: UserScript) {
        let userScript = WKUserScript(
            source: script.source, injectionTime: .atDocumentStart, forMainFrameOnly: script.forMainFrameOnly)
        ownScripts.append(userScript)
        webView.configuration.userContentController.addUserScript(userScript)
    }

    public func removeAllUserScripts() {
        webView.configuration.userContentController.removeUserScripts(ownScripts)
        ownScripts.removeAll()
    }

    public func evaluateJavaScript(_ source: String) {
        webView.evaluateJavaScript(source, completionHandler: nil)
    }

    /// Registers `name` on the web view's content controller, unless someone else holds it (then it throws and
    /// registers nothing): `add(_:name:)` raises `NSInvalidArgumentException` for a name already registered.
    public func addMessageHandler(named name: String) throws(ConsentBridgeError) {
        guard !handlerNames.contains(name) else { return }
        let controller = webView.configuration.userContentController
        let owners = MessageHandlerOwners.of(controller)
        switch MessageHandlerClaim(previousOwnerAlive: owners.isAlive(name)) {
        case .refuse:
            throw .webViewSetupFailed(.messageHandlerNameInUse(name))
        case .replaceStale:
            controller.removeScriptMessageHandler(forName: name)
        case .register:
            break
        }
        let proxy = messageProxy ?? WeakScriptMessageHandler(self)
        messageProxy = proxy
        handlerNames.insert(name)
        owners.set(name, owner: self)
        controller.add(proxy, name: name)
    }

    public func removeMessageHandler(named name: String) {
        guard handlerNames.remove(name) != nil else { return }
        let controller = webView.configuration.userContentController
        MessageHandlerOwners.of(controller).remove(name)
        controller.removeScriptMessageHandler(forName: name)
    }

    /// Opens the app's page in the Settings app (the page asked, while its UI was ready and on screen, at most once per
    /// foreground period: the core decides) from the web view's window scene, never with ``openExternally``: the
    /// app's link opener may present `SFSafariViewController`, which raises for an `app-settings:` URL, and
    /// ``WebCMPBridge/ExternalLinkPolicy/block`` does not apply to it. On iOS, visionOS and Mac Catalyst the URL is
    /// `UIApplication.openSettingsURLString` ("the URL string you use to deep link to your app's custom settings in
    /// the Settings app"); on macOS there is no such page and nothing opens. See promise 6 of "The kit's promises over
    /// a session" (WebCMPBridge's documentation).
    public func openAppSettings() {
        #if canImport(UIKit)
        AppSettingsPage.open(from: webView.window?.windowScene)
        #endif
    }

    /// Removes every handler and user script this adapter added, stops forwarding events, and gives the web view its
    /// previous navigation and UI delegates back.
    public func invalidate() {
        for name in handlerNames { removeMessageHandler(named: name) }
        removeAllUserScripts()
        eventHandler = nil
        navigationPolicy = nil
        if webView.navigationDelegate === navigationProxy { webView.navigationDelegate = navigationProxy.previous }
        if webView.uiDelegate === uiProxy { webView.uiDelegate = uiProxy.previous }
    }

    /// Asks the system to open `url` from `webView`'s window — the default of ``openExternally``: on iOS and visionOS
    /// through the window's scene (`UIScene.open(_:options:completionHandler:)`, which opens it as `UIApplication.open`
    /// does, for that scene); on macOS with `NSWorkspace.open`. Nothing happens while the web view is in no window
    /// (a link is tapped on a page on screen). Available in app extensions (it needs no application object); whether
    /// the system opens a URL for an extension depends on the extension's type, and most may not.
    public static func openFromWindow(_ url: URL, of webView: WKWebView) {
        #if canImport(UIKit)
        webView.window?.windowScene?.open(url, options: nil, completionHandler: nil)
        #elseif canImport(AppKit)
        NSWorkspace.shared.open(url)
        #endif
    }

    /// Opens `url` in the system browser with the shared application (`UIApplication.open`; `NSWorkspace.open` on
    /// macOS). Apps only: an app extension has no `UIApplication.shared`; the default, ``openFromWindow(_:of:)``,
    /// needs no application object.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    public static func openInSystemBrowser(_ url: URL) {
        #if canImport(UIKit)
        UIApplication.shared.open(url)
        #elseif canImport(AppKit)
        NSWorkspace.shared.open(url)
        #endif
    }

    func receive(_ message: WKScriptMessage) {
        eventHandler?(.message(ScriptMessage(message)))
    }

    fileprivate func send(_ event: WebViewEvent) {
        eventHandler?(event)
    }

    /// The core's identity of `navigation` (`nil`: not started by ``load(_:id:)``).
    fileprivate func loadID(of navigation: WKNavigation?) -> WebViewLoadID? {
        guard let navigation else { return nil }
        return navigations.last { $0.navigation === navigation }?.id
    }

    /// Reports a navigation that ended without a page, with the URL that failed (from the error), and forgets it.
    fileprivate func reportFailure(of navigation: WKNavigation?, _ error: any Error) {
        let started = navigation.flatMap { navigation in navigations.last { $0.navigation === navigation } }
        forget(navigation)
        send(.didFailLoading(WebViewLoadFailure(error, requestedURL: started?.url), load: started?.id))
    }

    fileprivate func forget(_ navigation: WKNavigation?) {
        guard let navigation else { return }
        navigations.removeAll { $0.navigation === navigation }
    }

    /// The core's decision for `action` (allow when no bridge is attached), carried out for `openExternally`.
    fileprivate func decision(for action: WKNavigationAction, opensNewWindow: Bool) -> NavigationDecision {
        let request = NavigationRequest(
            url: action.request.url, isMainFrame: action.targetFrame?.isMainFrame ?? true,
            opensNewWindow: opensNewWindow || action.targetFrame == nil)
        let decision = navigationPolicy?(request) ?? (request.opensNewWindow ? .cancel : .allow)
        if case .openExternally(let url) = decision { openExternally(url) }
        return decision
    }
}

/// The script message handler names adapters registered, per content controller (held weakly), and which adapter
/// (held weakly) owns each.
/// What an adapter dropped without ``WKCMPWebView/invalidate()`` leaves on its web view's content controller.
private struct AdapterLeftovers: @unchecked Sendable {
    // @unchecked: WKUserScript is not marked Sendable; the values are only used on the main actor (remove()).
    let webView: WKWebView
    let handlerNames: Set<String>
    let scripts: [WKUserScript]

    /// Removes the names no live adapter holds and the scripts.
    @MainActor func remove() {
        let controller = webView.configuration.userContentController
        let owners = MessageHandlerOwners.of(controller)
        for name in handlerNames where owners.isAlive(name) == false {
            owners.remove(name)
            controller.removeScriptMessageHandler(forName: name)
        }
        controller.removeUserScripts(scripts)
    }
}

@MainActor
private final class MessageHandlerOwners {
    private static let table = NSMapTable<WKUserContentController, MessageHandlerOwners>.weakToStrongObjects()
    private final class WeakOwner {
        weak var adapter: WKCMPWebView?
        init(_ adapter: WKCMPWebView) { self.adapter = adapter }
    }
    private var owners: [String: WeakOwner] = [:]

    static func of(_ controller: WKUserContentController) -> MessageHandlerOwners {
        if let owners = table.object(forKey: controller) { return owners }
        let owners = MessageHandlerOwners()
        table.setObject(owners, forKey: controller)
        return owners
    }

    func isAlive(_ name: String) -> Bool? { owners[name].map { $0.adapter != nil } }
    func set(_ name: String, owner: WKCMPWebView) { owners[name] = WeakOwner(owner) }
    func remove(_ name: String) { owners[name] = nil }
}

/// The web view's navigation delegate: reports to the adapter (held weakly) and forwards to the delegate the web view
/// had before (held weakly, as `WKWebView` holds its delegate). Every method is implemented here, with WebKit's
/// default when the previous delegate is gone or does not implement it, and `responds(to:)` is not overridden: WebKit
/// caches the answers when the delegate is assigned, so a method claimed for a delegate that is later released would
/// otherwise reach an object that cannot answer it.
@MainActor
private final class NavigationDelegateProxy: NSObject, WKNavigationDelegate {
    weak var target: WKCMPWebView?
    weak var previous: (any WKNavigationDelegate)?

    init(previous: (any WKNavigationDelegate)?) {
        self.previous = previous
    }

    func webView(
        _ webView: WKWebView, decidePolicyFor navigationAction: WKNavigationAction,
        preferences: WKWebpagePreferences,
        decisionHandler: @escaping @MainActor @Sendable (WKNavigationActionPolicy, WKWebpagePreferences) -> Void
    ) {
        guard target?.decision(for: navigationAction, opensNewWindow: false) ?? .allow == .allow else {
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
            target?.send(.didReceiveResponse(response.url, statusCode: response.statusCode, load: target?.provisionalLoad))
        }
        if previous?.webView?(webView, decidePolicyFor: navigationResponse, decisionHandler: decisionHandler) == nil {
            decisionHandler(.allow)
        }
    }

    func webView(_ webView: WKWebView, didStartProvisionalNavigation navigation: WKNavigation!) {
        target?.provisionalLoad = target?.loadID(of: navigation)
        previous?.webView?(webView, didStartProvisionalNavigation: navigation)
    }

    func webView(_ webView: WKWebView, didReceiveServerRedirectForProvisionalNavigation navigation: WKNavigation!) {
        previous?.webView?(webView, didReceiveServerRedirectForProvisionalNavigation: navigation)
    }

    func webView(_ webView: WKWebView, didCommit navigation: WKNavigation!) {
        previous?.webView?(webView, didCommit: navigation)
    }

    func webView(_ webView: WKWebView, didFinish navigation: WKNavigation!) {
        let load = target?.loadID(of: navigation)
        target?.forget(navigation)
        target?.send(.didFinishLoading(webView.url, load: load))
        previous?.webView?(webView, didFinish: navigation)
    }

    func webView(_ webView: WKWebView, didFail navigation: WKNavigation!, withError error: any Error) {
        target?.reportFailure(of: navigation, error)
        previous?.webView?(webView, didFail: navigation, withError: error)
    }

    func webView(
        _ webView: WKWebView, didFailProvisionalNavigation navigation: WKNavigation!, withError error: any Error
    ) {
        target?.reportFailure(of: navigation, error)
        previous?.webView?(webView, didFailProvisionalNavigation: navigation, withError: error)
    }

    func webView(
        _ webView: WKWebView, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @MainActor @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if previous?.webView?(webView, didReceive: challenge, completionHandler: completionHandler) == nil {
            completionHandler(.performDefaultHandling, nil)
        }
    }

    /// Implementing this turns off WebKit's own reload of a visible view: the core reloads once, then fails.
    func webViewWebContentProcessDidTerminate(_ webView: WKWebView) {
        target?.send(.contentProcessDidTerminate)
        previous?.webViewWebContentProcessDidTerminate?(webView)
    }
}

/// The web view's UI delegate: new windows go to the core's navigation policy (never a new web view); JavaScript
/// panels and `window.close()` are forwarded to the delegate the web view had before, with WebKit's default answer
/// when it is gone or does not implement them. Like ``NavigationDelegateProxy``, it never claims what it cannot
/// always answer.
@MainActor
private final class UIDelegateProxy: NSObject, WKUIDelegate {
    weak var target: WKCMPWebView?
    weak var previous: (any WKUIDelegate)?

    init(previous: (any WKUIDelegate)?) {
        self.previous = previous
    }

    /// `window.open` and `target="_blank"`: asked as a new-window request; `nil` opens no web view.
    func webView(
        _ webView: WKWebView, createWebViewWith configuration: WKWebViewConfiguration,
        for navigationAction: WKNavigationAction, windowFeatures: WKWindowFeatures
    ) -> WKWebView? {
        _ = target?.decision(for: navigationAction, opensNewWindow: true)
        return nil
    }

    func webViewDidClose(_ webView: WKWebView) {
        previous?.webViewDidClose?(webView)
    }

    func webView(
        _ webView: WKWebView, runJavaScriptAlertPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable () -> Void
    ) {
        if previous?.webView?(
            webView, runJavaScriptAlertPanelWithMessage: message, initiatedByFrame: frame,
            completionHandler: completionHandler) == nil
        {
            completionHandler()
        }
    }

    func webView(
        _ webView: WKWebView, runJavaScriptConfirmPanelWithMessage message: String, initiatedByFrame frame: WKFrameInfo,
        completionHandler: @escaping @MainActor @Sendable (Bool) -> Void
    ) {
        if previous?.webView?(
            webView, runJavaScriptConfirmPanelWithMessage: message, initiatedByFrame: frame,
            completionHandler: completionHandler) == nil
        {
            completionHandler(false)
        }
    }

    func webView(
        _ webView: WKWebView, runJavaScriptTextInputPanelWithPrompt prompt: String, defaultText: String?,
        initiatedByFrame frame: WKFrameInfo, completionHandler: @escaping @MainActor @Sendable (String?) -> Void
    ) {
        if previous?.webView?(
            webView, runJavaScriptTextInputPanelWithPrompt: prompt, defaultText: defaultText, initiatedByFrame: frame,
            completionHandler: completionHandler) == nil
        {
            completionHandler(nil)
        }
    }
}
#endif
