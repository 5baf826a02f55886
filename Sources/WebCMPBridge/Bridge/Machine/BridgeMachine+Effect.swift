import Foundation

extension BridgeMachine {
    /// What the runner does, in order, for one input.
    enum Effect: Sendable, Hashable {
        /// Load `url` in the web view as the load `id`.
        case load(URL, id: WebViewLoadID)
        /// Evaluate this JavaScript in the page (every value in it came through ``JavaScriptLiteral``).
        case evaluate(String)
        /// Post the stored record to the page (Gravito's `cookieData`), to `targetOrigin` only.
        case injectStoredRecord(targetOrigin: String)
        /// Run ``ConsentCommit`` and store its result; answer with ``Input/committed(_:_:trackingStatus:)``, handing
        /// the request back.
        case commit(CommitRequest)
        /// Report an event to the delegate, the streams and the log.
        case report(ConsentBridgeEvent)
        /// Start `timer` (replacing a running one of the same kind); answer with ``Input/timerFired(_:)``.
        case schedule(Timer, seconds: TimeInterval)
        /// Stop `timer`.
        case cancel(Timer)
        /// Stop counting `timer`'s time and keep what is left of it (the app went to the background, the UI was
        /// covered: WebKit suspends or throttles the page, so the page's time does not pass either).
        case pause(Timer)
        /// Go on counting `timer` with the time it had left when it was paused.
        case resume(Timer)
        /// Wait until the app is active; answer with ``Input/appActive``.
        case waitUntilActive
        /// Request App Tracking Transparency; answer with ``Input/trackingAnswered(_:statusNow:)``, with the status
        /// read right after the answer.
        case requestTracking
        /// Read App Tracking Transparency's status; answer with ``Input/trackingStatusRead(_:)``.
        case readTrackingStatus
        /// Open the app's page in the system's Settings app (`CMPWebView.openAppSettings()`): the page asked
        /// (``CMPMessage/openAppSettings``) while its UI was on screen.
        case openAppSettings
        /// Remove every stored consent (``BridgeConfiguration/clearsConsentOnTimeout``).
        case clearStore
        /// Stop everything: cancel every timer and task, remove the handlers and user scripts, finish the event
        /// streams. Always the last effect; afterwards the machine emits nothing (a navigation is still answered by
        /// ``BridgeMachine/decide(_:)``: the navigation policy's decision alone).
        case detach
    }

    /// What to commit: the payload, the page's signals and the rules, and what its answer needs — which request of
    /// which load it is, and whether its success ends the UI. The runner adds the stored record and `now`, and hands
    /// the request back with the store's answer (``Input/committed(_:_:trackingStatus:)``): the machine keeps no
    /// commit of its own while the runner commits.
    struct CommitRequest: Sendable, Hashable {
        /// The request's number in its run (1, 2, …): the machine takes only the answer to the run's latest request.
        var id: Int
        /// The load whose page sent it (`nil`: none was started yet); an answer for a replaced load is ignored.
        var load: WebViewLoadID?
        /// Whether its success ends the UI (after ``BridgeConfiguration/finishDelay``).
        var endsUI: Bool
        /// What the page sent (or the run's consent updated by a page signal).
        var payload: ConsentPayload
        /// The page's latest GPP and US Privacy strings.
        var page: PageSignals
        /// The app's rules for this save.
        var rules: ConsentCommit.Rules
    }
}

extension BridgeMachine {
    /// The effects of one input, in order.
    struct Effects {
        /// The effects so far.
        private(set) var list: [Effect] = []

        /// Appends `effect`.
        mutating func append(_ effect: Effect) {
            list.append(effect)
        }
    }
}
