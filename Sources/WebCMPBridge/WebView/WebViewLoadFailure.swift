import Foundation

/// A main-frame navigation that ended without a page, as the platform reported it: adapters pass the raw error
/// (domain, code, failing URL); the core decides what it means: a cancellation (`NSURLErrorCancelled`, WebKitGTK's
/// `WEBKIT_NETWORK_ERROR_CANCELLED`) or a policy interruption (WebKit error 102) is not a failure of the page.
///
/// The URL is the one that failed, taken from the error (`NSURLErrorFailingURLErrorKey` on Apple platforms, the
/// `failing_uri` of WebKitGTK's `load-failed`), never the web view's current URL, which during a replaced load is
/// already the next one.
package struct WebViewLoadFailure: Sendable, Hashable, CustomStringConvertible {
    /// What a failed navigation means for the consent UI.
    enum Kind: String, Sendable, Hashable {
        /// A real failure (network, TLS, a refused scheme request …).
        case failed
        /// The navigation was cancelled because another load replaced it (`NSURLErrorCancelled`, -999;
        /// `WEBKIT_NETWORK_ERROR_CANCELLED`), or the app stopped it. Not a failure.
        case cancelled
        /// The navigation policy stopped it (`WebKitErrorFrameLoadInterruptedByPolicyChange`, 102, in
        /// `WebKitErrorDomain`; WebKitGTK's `WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE`): a link the
        /// bridge sent to the browser, a download. Not a failure.
        case interruptedByPolicy
    }

    /// The URL that failed, when the platform says.
    package var url: URL?
    /// The error domain (`NSError.domain`; WebKitGTK: the `GError` domain's name, e.g. `WebKitNetworkError`).
    package var domain: String
    /// The error code in ``domain``.
    package var code: Int
    /// The platform's description (untrusted text).
    package var description: String

    /// Creates a failure.
    package init(url: URL?, domain: String = "", code: Int = 0, description: String) {
        self.url = url
        self.domain = domain
        self.code = code
        self.description = description
    }

    /// What the failure means. Decided here for every platform, from the error's domain and code:
    ///
    /// | domain | code | kind |
    /// | --- | --- | --- |
    /// | `NSURLErrorDomain` | -999 (`NSURLErrorCancelled`) | ``Kind/cancelled`` |
    /// | `WebKitErrorDomain` | 102 (frame load interrupted by policy change) | ``Kind/interruptedByPolicy`` |
    /// | `WebKitNetworkError` (WebKitGTK) | 302 (`WEBKIT_NETWORK_ERROR_CANCELLED`) | ``Kind/cancelled`` |
    /// | `WebKitPolicyError` (WebKitGTK) | 102 (`…_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE`) | ``Kind/interruptedByPolicy`` |
    ///
    /// Everything else is ``Kind/failed``.
    var kind: Kind {
        switch (domain, code) {
        case (Self.urlErrorDomain, -999), (Self.webKitGTKNetworkErrorDomain, 302): return .cancelled
        case (Self.webKitErrorDomain, 102), (Self.webKitGTKPolicyErrorDomain, 102): return .interruptedByPolicy
        default: return .failed
        }
    }

    /// `NSURLErrorDomain`.
    package static let urlErrorDomain = "NSURLErrorDomain"
    /// `WebKitErrorDomain` (`WKErrorDomain` is another domain, for `WKError` codes).
    package static let webKitErrorDomain = "WebKitErrorDomain"
    /// WebKitGTK's `WEBKIT_NETWORK_ERROR` domain.
    static let webKitGTKNetworkErrorDomain = "WebKitNetworkError"
    /// WebKitGTK's `WEBKIT_POLICY_ERROR` domain.
    static let webKitGTKPolicyErrorDomain = "WebKitPolicyError"
}
