#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge

/// Serves a ``FallbackPage`` to a `WKWebView` under its own origin (`scheme://host`). Every decision — which path is
/// served, what is refused — is the core's ``FallbackPage/response(for:)``; a refused request fails with
/// `NSURLErrorFileDoesNotExist`.
///
/// A scheme handler must be set on the `WKWebViewConfiguration` **before** the `WKWebView` is created:
/// use ``WKCMPWebView/init(fallback:configuration:)`` or ``WebKit/WKWebViewConfiguration/registerFallback(_:)``.
@MainActor
package final class FallbackSchemeHandler: NSObject, WKURLSchemeHandler {
    /// The page served.
    package let page: FallbackPage

    /// Creates a handler for `page`.
    package init(page: FallbackPage) {
        self.page = page
    }

    package func webView(_ webView: WKWebView, start urlSchemeTask: any WKURLSchemeTask) {
        switch page.response(for: urlSchemeTask.request.url) {
        case .success(let response):
            let urlResponse = URLResponse(
                url: response.url, mimeType: response.mimeType, expectedContentLength: response.data.count,
                textEncodingName: response.textEncodingName)
            urlSchemeTask.didReceive(urlResponse)
            urlSchemeTask.didReceive(response.data)
            urlSchemeTask.didFinish()
        case .failure(let refusal):
            urlSchemeTask.didFailWithError(NSError(
                domain: NSURLErrorDomain, code: NSURLErrorFileDoesNotExist,
                userInfo: [NSLocalizedDescriptionKey: refusal.description]))
        }
    }

    package func webView(_ webView: WKWebView, stop urlSchemeTask: any WKURLSchemeTask) {
        // Every response is delivered synchronously in start: there is nothing to stop.
    }
}

extension WKWebViewConfiguration {
    /// Serves `page` from its scheme in web views created with **this** configuration afterwards. It changes this
    /// configuration object: pass a copy if the configuration is shared.
    ///
    /// Throws instead of letting WebKit raise `NSInvalidArgumentException` (which terminates the app) when the
    /// configuration already has a handler for the scheme or WebKit handles the scheme itself: a
    /// ``WebCMPBridge/ConsentBridgeError`` with the code ``WebCMPBridge/ConsentBridgeError/Code/webViewSetupFailed``.
    public func registerFallback(_ page: FallbackPage) throws(ConsentBridgeError) {
        guard !WKWebView.handlesURLScheme(page.scheme) else {
            throw .webViewSetupFailed(.urlSchemeHandledByWebKit(page.scheme))
        }
        guard urlSchemeHandler(forURLScheme: page.scheme) == nil else {
            throw .webViewSetupFailed(.urlSchemeInUse(page.scheme))
        }
        setURLSchemeHandler(FallbackSchemeHandler(page: page), forURLScheme: page.scheme)
    }
}

extension WKCMPWebView {
    /// Creates a web view that serves `fallback` (when not `nil`) from its scheme, so that a bridge configured with
    /// ``BridgeConfiguration/fallback`` can show it when the hosted page fails.
    ///
    /// The handler is registered on a **copy** of `configuration` (with its own user content controller, as
    /// ``init(configuration:)`` does): the configuration you pass is not changed and can be passed again.
    /// Throws when the configuration already serves the fallback's scheme or WebKit handles it (a
    /// ``WebCMPBridge/ConsentBridgeError`` with the code ``WebCMPBridge/ConsentBridgeError/Code/webViewSetupFailed``).
    public convenience init(
        fallback: FallbackPage?, configuration: WKWebViewConfiguration = WKWebViewConfiguration()
    ) throws(ConsentBridgeError) {
        let own = WKCMPWebView.consentConfiguration(from: configuration)
        if let fallback { try own.registerFallback(fallback) }
        self.init(webView: WKWebView(frame: .zero, configuration: own))
    }

    /// The web view the consent UI creates for `fallback`: with the fallback served when its scheme can be
    /// registered; otherwise without it (the bridge then reports the fallback's load failure).
    package static func forConsentUI(fallback: FallbackPage?) -> WKCMPWebView {
        (try? WKCMPWebView(fallback: fallback)) ?? WKCMPWebView()
    }
}
#endif
