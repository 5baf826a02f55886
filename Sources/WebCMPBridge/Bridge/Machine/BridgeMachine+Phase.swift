import Foundation

extension BridgeMachine {
    /// Where the run is. Each case carries the data that exists only in it; there are no flags beside it.
    enum Phase: Sendable {
        /// Created; the web view is not set up yet.
        case created
        /// The web view is set up (or failed to be: `setupFailure`); waiting for ``Input/start(readyTimeoutWaitsForPresentation:trackingStatus:)``.
        case attached(setupFailure: WebViewSetupError?)
        /// The run: tracking first, loading, or ready.
        case running(Run)
        /// The UI is finished (nothing is stored any more) and App Tracking Transparency is still to be requested.
        case finished(UIFinishReason, tracking: TrackingAfterUI)
        /// Everything is stopped.
        case invalidated
    }

    /// Where a run is.
    enum Stage: Sendable, Hashable {
        /// App Tracking Transparency comes before the CMP (``TrackingPolicy/Timing/beforeCMP``); `asked`: the request
        /// is under way.
        case trackingFirst(asked: Bool)
        /// The page is loading; waiting for it to become ready.
        case loading
        /// The page is ready.
        case ready
    }

    /// The tracking request after the UI.
    enum TrackingAfterUI: Sendable, Hashable {
        /// The UI still shows (the prompt would be refused under it).
        case waitingForPresentationEnd
        /// Waiting until the app is active.
        case waitingForActiveApp
        /// The request is under way.
        case requesting
    }

    /// Privacy settings (``ConsentUIMode/settings``).
    enum SettingsProgress: Sendable, Hashable {
        /// Not requested (the consent mode).
        case notRequested
        /// To be opened when the page is ready; the opening may already have noted a UI the page showed itself.
        case pending(SettingsOpening)
        /// Opening on evidence (``SettingsOpening``), or opened, or failed.
        case opening(SettingsOpening)

        /// The settings timers that may be running (cancelled when the run ends or the page reloads).
        var runningTimers: [Timer] {
            guard case .opening(let opening) = self, opening.timersMayRun else { return [] }
            return [.settingsAttempt, .settingsRetry]
        }
    }

    /// The data of a running run.
    struct Run: Sendable {
        /// Where the run is.
        var stage: Stage
        /// The loads started (events of replaced ones are ignored).
        var loads = LoadTracker()
        /// Whether the ready timeout starts only when a UI presents the page (a pre-warmed page).
        let readyTimeoutWaitsForPresentation: Bool
        /// Whether the ready timer runs.
        var readyTimerRuns = false
        /// Whether the UI ends when the finish-delay timer fires.
        var finishScheduled = false
        /// Whether the web view shows (or loads) the app's fallback page.
        var showingFallback = false
        /// Whether the page being loaded has answered (a document from an allowed origin, a finished load, a message).
        var pageAnswered = false
        /// Whether ``ConsentBridgeEvent/uiReady(_:)`` was reported.
        var announcedReady = false
        /// The configuration version the page reported (Gravito `load`).
        var configVersion: String?
        /// The page's latest GPP and US Privacy strings.
        var page = PageSignals()
        /// The page's GPP UI, shown and hidden.
        var gppProgress = GPPUIProgress()
        /// The last payload stored in this run.
        var lastPayload: ConsentPayload?
        /// Privacy settings.
        var settings: SettingsProgress
        /// Whether the user made a choice that was stored in this run.
        var userChose = false
        /// Whether App Tracking Transparency is to be requested after the UI.
        var trackingPending = false
        /// The commit under way: its payload, and whether its success ends the UI.
        var pendingCommit: (payload: ConsentPayload, endsUI: Bool)?
    }
}
