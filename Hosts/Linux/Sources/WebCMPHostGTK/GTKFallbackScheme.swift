import CWebKitGTK
import Foundation
import WebCMPBridge

/// Serves a ``FallbackPage`` through WebKitGTK's URI scheme API (`webkit_web_context_register_uri_scheme`), the
/// Linux counterpart of the `WKURLSchemeHandler` the Apple glue registers.
///
/// The scheme is registered once per process on its web context (``GTKRuntime/webContext``, the one every
/// ``GTKWebView`` uses), and with the security manager as **secure** (the page is a secure context, like an `https`
/// page, so storage and `crypto.subtle` work) and **CORS-enabled**. WebKit then gives the page the origin
/// `scheme://host`, which the core's origin policy allows while the fallback is shown. Every decision — which path
/// is served, what is refused — is the core's ``FallbackPage/response(for:)``; refusals end the request with an
/// error and are recorded in ``refusals``.
@MainActor
package enum GTKFallbackScheme {
    private static var pages: [String: FallbackPage] = [:]
    private static var registered: Set<String> = []

    /// Every request the handler refused, in order (for tests and `webcmp-host`).
    package private(set) static var refusals: [FallbackRefusal] = []
    /// How many requests the handler served.
    package private(set) static var served = 0

    /// Serves `page` from now on (replacing an earlier page of the same scheme).
    package static func register(_ page: FallbackPage) {
        pages[page.scheme] = page
        guard registered.insert(page.scheme).inserted else { return }
        let context = GTKRuntime.webContext
        webkit_web_context_register_uri_scheme(context, page.scheme, schemeRequest, nil, nil)
        if let security = webkit_web_context_get_security_manager(context) {
            webkit_security_manager_register_uri_scheme_as_secure(security, page.scheme)
            webkit_security_manager_register_uri_scheme_as_cors_enabled(security, page.scheme)
        }
    }

    /// Answers the request at `address` (a `WebKitURISchemeRequest *`, passed as an integer across the isolation
    /// boundary: the callback runs on the main thread, where WebKit keeps the request alive until it is finished).
    fileprivate static func answer(_ address: UInt, uri: String?) {
        guard let request = OpaquePointer(bitPattern: address) else { return }
        let url = uri.flatMap(URL.init(string:))
        guard let scheme = url?.scheme?.lowercased(), let page = pages[scheme] else {
            return refuse(request, .wrongScheme(url?.scheme ?? ""))
        }
        switch page.response(for: url) {
        case .failure(let refusal):
            refuse(request, refusal)
        case .success(let response):
            served += 1
            let bytes = response.data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            let stream = g_memory_input_stream_new_from_bytes(bytes)
            g_bytes_unref(bytes)
            let type = response.textEncodingName.map { "\(response.mimeType); charset=\($0)" } ?? response.mimeType
            webkit_uri_scheme_request_finish(
                UnsafeMutablePointer(request), stream, gint64(response.data.count), type)
            g_object_unref(UnsafeMutableRawPointer(stream))
        }
    }

    private static func refuse(_ request: OpaquePointer, _ refusal: FallbackRefusal) {
        refusals.append(refusal)
        let error = g_error_new_literal(g_quark_from_string("webcmp-fallback"), 404, refusal.description)
        webkit_uri_scheme_request_finish_error(UnsafeMutablePointer(request), error)
        g_error_free(error)
    }
}

private let schemeRequestFunction: @convention(c) (OpaquePointer?, gpointer?) -> Void = { request, _ in
    guard let request else { return }
    let uri = webkit_uri_scheme_request_get_uri(UnsafeMutablePointer(request)).map { String(cString: $0) }
    let address = UInt(bitPattern: request)
    MainActor.assumeIsolated { GTKFallbackScheme.answer(address, uri: uri) }
}
private let schemeRequest = unsafeBitCast(schemeRequestFunction, to: WebKitURISchemeRequestCallback.self)
