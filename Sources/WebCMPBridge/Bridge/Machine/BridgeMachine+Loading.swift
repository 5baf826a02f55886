import Foundation

/// Loads, readiness, failures, load events and a terminated web content process.
extension BridgeMachine {
    /// Loads `url` (default: the hosted page; `fallback`: the app's fallback page) as a new load and (re)starts the
    /// ready timeout.
    mutating func load(_ url: URL?, fallback: Bool = false, _ out: inout Effects) {
        guard run?.stage == .loading else { return }   // ignored: only a loading run loads (a reload after the run moved on)
        let target = url ?? resolvedURL
        guard let id = withRun({ $0.loads.begin(target, fallback: fallback) }) else {
            return unreachable("a loading run without a run")   // checked just above
        }
        armReadyTimeout(&out)
        out.append(.load(target, id: id))
    }

    /// (Re)starts the ready timeout, unless it waits for a presentation that has not begun.
    mutating func armReadyTimeout(_ out: inout Effects) {
        guard let run else { return unreachable("the ready timeout armed in \(phase)") }   // callers check the run
        cancel(.ready, &out)
        if !run.awaitsFirstPresentation {
            schedule(.ready, seconds: configuration.readyTimeout, &out)
        }
    }

    /// Loads the fallback page instead of ending the run with `error`, when ``FallbackDecision`` says so.
    /// - Returns: whether the fallback is now loading (then `error` was reported as a diagnostic, not as an error).
    mutating func loadFallback(after error: ConsentBridgeError, _ out: inout Effects) -> Bool {
        guard let run, let fallback = configuration.fallback, let fallbackURL,
            FallbackDecision.loadsFallback(FallbackDecision.Situation(
                hasFallback: true, showingFallback: run.loads.showsFallback, becameReady: run.stage == .ready,
                error: error, renewalReason: renewalReason))
        else { return false }
        withRun { $0.stage = .loading }
        report(.diagnostic("\(error); showing the app's fallback page (\(fallback.origin))"), &out)
        load(fallbackURL, fallback: true, &out)
        return true
    }

    /// Marks the page ready and reports ``ConsentBridgeEvent/uiReady(_:)`` once, when the dialect is known.
    /// `injectRecordTo` answers a ready message with the stored record, posted to that origin only.
    mutating func becomeReady(injectRecordTo origin: String? = nil, _ out: inout Effects) {
        guard run != nil else { return }   // ignored: the same message ended the run first (settings evidence failed)
        withRun { run in
            run.stage = .ready
            if run.loads.recovery == .reloaded { run.loads.recovery = .none }
        }
        cancel(.ready, &out)
        if let origin { out.append(.injectStoredRecord(targetOrigin: origin)) }
        openSettingsIfNeeded(&out)
        if let dialect, withRun({ run in
            defer { run.announcedReady = true }
            return !run.announcedReady
        }) == true {
            report(.uiReady(dialect), &out)
        }
    }

    /// Ends the UI after ``BridgeConfiguration/finishDelay``: CMPs update their GPP string just after the TCF event
    /// (or the other way round), and what arrives meanwhile is still stored.
    mutating func finishAfterSettling(_ out: inout Effects) {
        guard run != nil else { return }   // ignored: the run ended while the save was answered
        schedule(.finishDelay, seconds: configuration.finishDelay, &out)
    }

    /// Reports `error` as the failure that ends the UI (``ConsentBridgeEvent/failed(_:)``) and ends it, unless the
    /// fallback page is loaded instead. Every failure that ends the UI comes through here or the ready timeout.
    mutating func fail(_ error: ConsentBridgeError, _ out: inout Effects) {
        guard !loadFallback(after: error, &out) else { return }
        report(.failed(error), &out)
        finish(.failed, &out)
    }


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
