import Foundation

extension BridgeMachine {
    /// Where the run is. Each case carries the data that exists only in it (the run's in ``Run``, whose loads,
    /// settings and stored consent are values of their own; the machine owns the timers).
    enum Phase: Sendable {
        /// Created; the web view is not set up yet.
        case created
        /// The web view is set up (or failed to be: `setupFailure`); waiting for ``Input/start(readyTimeoutWaitsForPresentation:trackingStatus:)``.
        case attached(setupFailure: ConsentBridgeError?)
        /// The run: tracking first, loading, or ready.
        case running(Run)
        /// The UI is finished (nothing is stored any more) and App Tracking Transparency is still to be requested.
        case finished(UIFinishReason, tracking: TrackingAfterUI)
        /// Everything is stopped.
        case invalidated
    }

    /// Where a run is.
    enum Stage: Sendable, Hashable {
        /// App Tracking Transparency comes before the CMP (``TrackingPolicy/Timing/beforeCMP``).
        case trackingFirst(TrackingPrompt)
        /// The page is loading; waiting for it to become ready.
        case loading
        /// The page is ready.
        case ready
    }

    /// The tracking prompt after the UI.
    enum TrackingAfterUI: Sendable, Hashable {
        /// The UI still shows (the prompt would be refused under it).
        case waitingForPresentationEnd
        /// The prompt (waiting for an active app, under way, or settling its answer).
        case request(TrackingPrompt)
    }

    /// What a run stored, as one value: it changes only when the store reports a commit stored.
    struct ConsentProgress: Sendable {
        /// The last payload stored in this run (page signals update it).
        private(set) var lastStored: ConsentPayload?
        /// Whether the user made a choice that was stored in this run.
        private(set) var userChose = false
        /// Whether App Tracking Transparency is to be requested after the UI (decided by the first stored decodable
        /// consent that asks for it; never taken back in the run).
        private(set) var trackingDue = false

        /// `payload` was stored; `byUser`: a user's action; `asksForTracking`: whether this consent asks for the
        /// prompt (evaluated only while it is not due yet).
        mutating func stored(_ payload: ConsentPayload, byUser: Bool, asksForTracking: () -> Bool) {
            lastStored = payload
            if byUser { userChose = true }
            if !trackingDue { trackingDue = asksForTracking() }
        }
    }

    /// The data of a running run.
    struct Run: Sendable {
        /// Where the run is.
        var stage: Stage
        /// The loads started (events of replaced ones are ignored).
        var loads = LoadTracker()
        /// Whether this is a pre-warmed page that no UI has shown yet (cleared by ``Input/presentationBegan``): its
        /// ready timeout waits for the presentation, and nothing it saves is the user's choice, since no user can have
        /// acted on a page nobody saw (a CMP that saves on load outside consent regions, a page that forges a choice).
        var awaitsFirstPresentation: Bool
        /// Whether ``ConsentBridgeEvent/uiReady(_:)`` was reported (once per run, whatever reloads follow).
        var announcedReady = false
        /// The configuration version the page reported (Gravito `load`).
        var configVersion: String?
        /// The page's latest GPP and US Privacy strings.
        var page = PageSignals()
        /// The page's GPP UI, shown and hidden.
        var gppProgress = GPPUIProgress()
        /// Whether the CMP's consent UI is on screen and the user has not acted in it (TCF `cmpuishown` until
        /// `useractioncomplete`; GPP `cmpDisplayStatus` `visible` until `hidden`): what it signals meanwhile is its
        /// default, not the user's answer.
        var cmpUIVisible = false
        /// The latest commit asked for (stored or not yet answered): what the CMP signals now.
        var lastAsked: AskedCommit?
        /// Opening the CMP's privacy settings (``ConsentUIMode/settings``; `nil` in the consent mode): started once the
        /// page is ready, anew for every page a terminated web content process reloads.
        var settings: SettingsOpening?
        /// What this run stored: the last payload, whether the user chose, whether tracking is due after the UI.
        var consent = ConsentProgress()
        /// The record in force as this run knows it: the stored one at the start, then each save the store wrote.
        /// A save starts from it (``ConsentCommit``'s `previous`), so the store is not read again before a write.
        var stored: ConsentRecord?
        /// The stored text `stored` was read from or written as: a save is written only over it
        /// (``Save/replacing``). Kept with `stored`, always changed with it, so that a save prepared on one record is
        /// never written over another.
        var storedVersion: ConsentStore.RecordVersion
        /// How many saves this run asked for: numbers them (``Save/id``); only the answer to the latest one is taken,
        /// so an older save's late answer cannot set the run's consent back.
        var savesAsked = 0
        /// The id of the last save whose answer was taken: a second answer to one save is ignored too.
        var lastSaveAnswered = 0
        /// The latest save asked for: what its answer reports (an answer to any other is ignored).
        var latestSave: PendingSave?
    }

    /// A payload the run asked to commit, and what it is.
    struct AskedCommit: Sendable {
        /// What is committed.
        var payload: ConsentPayload
        /// Whether `payload` is the run's consent with the page's latest GPP or US Privacy signal applied
        /// (``PageSignals``), rather than consent the page stated whole: prepared again after another write, it is
        /// the record in force with those signals (``PageSignals/rebasing(_:on:)``), since the signal is all the page
        /// said; the rest of the run's consent may have been replaced meanwhile (another bridge's user choice).
        var appliesSignals: Bool
    }

    /// What the answer to a save needs, kept while the store writes it: which save of which load it is, what the page
    /// sent, the commit's summary and diagnostics, and whether its success ends the UI.
    struct PendingSave: Sendable {
        /// The save's number (``Save/id``).
        var id: Int
        /// The load whose page sent it (`nil`: none was started yet); an answer for a replaced load is ignored.
        var load: WebViewLoadID?
        /// Whether its success ends the UI (after ``BridgeConfiguration/finishDelay``).
        var endsUI: Bool
        /// What the page sent, or the run's consent updated by a page signal.
        var asked: AskedCommit
        /// The stored record and its decoded TC string, reported once stored.
        var summary: ConsentSummary
        /// The commit's diagnostics, reported once stored.
        var diagnostics: [String]
        /// When the page asked (the record's and the history entry's date, kept when the save is prepared again).
        var now: Date
        /// How many times the save was prepared: again on the record in force when another write changed the stored
        /// record meanwhile (``ConsentStoreError/recordChanged(current:version:)``), at most ``maximumAttempts``.
        var attempt: Int

        /// At most this many preparations of one save: more would mean writes racing without end.
        static let maximumAttempts = 3
    }

    /// Whether a UI shows the web view (presentation and run are independent: a pre-warmed page loads unpresented).
    enum Presentation: Sendable, Hashable {
        /// No UI shows it.
        case hidden
        /// A UI shows it on screen.
        case shown
        /// A UI shows it but is covered (``Input/presentationCovered``): another screen pushed or presented over it.
        case covered
    }
}

extension BridgeMachine.Phase {
    /// Whether the machine has detached.
    var isInvalidated: Bool {
        if case .invalidated = self { return true }
        return false
    }

    /// Whether ``BridgeMachine/Input/start(readyTimeoutWaitsForPresentation:trackingStatus:stored:version:)`` would
    /// start a run: attached and not started yet (any other start is ignored).
    var awaitsStart: Bool {
        if case .attached = self { return true }
        return false
    }
}
