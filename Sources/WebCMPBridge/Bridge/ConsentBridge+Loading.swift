import Foundation

/// Load events: which load they belong to, what a failure means, and a terminated web content process.
extension ConsentBridge {
    /// Handles a load event of the web view (not a message).
    ///
    /// - Events of a load the bridge has replaced (the hosted page by the fallback, a reload) are ignored, by the
    ///   load's identity (``LoadTracker``).
    /// - A cancelled navigation (replaced, or stopped) and one the navigation policy interrupted (a link sent to the
    ///   browser) are not failures (``WebViewLoadFailure/Kind``); if the page then never becomes ready, the ready
    ///   timeout ends the run.
    /// - An HTTP status of 400 or more for the consent UI's own document is a load failure.
    /// - A terminated web content process (iOS ends them while the app is in the background) reloads the page once;
    ///   the second time in one run ends it with ``ConsentBridgeError/webContentTerminated``.
    func handleLoadEvent(_ event: WebViewEvent) {
        guard !loads.isStale(event.loadID) else { return }
        noteLoadProgress(event)
        switch event {
        case .didReceiveResponse(let url, let statusCode, _) where statusCode >= 400 && isOwnDocument(url):
            fail(.loadFailed(WebViewLoadError(url: url, statusCode: statusCode, reason: "the server answered an error")))
        case .didReceiveResponse, .message:
            break
        case .didFinishLoading:
            if configuration.dialect == .onesecondbefore { becomeReady() }
        case .didFailLoading(let failure, _):
            guard failure.kind == .failed else { return }
            fail(.loadFailed(WebViewLoadError(url: failure.url, reason: failure.description)))
        case .contentProcessDidTerminate:
            contentProcessDidTerminate()
        }
    }

    private func contentProcessDidTerminate() {
        guard !loads.reloadedAfterTermination, let url = loads.currentURL else { return fail(.webContentTerminated) }
        loads.reloadedAfterTermination = true
        report(.diagnostic("the web content process terminated; reloading the CMP page once"))
        state = .loading
        resetSettingsOpening()
        load(url)
    }

    /// The origin a reply to `message` is posted to: the sender's (already checked against the allowed origins), or,
    /// when the adapter cannot tell, the origin of the page the bridge loaded. `nil`: no reply.
    func replyOrigin(for message: ScriptMessage) -> String? {
        message.origin ?? loads.currentURL.flatMap(SecurityOrigin.origin(of:))
    }
}
