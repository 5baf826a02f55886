#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge

extension WKWebView {
    /// Loads `request` in a content web view with the stored consent shared into it: ``preloadConsent(from:)``
    /// installs the sharing script (native-backed `__tcfapi`/`__gpp`/`__uspapi` for pages without a CMP, main frame
    /// only, answering the page's iframes through the IAB locator frames and `postMessage`, and this package's own
    /// `webcmp.readyForConsent` handshake). The URL is loaded as given: `_sp_pass_consent=true` is not added, because
    /// a Sourcepoint page would then wait for Sourcepoint's own message, which this package does not send.
    /// When the stored consent says the user opted out of sale or sharing (``GlobalPrivacyControl/automatic``), the
    /// request carries `Sec-GPC: 1` and every frame gets `navigator.globalPrivacyControl` (see
    /// ``globalPrivacyControlPolicy(for:)`` for the page's own navigations).
    @MainActor
    @discardableResult
    public func loadSharingConsent(_ request: URLRequest, from store: ConsentStore) -> WKNavigation? {
        preloadConsent(from: store)
        return load(Self.adding(ConsentSharing.requestHeaders(record: store.record(), keys: store.iabKeys()),
                                to: request))
    }

    /// Loads `request` with the stored consent shared and seeded: sets the configured cookies in the web view's
    /// cookie store first (so the first request carries them, `HttpOnly` ones included), then installs the seeding
    /// script (main frame of the configured content origins only) and the sharing script, then loads. With
    /// Global Privacy Control on (``SharingConfiguration/globalPrivacyControl``), the request carries `Sec-GPC: 1`
    /// and every frame gets `navigator.globalPrivacyControl`.
    @MainActor
    @discardableResult
    public func loadSharingConsent(
        _ request: URLRequest, from store: ConsentStore, sharing configuration: SharingConfiguration
    ) async -> WKNavigation? {
        await preloadConsent(from: store, sharing: configuration)
        let headers = ConsentSharing.requestHeaders(
            record: store.record(), keys: store.iabKeys(), setting: configuration.globalPrivacyControl)
        return load(Self.adding(headers, to: request))
    }

    /// `request` with `headers` set (replacing fields of the same name).
    private static func adding(_ headers: [String: String], to request: URLRequest) -> URLRequest {
        var request = request
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Installs (or replaces) the consent sharing user script built by the core (`ConsentSharing`), and updates a
    /// page that is already loaded. Idempotent: earlier sharing scripts are removed first, other scripts are kept,
    /// so calling it again after consent changed never leaves two scripts or stale consent. When the stored consent
    /// says the user opted out of sale or sharing (``GlobalPrivacyControl/automatic``) it also installs the
    /// all-frames Global Privacy Control script (it takes effect from the next document: the GPC property is fixed
    /// when a document loads).
    @MainActor
    public func preloadConsent(from store: ConsentStore) {
        let record = store.record()
        let keys = store.iabKeys()
        replaceSharingScripts(with: [ConsentSharing.userScript(record: record, keys: keys)]
            + ConsentSharing.globalPrivacyControlScripts(record: record, keys: keys))
        updateLoadedPage(record: record, keys: keys)
    }

    /// Like ``preloadConsent(from:)``, and also seeds the stored consent into the first-party entries of
    /// `configuration`: sets its cookies through `WKHTTPCookieStore` (awaited) and installs the seeding script with
    /// `forMainFrameOnly: true`, before the sharing script, and the all-frames Global Privacy Control script when
    /// ``SharingConfiguration/globalPrivacyControl`` is on for the stored consent. Idempotent like
    /// ``preloadConsent(from:)``.
    @MainActor
    public func preloadConsent(from store: ConsentStore, sharing configuration: SharingConfiguration) async {
        let record = store.record()
        let keys = store.iabKeys()
        let cookieStore = self.configuration.websiteDataStore.httpCookieStore
        for shared in ConsentSharing.cookies(record: record, configuration: configuration) {
            guard let cookie = HTTPCookie(properties: Self.cookieProperties(shared)) else { continue }
            await cookieStore.setCookie(cookie)
        }
        replaceSharingScripts(
            with: ConsentSharing.userScripts(record: record, keys: keys, configuration: configuration))
        updateLoadedPage(record: record, keys: keys)
    }

    /// Hands the consent to a page that already runs the sharing script (fire and forget; the async
    /// `evaluateJavaScript` would trap on the script's `undefined` result). It runs in the main frame, where the
    /// sharing script is; iframes that registered listeners through `postMessage` are answered from there.
    @MainActor
    private func updateLoadedPage(record: ConsentRecord?, keys: IABKeySet) {
        evaluateJavaScript(ConsentSharing.updateScript(record: record, keys: keys), completionHandler: nil)
    }

    /// Removes the earlier sharing scripts (keeping every other script, in order) and adds `scripts`.
    @MainActor
    private func replaceSharingScripts(with scripts: [UserScript]) {
        let controller = configuration.userContentController
        let others = controller.userScripts.filter { !ConsentSharing.isSharingScript($0.source) }
        if others.count != controller.userScripts.count {
            controller.removeAllUserScripts()
            others.forEach(controller.addUserScript)
        }
        for script in scripts {
            controller.addUserScript(WKUserScript(
                source: script.source, injectionTime: .atDocumentStart, forMainFrameOnly: script.forMainFrameOnly))
        }
    }

    /// `HTTPCookie` properties for a cookie the core built.
    private static func cookieProperties(_ shared: SharedCookie) -> [HTTPCookiePropertyKey: Any] {
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: shared.name, .value: shared.value, .domain: shared.domain, .path: shared.path,
            .expires: Date().addingTimeInterval(TimeInterval(shared.maxAge)),
            .sameSitePolicy: HTTPCookieStringPolicy.sameSiteLax.rawValue,
        ]
        if shared.isSecure { properties[.secure] = "TRUE" }
        if shared.isHTTPOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        return properties
    }
}
#endif
