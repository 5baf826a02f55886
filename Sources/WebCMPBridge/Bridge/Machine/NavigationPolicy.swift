import Foundation

/// The navigation rules for the CMP web view (asked by every adapter; decided here, not in platform code).
///
/// - Sub-frame navigations stay (vendor lists, captchas and the like live in iframes; the origin and main-frame
///   checks of script messages still apply to them).
/// - `about:blank` / `about:srcdoc` stay.
/// - A main-frame navigation within the allowed origins stays (the CMP's second layer, a reload).
/// - Everything else that would replace the consent page — another origin, a new window — goes to the app
///   (``ExternalLinkPolicy/openExternally``) when it is `http`, `https`, `mailto` or `tel`, and is cancelled otherwise
///   (`javascript:`, `file:`, custom schemes).
enum NavigationPolicy {
    static func decide(
        _ request: NavigationRequest, allowedOrigins: Set<String>, externalLinks: ExternalLinkPolicy
    ) -> NavigationDecision {
        decide(request, allowedOrigins: SecurityOrigin.AllowList(allowedOrigins), externalLinks: externalLinks)
    }

    /// ``decide(_:allowedOrigins:externalLinks:)`` with origins normalised once (the bridge's).
    static func decide(
        _ request: NavigationRequest, allowedOrigins: SecurityOrigin.AllowList, externalLinks: ExternalLinkPolicy
    ) -> NavigationDecision {
        guard let url = request.url else { return request.isMainFrame || request.opensNewWindow ? .cancel : .allow }
        let scheme = url.scheme?.lowercased() ?? ""
        if scheme == "about", ["blank", "srcdoc"].contains(url.absoluteString.dropFirst("about:".count).lowercased()) {
            return request.opensNewWindow ? .cancel : .allow
        }
        if !request.isMainFrame, !request.opensNewWindow { return .allow }
        if !request.opensNewWindow, allowedOrigins.contains(url) { return .allow }
        guard ["http", "https", "mailto", "tel"].contains(scheme) else { return .cancel }
        return externalLinks == .openExternally ? .openExternally(url) : .cancel
    }
}
