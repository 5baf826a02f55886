import Foundation

/// Load events and a terminated web content process.
extension BridgeMachine {
    /// Handles a load event of the web view (not a message).
    ///
    /// - Events of a load the bridge has replaced (the hosted page by the fallback, a reload) are ignored, by the
    ///   load's identity (``LoadTracker``).
    /// - A cancelled navigation (replaced, or stopped) and one the navigation policy interrupted (a link sent to the
    ///   browser) are not failures (`WebViewLoadFailure.Kind`); if the page then never becomes ready, the ready
    ///   timeout ends the run.
    /// - An HTTP status of 400 or more for the consent UI's own document is a load failure.
    /// - A terminated web content process (iOS ends them while the app is in the background) reloads the page once
    ///   per page — in the foreground: a termination reported while the app is in the background reloads when it
    ///   returns; a second termination before the reloaded page was ready ends the run with
    ///   ``ConsentBridgeError/Code/webContentTerminated`` (once the reloaded page is ready, the allowance is back).
    mutating func handleLoadEvent(_ event: WebViewEvent, _ out: inout Effects) {
        guard let run, !run.loads.isStale(event.loadID) else { return }
        switch event {
        case .didReceiveResponse(let url, let statusCode, _):
            // WebKitGTK reports the response of a navigation before it asks the navigation policy, so only a
            // document from an allowed origin (or without a URL) is the page answering.
            guard isOwnDocument(url) else { return }
            if url != nil { withRun { $0.loads.markAnswered() } }
            if statusCode >= 400 {
                fail(.loadFailed(WebViewLoadError(url: url, statusCode: statusCode, reason: "the server answered an error")), &out)
            }
        case .didFinishLoading:
            withRun { $0.loads.markAnswered() }
            if detection.configured?.finishedLoadIsReady == true { becomeReady(&out) }
        case .didFailLoading(let failure, _):
            guard failure.kind == .failed else { return }
            fail(.loadFailed(WebViewLoadError(url: failure.url, reason: failure.description)), &out)
        case .contentProcessDidTerminate:
            guard run.loads.recovery == .none, run.loads.currentURL != nil else {
                // A second termination before the reloaded page was ready (or one that is already waiting for the
                // foreground) is no reason to reload again.
                guard run.loads.recovery == .reloadInForeground else { return fail(.webContentTerminated, &out) }
                return
            }
            let settings = freshSettings
            withRun {
                $0.stage = .loading
                $0.settings = settings
                $0.loads.recovery = .reloadInForeground
            }
            stopSettingsTimers(&out)
            if inBackground {
                report(.diagnostic("the web content process terminated in the background; reloading the CMP page "
                    + "once when the app returns to the foreground"), &out)
            } else {
                reloadAfterTermination(&out)
            }
        case .message, .appLifecycle:
            break
        }
    }

    /// Reloads the page whose web content process terminated (``LoadTracker/Recovery/reloadInForeground``).
    mutating func reloadAfterTermination(_ out: inout Effects) {
        guard let run, run.loads.recovery == .reloadInForeground, let url = run.loads.currentURL else { return }
        withRun { $0.loads.recovery = .reloaded }
        report(.diagnostic("the web content process terminated; reloading the CMP page once"), &out)
        load(url, &out)
    }

    /// Whether a main-frame response is the consent UI's own document (from an allowed origin; a response without
    /// a URL counts). WebKitGTK reports the response of a navigation before asking the navigation policy, so the
    /// document of a link to another origin — which then opens outside — is reported too: its HTTP status is not
    /// the CMP page's.
    private func isOwnDocument(_ url: URL?) -> Bool {
        url.map { allowedOrigins.contains($0) } ?? true
    }
}
