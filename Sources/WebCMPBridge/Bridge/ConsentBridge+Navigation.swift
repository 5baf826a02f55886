extension ConsentBridge {
    /// What the web view does with a navigation of the CMP page (``NavigationPolicy``): the page stays unless the user
    /// follows a link away from it, which opens outside the consent UI.
    public func decidePolicy(for request: NavigationRequest) -> NavigationDecision {
        NavigationPolicy.decide(request, allowedOrigins: allowedOrigins, externalLinks: configuration.externalLinks)
    }
}
