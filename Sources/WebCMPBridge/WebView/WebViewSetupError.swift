/// Why a web view adapter could not be set up for the consent UI. Adapters check before they call a platform API
/// that would raise an Objective-C exception (and terminate the app) instead.
package enum WebViewSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A script message handler of this name is already registered on the web view's `WKUserContentController`
    /// by something other than this adapter (the app itself, or another live consent UI on the same
    /// configuration). `WKUserContentController` raises `NSInvalidArgumentException` for a second handler of the
    /// same name in a content world, and offers no way to ask which names are taken.
    case messageHandlerNameInUse(String)
    /// The web view configuration already has a URL scheme handler for the fallback page's scheme
    /// (`setURLSchemeHandler(_:forURLScheme:)` raises for a second one).
    case urlSchemeInUse(String)
    /// WebKit handles this scheme itself (`WKWebView.handlesURLScheme(_:)`), so no handler can be set for it.
    case urlSchemeHandledByWebKit(String)

    public var description: String {
        switch self {
        case .messageHandlerNameInUse(let name):
            return "a script message handler named \(UntrustedText.quoted(name)) is already registered on this web view's "
                + "WKUserContentController by someone else; remove it, or give the consent UI its own configuration"
        case .urlSchemeInUse(let scheme):
            return "the web view configuration already has a URL scheme handler for \(UntrustedText.quoted(scheme)); "
                + "the fallback page cannot be served from it"
        case .urlSchemeHandledByWebKit(let scheme):
            return "WebKit handles the scheme \(UntrustedText.quoted(scheme)) itself; choose another fallback scheme"
        }
    }
}
