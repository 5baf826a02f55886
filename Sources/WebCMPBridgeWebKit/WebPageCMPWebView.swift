// WebKit for SwiftUI (`WebPage`) is in the iOS 26, macOS 26 and visionOS 26 SDKs (Xcode 26, Swift 6.2), which also
// ship its SwiftUI overlay `_WebKit_SwiftUI`: the file compiles away with older SDKs and compilers.
#if canImport(WebKit) && canImport(_WebKit_SwiftUI) && compiler(>=6.2)
import Foundation
import WebKit
import WebCMPBridge

/// `CMPWebView` on iOS 26's `WebPage` (WebKit for SwiftUI), for SwiftUI apps: show ``page`` with SwiftUI's
/// `WebView(_:)` (or ``ConsentWebPageView`` from WebCMPBridgeUI) and give this adapter to the ``ConsentBridge``.
/// An adapter only, like ``WKCMPWebView``: the core decides; each mapping below is one line.
///
/// - **Script messages** go through the configuration's `WKUserContentController`, a real one: they reach the core
///   with `frameInfo.isMainFrame` and `frameInfo.securityOrigin` as with `WKWebView`, so the core's main-frame and
///   origin checks are unchanged.
/// - **Handler names never raise**: the page gets its own `WKUserContentController` (holding copies of the
///   configuration's user scripts; the configuration you pass is a value and is not changed), which nothing but this
///   adapter can reach, since `WebPage` does not expose its configuration.
/// - **Loads are identified** by the event sequence `WebPage.load(_:)` returns for that navigation: its events carry
///   the core's ``WebViewLoadID``; its error (a `WebPage.NavigationError.failedProvisionalNavigation` is unwrapped)
///   becomes ``WebViewEvent/didFailLoading(_:load:)`` with the error's domain and code, so a replaced load's
///   cancellation (-999) is ignored by the core. The sequences are never cancelled (cancelling one stops the page).
/// - **Navigations the page starts itself** report no load events: `WebPage.navigations` does not say which
///   navigation an event belongs to, so its events could not be told from those of a replaced load. Only its
///   `webContentProcessTerminated` error is reported (``WebViewEvent/contentProcessDidTerminate``).
/// - **The response status**: `WebPage.NavigationResponse` does not say which frame it is for; a response whose URL
///   is the page's current URL (during a provisional navigation, the pending one) is taken as the main frame's.
/// - **Navigation** is decided by ``navigationPolicy`` through `WebPage.NavigationDeciding`; a request without a
///   target frame is a new window (`target="_blank"`). `window.open` never reaches it: `WebPage` opens no windows
///   and asks no one. ``NavigationDecision/openExternally(_:)`` cancels and calls ``openExternally``.
/// - **The app's lifecycle** is reported from `UIApplication`'s notifications, as ``WKCMPWebView`` does.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor
public final class WebPageCMPWebView: CMPWebView, ScriptMessageReceiver {
    /// The page: show it with SwiftUI's `WebView(_:)`.
    public let page: WebPage
    package var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    package var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    /// Opens a URL the core sent out of the consent UI (``NavigationDecision/openExternally(_:)``). `nil` (the
    /// default): nothing opens and the page stays. `WebPage` has no window to open it from: set it to SwiftUI's
    /// `openURL` action (``ConsentWebPageView`` does), or to your own opener.
    public var openExternally: (@MainActor (URL) -> Void)?

    private let controller: WKUserContentController
    private let decider: WebPageNavigationDecider
    private var handlerNames: Set<String> = []
    private var ownScripts: [WKUserScript] = []
    private var messageProxy: WeakScriptMessageHandler?
    private var lifecycleObservers: AppLifecycleObservers?
    private var terminationObserver: Task<Void, Never>?
    /// The load ``load(_:id:)`` started last, until its navigation commits or ends.
    private var provisionalLoad: WebViewLoadID?

    /// Creates a page from `configuration` with its own `WKUserContentController` (holding copies of the
    /// configuration's user scripts).
    public convenience init(configuration: WebPage.Configuration = WebPage.Configuration()) {
        self.init(own: Self.consentConfiguration(from: configuration))
    }

    /// Creates a page that also serves `fallback` (when not `nil`) from its scheme, so that a bridge configured with
    /// ``BridgeConfiguration/fallback`` can show it when the hosted page fails. Throws when the configuration already
    /// serves the fallback's scheme or WebKit handles it (a ``WebCMPBridge/ConsentBridgeError`` with the code
    /// ``WebCMPBridge/ConsentBridgeError/Code/webViewSetupFailed``).
    public convenience init(
        fallback: FallbackPage?, configuration: WebPage.Configuration = WebPage.Configuration()
    ) throws(ConsentBridgeError) {
        var own = Self.consentConfiguration(from: configuration)
        if let fallback { try own.registerFallback(fallback) }
        self.init(own: own)
    }

    private init(own configuration: WebPage.Configuration) {
        controller = configuration.userContentController
        decider = WebPageNavigationDecider()
        page = WebPage(configuration: configuration, navigationDecider: decider)
        decider.target = self
        lifecycleObservers = AppLifecycleObservers { [weak self] event in self?.eventHandler?(.appLifecycle(event)) }
        terminationObserver = Task { [weak self, page] in
            // `navigations` ends with every navigation's error: observe again after each one.
            while !Task.isCancelled {
                do {
                    for try await _ in page.navigations {}
                } catch WebPage.NavigationError.webContentProcessTerminated {
                    self?.eventHandler?(.contentProcessDidTerminate)
                } catch {}
            }
        }
    }

    deinit {
        terminationObserver?.cancel()
    }

