import Foundation

extension ConsentBridge {
    /// What the web view does with a navigation of the CMP page (the core's `NavigationPolicy`): the page stays unless
    /// the user follows a link away from it, which opens outside the consent UI.
    ///
    /// Before the page being loaded has answered (no document from an allowed origin, no finished load, no message),
    /// a main-frame `http(s)` navigation away from the allowed origins is the load itself going elsewhere — an HTTP
    /// redirect of the CMP URL to another host or to `https`, a script redirect before the page shows — not a link
    /// the user followed: it is cancelled and the run fails with ``ConsentBridgeError/loadFailed(_:)`` naming the
    /// origin (or the fallback page is shown), instead of opening the redirect target in the browser. Add the origin
    /// to ``BridgeConfiguration/allowedOrigins``, or configure the final URL, to load it in the consent UI.
    public func decidePolicy(for request: NavigationRequest) -> NavigationDecision {
        let decision = NavigationPolicy.decide(
            request, allowedOrigins: allowedOrigins, externalLinks: configuration.externalLinks)
        guard decision != .allow, isActive, !pageAnswered, request.isMainFrame, !request.opensNewWindow,
            let url = request.url, ["http", "https"].contains(url.scheme?.lowercased()),
            let target = SecurityOrigin.origin(of: url)
        else { return decision }
        fail(.loadFailed(WebViewLoadError(
            url: url, reason: "the page was redirected to \(UntrustedText.quoted(target)) before it loaded, which is "
                + "not an allowed origin (BridgeConfiguration.allowedOrigins)")))
        return .cancel
    }

    /// Notes that the page being loaded has answered: a main document from an allowed origin (WebKitGTK reports the
    /// response before it asks the navigation policy, so a redirect target's own response does not count), a
    /// finished load, or a message.
    func noteLoadProgress(_ event: WebViewEvent) {
        switch event {
        case .didReceiveResponse(let url?, _, _):
            if isOwnDocument(url) { pageAnswered = true }
        case .didReceiveResponse(nil, _, _):
            break
        case .didFinishLoading, .message:
            pageAnswered = true
        case .didFailLoading, .contentProcessDidTerminate:
            break
        }
    }

    /// Whether a main-frame response is the consent UI's own document (from an allowed origin; a response without
    /// a URL counts). WebKitGTK reports the response of a navigation before asking the navigation policy, so the
    /// document of a link to another origin — which then opens outside — is reported too: its HTTP status is not
    /// the CMP page's.
    func isOwnDocument(_ url: URL?) -> Bool {
        url.map { SecurityOrigin.isAllowed($0, in: allowedOrigins) } ?? true
    }
}
