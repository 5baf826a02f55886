import Foundation

/// What the bridge needs from a platform web view: the contract every adapter implements
/// (`WKWebView` on Apple platforms, WebKitGTK on Linux, a hand-written fake in tests).
///
/// Adapters contain no decisions: they load, inject, evaluate and forward. Everything a page sends reaches the bridge
/// through ``eventHandler`` as a `WebViewEvent`, unvalidated.
@MainActor
package protocol CMPWebView: AnyObject {
    /// Receives every navigation event and script message. The bridge sets it; adapters call it on the main actor.
    var eventHandler: (@MainActor (WebViewEvent) -> Void)? { get set }

    /// Decides every navigation of the page (main frame, sub-frames, new windows). The bridge sets it
    /// (`ConsentBridge.decidePolicy(for:)`); adapters ask it before letting a navigation happen and carry out the
    /// decision (`NavigationDecision.openExternally(_:)`: cancel and hand the URL to the app). `nil`: allow.
    var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)? { get set }

    /// Starts loading `url` in the main frame as the load `id`.
    ///
    /// Every later load event of the navigation this call starts (response, finish, failure) carries `id`, so that
    /// the core can tell the events of a load it replaced from those of the current one: `WKWebView` reports a
    /// replaced load as cancelled *after* the new one began, with the new URL in `webView.url`. Events of
    /// navigations the page starts itself (a link, `location.href = …`) carry `nil`.
    func load(_ url: URL, id: WebViewLoadID)

    /// Adds a user script that runs in every subsequent page load.
    func addUserScript(_ script: UserScript)

    /// Removes every user script this adapter added.
    func removeAllUserScripts()

    /// Runs `source` in the main frame of the current page. Fire and forget: errors are ignored.
    func evaluateJavaScript(_ source: String)

    /// Registers a script message handler: afterwards the page's
    /// `window.webkit.messageHandlers[name].postMessage(body)` reaches ``eventHandler`` as `WebViewEvent.message(_:)`.
    ///
    /// Throws, and registers nothing, when the name is taken by a handler the adapter does not own (`WKWebView`
    /// raises an Objective-C exception for a second handler of the same name; adapters must never let it).
    /// - Throws: ``ConsentBridgeError`` with the code ``ConsentBridgeError/Code/webViewSetupFailed``.
    func addMessageHandler(named name: String) throws(ConsentBridgeError)

    /// Unregisters a script message handler.
    func removeMessageHandler(named name: String)

    /// Opens the app's page in the system's Settings app through the adapter's own path, never through the opener of
    /// links the core sends out of the consent UI (`WKCMPWebView` opens `UIApplication.openSettingsURLString` from its
    /// window scene, not with its `openExternally`). The core calls it only when the page asked
    /// (`{type: "webcmp.openAppSettings"}`) while its UI was ready and on screen, at most once per foreground period
    /// (see <doc:TheAppContextInTheCMPPage>). Default: nothing (a platform without app settings, such as WebKitGTK).
    func openAppSettings()
}

extension CMPWebView {
    /// Does nothing: a platform without a Settings page for the app.
    package func openAppSettings() {}
}

/// A script that the web view injects into pages.
public struct UserScript: Sendable, Hashable {
    /// When the script runs.
    package enum InjectionTime: Sendable, Hashable {
        /// Before any of the page's own scripts.
        case documentStart
    }

    /// The JavaScript source.
    public var source: String
    /// When it runs.
    package var injectionTime: InjectionTime
    /// Whether it runs only in the main frame (`true`) or in every frame.
    public var forMainFrameOnly: Bool

    /// Creates a user script.
    package init(source: String, injectionTime: InjectionTime, forMainFrameOnly: Bool = true) {
        self.source = source
        self.injectionTime = injectionTime
        self.forMainFrameOnly = forMainFrameOnly
    }
}

/// A message a page posted to a registered handler, as the platform delivered it. Untrusted.
package struct ScriptMessage {
    /// The handler the page posted to, e.g. `"jsHandler"`.
    package var handlerName: String
    /// The posted body, not yet validated.
    package var body: ScriptMessageBody
    /// Whether the sender was the main frame. Adapters that cannot tell must guarantee main-frame-only delivery.
    package var isMainFrame: Bool
    /// The sender's security origin (`scheme://host[:port]`), when the platform knows it.
    package var origin: String?

    /// Creates a message.
    package init(handlerName: String, body: ScriptMessageBody, isMainFrame: Bool, origin: String?) {
        self.handlerName = handlerName
        self.body = body
        self.isMainFrame = isMainFrame
        self.origin = origin
    }
}

/// A posted body in the form the platform hands it over. The bridge validates both forms with the same limits.
package enum ScriptMessageBody {
    /// JSON text (WebKitGTK's `jsc_value_to_json`; fakes in tests).
    case json(String)
    /// A Foundation object graph (`WKScriptMessage.body`: `NSString`, `NSNumber`, `NSArray`, `NSDictionary`, `NSNull`,
    /// `NSDate`).
    case foundation(Any)
}

/// Something that happened in the web view.
///
/// Load events carry the `WebViewLoadID` of the `CMPWebView.load(_:id:)` call whose navigation they belong to
/// (`nil`: a navigation the page started itself, or an adapter that cannot tell). The core ignores events of loads it
/// has replaced.
package enum WebViewEvent {
    /// A page posted a script message.
    case message(ScriptMessage)
    /// The main frame's response arrived with this HTTP status (adapters report it for HTTP(S) documents; a status
    /// of 400 or more is a load failure, whatever the page then shows).
    case didReceiveResponse(URL?, statusCode: Int, load: WebViewLoadID? = nil)
    /// The main frame finished loading.
    case didFinishLoading(URL?, load: WebViewLoadID? = nil)
    /// The main frame's navigation ended without a page: a failure, or a cancellation or policy interruption, which
    /// the core tells apart (by domain and code: see `WebViewLoadFailure`).
    case didFailLoading(WebViewLoadFailure, load: WebViewLoadID? = nil)
    /// The web content process terminated (it will need a reload).
    case contentProcessDidTerminate
    /// The app's lifecycle changed (adapters observe the app's notifications and report them here, in UIKit's
    /// order; see `AppLifecycleEvent`).
    case appLifecycle(AppLifecycleEvent)
}
