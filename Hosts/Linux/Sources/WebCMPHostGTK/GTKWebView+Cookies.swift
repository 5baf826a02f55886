import CWebKitGTK
import Foundation
import WebCMPBridge

extension GTKWebView {
    /// Sets `cookies` in this web view's cookie manager (WebKitGTK's `webkit_cookie_manager_add_cookie` with a
    /// libsoup 3 `SoupCookie`), waiting until each one is stored, so that a load started afterwards carries them.
    /// The Linux counterpart of `WKHTTPCookieStore.setCookie` on Apple platforms. Returns how many were stored.
    @discardableResult
    package func setCookies(_ cookies: [SharedCookie], timeout: TimeInterval = 5) -> Int {
        guard !isClosed, let manager = webkit_website_data_manager_get_cookie_manager(
            webkit_web_view_get_website_data_manager(view)) else { return 0 }
        var stored = 0
        for shared in cookies {
            guard let cookie = soup_cookie_new(shared.name, shared.value, shared.domain, shared.path,
                                               Int32(clamping: shared.maxAge)) else { continue }
            soup_cookie_set_secure(cookie, shared.isSecure ? 1 : 0)
            soup_cookie_set_http_only(cookie, shared.isHTTPOnly ? 1 : 0)
            soup_cookie_set_same_site_policy(cookie, SOUP_SAME_SITE_POLICY_LAX)
            let box = CookieBox()
            let retained = Unmanaged.passRetained(box)
            webkit_cookie_manager_add_cookie(manager, cookie, nil, cookieAdded, retained.toOpaque())
            soup_cookie_free(cookie)
            GTKRuntime.run(until: Date().addingTimeInterval(timeout)) { box.result == nil }
            if box.result == true { stored += 1 }
        }
        return stored
    }
}

/// The outcome of one asynchronous `add_cookie`.
final class CookieBox: @unchecked Sendable {
    var result: Bool?
}

private let cookieAdded: GAsyncReadyCallback = { source, result, userData in
    guard let userData else { return }
    let box = Unmanaged<CookieBox>.fromOpaque(userData).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let manager = UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitCookieManager.self)
    let ok = manager.map { webkit_cookie_manager_add_cookie_finish($0, result, &error) != 0 } ?? false
    if let error { g_error_free(error) }
    box.result = ok
}
