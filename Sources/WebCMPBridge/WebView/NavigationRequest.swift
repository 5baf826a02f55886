import Foundation

/// A navigation the CMP page (or something in it) wants to make, as a web view adapter sees it.
package struct NavigationRequest: Sendable, Hashable {
    /// Where to.
    package var url: URL?
    /// Whether the main frame navigates (a link, a redirect, `location.href = …`).
    package var isMainFrame: Bool
    /// Whether a new window is asked for (`target="_blank"`, `window.open`).
    package var opensNewWindow: Bool

    /// Creates a request.
    package init(url: URL?, isMainFrame: Bool, opensNewWindow: Bool = false) {
        self.url = url
        self.isMainFrame = isMainFrame
        self.opensNewWindow = opensNewWindow
    }
}

/// What an adapter does with a `NavigationRequest`.
package enum NavigationDecision: Sendable, Hashable {
    /// Let the web view navigate.
    case allow
    /// Stop the navigation.
    case cancel
    /// Stop the navigation and hand the URL to the app (by default the system browser opens it).
    case openExternally(URL)
}

/// What to do with links that would take the CMP page away (other origins, new windows).
public enum ExternalLinkPolicy: String, Sendable, Hashable, CaseIterable {
    /// Open them outside the consent UI (the adapter's `openExternally`, by default the system browser), so the CMP
    /// page stays and can still save. The default.
    case openExternally
    /// Ignore them: the CMP page stays.
    case block
}
