import Foundation

/// Navigations of the CMP page: answered at once with a decision of their own (``decide(_:)``), not through the
/// machine's effects; a redirect of the load before the page answered then fails the load (``Input/loadRedirected(_:)``).
extension BridgeMachine {
    /// The machine's answer to a ``NavigationRequest``: what the web view does with it, and whether it is the page's
    /// load itself going elsewhere.
    struct NavigationAnswer: Sendable, Hashable {
        /// What the adapter does with the navigation (``ConsentBridge/decidePolicy(for:)`` returns it).
        var decision: NavigationDecision
        /// The navigation is the load itself redirected away from the allowed origins before the page answered: the
        /// runner feeds it back at once (``Input/loadRedirected(_:)``), and the load fails. `nil` for every other
        /// navigation.
        var redirect: LoadRedirect?
    }

    /// A load that went away from the allowed origins before its page answered.
    struct LoadRedirect: Sendable, Hashable {
        /// The load (``LoadTracker/current`` when the navigation was decided).
        var load: WebViewLoadID
        /// Where it went.
        var url: URL
        /// The origin of `url`, as the error names it.
        var origin: String
    }

    /// What the web view does with a navigation of the CMP page (``NavigationPolicy``): the page stays unless the user
    /// follows a link away from it, which opens outside the consent UI. Answered in every phase, detached included
    /// (the adapters ask ``ConsentBridge/decidePolicy(for:)`` for as long as they live), and it changes nothing: the
    /// only navigation with a consequence is a redirect, which ``NavigationAnswer/redirect`` names.
    ///
    /// Before the page being loaded has answered, a main-frame `http(s)` navigation away from the allowed origins is
    /// the load itself going elsewhere (an HTTP redirect to another host, a script redirect before the page shows),
    /// not a link the user followed: it is cancelled, and the answer names the redirect.
    func decide(_ request: NavigationRequest) -> NavigationAnswer {
        let decision = NavigationPolicy.decide(
            request, allowedOrigins: allowedOrigins, externalLinks: configuration.externalLinks)
        guard decision != .allow, let run, let load = run.loads.current, !run.loads.answered, request.isMainFrame,
            !request.opensNewWindow, let url = request.url, ["http", "https"].contains(url.scheme?.lowercased()),
            let origin = SecurityOrigin.origin(of: url)
        else { return NavigationAnswer(decision: decision) }
        return NavigationAnswer(decision: .cancel, redirect: LoadRedirect(load: load, url: url, origin: origin))
    }

    /// The load `redirect.load` went elsewhere before its page answered: the run fails with
    /// ``ConsentBridgeError/loadFailed(_:)`` naming the origin (or the fallback page is shown). Ignored when that load
    /// is no longer current or has answered since (nothing else can have changed between the decision and this input:
    /// the runner feeds it at once).
    mutating func loadRedirected(_ redirect: LoadRedirect, _ out: inout Effects) {
        guard let run, run.loads.current == redirect.load, !run.loads.answered else { return }
        fail(.loadFailed(WebViewLoadError(
            url: redirect.url,
            reason: "the page was redirected to \(UntrustedText.quoted(redirect.origin)) before it loaded, which is "
                + "not an allowed origin (BridgeConfiguration.allowedOrigins)")), &out)
    }
}
