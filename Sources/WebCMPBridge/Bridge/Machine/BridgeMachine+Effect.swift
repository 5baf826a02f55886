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
        /// Write a save the machine's ``ConsentCommit`` produced (the keys, the record, the history entry's facts) to
        /// the store, under its lock once; answer with ``Input/storeAnswered(_:_:trackingStatus:)``.
        case store(Save)
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

    /// What the store writes for one save: everything is decided (the machine ran ``ConsentCommit`` on the page's
    /// consent, the stored record and `now`); the store only validates the size, appends the history entry and writes.
    struct Save: Sendable, Hashable {
        /// The save's number in its run (1, 2, …): the machine takes only the answer to the run's latest save.
        var id: Int
        /// The IAB keys to write (``ConsentCommit/keys``: the mapping's, valid by construction).
        var keys: MappedIABKeys
        /// The record to write with them.
        var record: ConsentRecord
        /// What this change is, for the history (``ConsentCommit/change``).
        var provenance: ConsentProvenance
        /// The page's facts for the history entry (its dialect and URL).
        var details: [String: String]
        /// When the save happened (the history entry's date).
        var now: Date
        /// The stored text the save was prepared on (``Run/storedVersion``): the store writes only over it, and
        /// otherwise answers ``ConsentStoreError/recordChanged(current:version:)`` with the record in force.
        var replacing: ConsentStore.RecordVersion
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
