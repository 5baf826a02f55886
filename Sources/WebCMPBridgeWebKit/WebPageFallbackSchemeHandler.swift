// WebKit for SwiftUI (`WebPage`) is in the iOS 26, macOS 26 and visionOS 26 SDKs (Xcode 26, Swift 6.2), which also
// ship its SwiftUI overlay `_WebKit_SwiftUI`: the file compiles away with older SDKs and compilers.
#if canImport(WebKit) && canImport(_WebKit_SwiftUI) && compiler(>=6.2)
import Foundation
import WebKit
import WebCMPBridge

/// Serves a ``FallbackPage`` to a `WebPage` under its own origin (`scheme://host`): `WebPage`'s `URLSchemeHandler`,
/// as ``FallbackSchemeHandler`` is `WKWebView`'s. Every decision — which path is served, what is refused — is the
/// core's ``FallbackPage/response(for:)``; a refused request fails with `NSURLErrorFileDoesNotExist`.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
struct WebPageFallbackSchemeHandler: URLSchemeHandler {
    /// The page served.
    let page: FallbackPage

    /// The response and the data at once, or the refusal as the sequence's error.
    func reply(for request: URLRequest) -> AsyncThrowingStream<URLSchemeTaskResult, any Error> {
        let result = page.response(for: request.url)
        return AsyncThrowingStream { continuation in
            switch result {
            case .success(let response):
                continuation.yield(.response(URLResponse(
                    url: response.url, mimeType: response.mimeType, expectedContentLength: response.data.count,
                    textEncodingName: response.textEncodingName)))
                continuation.yield(.data(response.data))
                continuation.finish()
            case .failure(let refusal):
                continuation.finish(throwing: NSError(
                    domain: NSURLErrorDomain, code: NSURLErrorFileDoesNotExist,
                    userInfo: [NSLocalizedDescriptionKey: refusal.description]))
            }
        }
    }
}

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
extension WebPage.Configuration {
    /// Serves `page` from its scheme in the `WebPage` created with this configuration (``WebPageCMPWebView`` does it
    /// for you with ``WebPageCMPWebView/init(fallback:configuration:)``).
    ///
    /// Throws when WebKit handles the scheme itself or it is not a valid scheme (`URLScheme(_:)` is `nil`:
    /// WebKit handles it), or when the configuration already has a handler for it: a
    /// ``WebCMPBridge/ConsentBridgeError`` with the code ``WebCMPBridge/ConsentBridgeError/Code/webViewSetupFailed``.
    public mutating func registerFallback(_ page: FallbackPage) throws(ConsentBridgeError) {
        guard let scheme = URLScheme(page.scheme) else { throw .webViewSetupFailed(.urlSchemeHandledByWebKit(page.scheme)) }
        guard urlSchemeHandlers[scheme] == nil else { throw .webViewSetupFailed(.urlSchemeInUse(page.scheme)) }
        urlSchemeHandlers[scheme] = WebPageFallbackSchemeHandler(page: page)
    }
}
#endif
