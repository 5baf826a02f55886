import Foundation

/// Decides whether a navigation of a content web view is re-issued with `Sec-GPC: 1`: the platform adapter cancels
/// the navigation action and loads the same request with the header. A value state machine: one per web view, fed
/// every navigation action.
///
/// **GPC never changes how a page navigates** (<doc:SessionPromises>, promise 7). WebKit gives no way to add a header
/// to a navigation it is about to perform: `WKNavigationAction.request` is read-only (a copy), and
/// `webView(_:decidePolicyFor:decisionHandler:)` can only allow or cancel it, so the header can be added only by
/// cancelling and loading a new request, which is a new navigation with a history entry of its own. That is harmless
/// only where the navigation was going to be a new load with a new history entry anyway, and the cancelled one never
/// reached the server: a **user's link activation**. So the one navigation re-issued is a **main-frame**, **GET**,
/// bodiless **http(s)** navigation without the header, of type `linkActivated` ("A link with an href attribute was
/// activated", `WKNavigationType`), that is no redirect and not a same-document (fragment) navigation.
///
/// Not re-issued (they go ahead without the header; the kit's own loads, `loadSharingConsent`, carry it):
/// - navigations of type `other`: scripts (`location.href`, `location.replace`), meta refresh and redirects.
///   Re-issuing them turns a `location.replace` or a refresh, which replace the current history entry, into a new
///   entry, so Back returns to the page that redirects again (a back-button trap);
/// - server redirects of any type (``Action/isRedirect``), including the GET that follows a form POST (`303 See
///   Other`): the POST already reached the server, and its response is that redirect;
/// - form submissions (GET or POST), form resubmissions, reloads and back/forward navigations: re-issuing them turns
///   them into new loads (a new history entry, a new submission);
/// - frame navigations (iframes): loading the request would replace the main document;
/// - other methods and requests with a body;
/// - non-http(s) URLs, and navigations of unknown frame or kind;
/// - the URL re-issued last, when it comes back still without the header (the platform dropped it): allowed once,
///   so there is never a loop.
package struct GPCNavigationGuard: Sendable, Hashable {
    /// What a navigation action is, as far as the decision needs it.
    package struct Action: Sendable, Hashable {
        /// What started the navigation.
        package enum Kind: String, Sendable, Hashable, CaseIterable {
            /// A link the user followed.
            case linkActivated
            /// A form submitted (GET or POST; the method decides).
            case formSubmitted
            /// Back or forward in the history.
            case backForward
            /// A reload.
            case reload
            /// A form submitted again (a reload or back/forward of a POST).
            case formResubmitted
            /// Anything else: a script (`location.href`), a redirect, a load the app started.
            case other
        }

        /// The request URL.
        package var url: URL?
        /// The request method (`nil` is GET).
        package var httpMethod: String?
        /// Whether the request has a body (or a body stream).
        package var hasBody: Bool
        /// The request's `Sec-GPC` value, if any.
        package var gpcHeader: String?
        /// Whether the main frame navigates (`nil`: not known, or a new window).
        package var isMainFrame: Bool?
        /// What started it.
        package var kind: Kind
        /// The URL of the document the main frame shows now (for fragment navigations).
        package var currentURL: URL?
        /// Whether the action is a server redirect of a navigation under way. `WKNavigationAction` does not say so
        /// publicly (the Apple glue passes `false`): there a redirect of a link the guard re-issued carries the header
        /// (the redirected request keeps the original's header fields) and is allowed, and a redirect WebKit reports
        /// as `other` or as a form submission is never re-issued by its kind.
        package var isRedirect: Bool

        /// An action.
        package init(
            url: URL?, httpMethod: String? = "GET", hasBody: Bool = false, gpcHeader: String? = nil,
            isMainFrame: Bool?, kind: Kind, currentURL: URL? = nil, isRedirect: Bool = false
        ) {
            self.url = url
            self.httpMethod = httpMethod
            self.hasBody = hasBody
            self.gpcHeader = gpcHeader
            self.isMainFrame = isMainFrame
            self.kind = kind
            self.currentURL = currentURL
            self.isRedirect = isRedirect
        }
    }

    /// The decision.
    package enum Decision: Sendable, Hashable {
        /// Let the navigation go ahead as it is.
        case allow
        /// Cancel it and load the same request with `Sec-GPC: 1`.
        case reissueWithHeader
    }

    /// The URL last re-issued, until a navigation to it carries the header.
    package private(set) var lastReissued: URL?

    /// A guard that has re-issued nothing yet.
    package init() {}

    /// Decides `action` when the signal is `enabled`, and remembers what it re-issued.
    package mutating func decide(_ action: Action, enabled: Bool) -> Decision {
        let decision = Self.decision(for: action, enabled: enabled, lastReissued: lastReissued)
        switch decision {
        case .reissueWithHeader: lastReissued = action.url
        case .allow: if action.url == lastReissued { lastReissued = nil }
        }
        return decision
    }

    /// The pure decision (see the type's description).
    static func decision(for action: Action, enabled: Bool, lastReissued: URL?) -> Decision {
        guard enabled, action.isMainFrame == true, let url = action.url,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            (action.httpMethod ?? "GET").uppercased() == "GET", !action.hasBody,
            action.gpcHeader?.trimmingCharacters(in: .whitespaces) != GlobalPrivacyControl.headerValue,
            action.kind == .linkActivated, !action.isRedirect,
            url != lastReissued, !isSameDocument(url, current: action.currentURL)
        else { return .allow }
        return .reissueWithHeader
    }

    /// Whether `url` only changes the fragment of `current`.
    static func isSameDocument(_ url: URL, current: URL?) -> Bool {
        guard let current, url.fragment != nil else { return false }
        func stripped(_ url: URL) -> String? {
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
            components.fragment = nil
            return components.string
        }
        return stripped(url) != nil && stripped(url) == stripped(current)
    }
}