    /// A copy of `configuration` with a new user content controller holding its user scripts.
    static func consentConfiguration(from configuration: WebPage.Configuration) -> WebPage.Configuration {
        var copy = configuration
        copy.userContentController = WKUserContentController()
        for script in configuration.userContentController.userScripts {
            copy.userContentController.addUserScript(script)
        }
        return copy
    }

    package func load(_ url: URL, id: WebViewLoadID) {
        provisionalLoad = id
        let events = page.load(URLRequest(url: url))
        Task { [weak self] in
            do {
                for try await event in events {
                    if event == .committed, self?.provisionalLoad == id { self?.provisionalLoad = nil }
                    if event == .finished { self?.eventHandler?(.didFinishLoading(self?.page.url, load: id)) }
                }
            } catch WebPage.NavigationError.webContentProcessTerminated {
                // Reported once, by the observer of `page.navigations`.
            } catch {
                if self?.provisionalLoad == id { self?.provisionalLoad = nil }
                let failure = WebViewLoadFailure(Self.underlying(error), requestedURL: url)
                self?.eventHandler?(.didFailLoading(failure, load: id))
            }
        }
    }

    public func addUserScript(_ script: UserScript) {
        let userScript = WKUserScript(
            source: script.source, injectionTime: .atDocumentStart, forMainFrameOnly: script.forMainFrameOnly)
        ownScripts.append(userScript)
        controller.addUserScript(userScript)
    }

    public func removeAllUserScripts() {
        controller.removeUserScripts(ownScripts)
        ownScripts.removeAll()
    }

    /// Runs `source` as the body of an async function in the main frame's page world (`callJavaScript`); its result
    /// and errors are ignored.
    public func evaluateJavaScript(_ source: String) {
        Task { [page] in _ = try? await page.callJavaScript(source) }
    }

    /// Registers `name` on the page's own content controller, which only this adapter registers on: it never
    /// raises, and never throws.
    public func addMessageHandler(named name: String) throws(ConsentBridgeError) {
        guard handlerNames.insert(name).inserted else { return }
        let proxy = messageProxy ?? WeakScriptMessageHandler(self)
        messageProxy = proxy
        controller.add(proxy, name: name)
    }

    public func removeMessageHandler(named name: String) {
        guard handlerNames.remove(name) != nil else { return }
        controller.removeScriptMessageHandler(forName: name)
    }

    /// Opens the app's page in the Settings app (the page asked, while its UI was ready and on screen, at most once per
    /// foreground period: the core decides) through the kit's own path, as ``WKCMPWebView/openAppSettings()`` does,
    /// never with ``openExternally`` (an opener presenting `SFSafariViewController` raises for an `app-settings:`
    /// URL): `WebPage` has no window, so through SwiftUI's `openURL` action, which `ConsentWebPageView` gives it
    /// (`UIApplication.openSettingsURLString` on iOS and visionOS); outside `ConsentWebPageView`, and on macOS,
    /// nothing opens. See promise 6 of "The kit's promises over a
    /// session" (WebCMPBridge's documentation).
    public func openAppSettings() {
        guard let url = AppSettingsPage.url else { return }
        openAppSettingsURL?(url)
    }

    /// Opens the app's Settings URL for ``openAppSettings()``: `ConsentWebPageView` sets SwiftUI's `openURL` action
    /// (the environment's opener, which hands a URL the app does not handle to the system, as
    /// `UIApplication.open(_:options:completionHandler:)` does). `nil`: nothing opens. Never ``openExternally``.
    package var openAppSettingsURL: (@MainActor (URL) -> Void)?

    /// Removes every handler and user script this adapter added and stops forwarding events.
    public func invalidate() {
        for name in handlerNames { removeMessageHandler(named: name) }
        removeAllUserScripts()
        eventHandler = nil
        navigationPolicy = nil
    }

    /// Reports a message to one of this adapter's handlers (``ScriptMessage``'s frame and origin from WebKit).
    func receive(_ message: WKScriptMessage) {
        eventHandler?(.message(ScriptMessage(message)))
    }

    /// The core's decision for `action` (allow when no bridge is attached, cancel a new window), carried out.
    fileprivate func decide(_ action: WebPage.NavigationAction) -> WKNavigationActionPolicy {
        let request = NavigationRequest(
            url: action.request.url, isMainFrame: action.target?.isMainFrame ?? true,
            opensNewWindow: action.target == nil)
        let decision = navigationPolicy?(request) ?? (request.opensNewWindow ? .cancel : .allow)
        if case .openExternally(let url) = decision { openExternally?(url) }
        return decision == .allow ? .allow : .cancel
    }

    /// Reports the HTTP status of a response whose URL is the page's (pending) URL, as the main frame's.
    fileprivate func receive(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse, http.url != nil, http.url == page.url else { return }
        eventHandler?(.didReceiveResponse(http.url, statusCode: http.statusCode, load: provisionalLoad))
    }

    /// A failed provisional navigation's own error (WebKit's domain and code), any other error as it is.
    private static func underlying(_ error: any Error) -> any Error {
        if case WebPage.NavigationError.failedProvisionalNavigation(let underlying) = error { return underlying }
        return error
    }
}

/// The page's navigation decider: asks the adapter (held weakly; the page retains its decider).
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor
private final class WebPageNavigationDecider: WebPage.NavigationDeciding {
    weak var target: WebPageCMPWebView?

    func decidePolicy(
        for action: WebPage.NavigationAction, preferences: inout WebPage.NavigationPreferences
    ) async -> WKNavigationActionPolicy {
        target?.decide(action) ?? .allow
    }

    func decidePolicy(for response: WebPage.NavigationResponse) async -> WKNavigationResponsePolicy {
        target?.receive(response.response)
        return .allow
    }
}
#endif
