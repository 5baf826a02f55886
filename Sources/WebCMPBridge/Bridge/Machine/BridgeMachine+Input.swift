import Foundation

extension BridgeMachine {
    /// What happens to the bridge: the runner (``ConsentBridge``) turns every callback, timer and answer into one.
    enum Input {
        /// The web view was set up: its handlers are registered (or registering failed with `setupFailure`), and
        /// `resourceFailures` name script resources that could not be read (reported as diagnostics).
        case attached(setupFailure: WebViewSetupError?, resourceFailures: [String] = [])
        /// The app starts the run. `readyTimeoutWaitsForPresentation`: a pre-warmed page, whose ready timeout starts
        /// only with ``presentationBegan``. `trackingStatus`: App Tracking Transparency's status now.
        case start(readyTimeoutWaitsForPresentation: Bool = false, trackingStatus: TrackingAuthorizationStatus)
        /// The web view reported an event (a message, or a load event tagged with its load).
        case webView(WebViewEvent)
        /// The web view asks what to do with a navigation; the answer is the first effect,
        /// ``Effect/decideNavigation(_:)``.
        case navigation(NavigationRequest)
        /// A timer the machine scheduled fired.
        case timerFired(Timer)
        /// A UI now shows the web view.
        case presentationBegan
        /// The UI is gone.
        case presentationEnded
        /// The app is active (the answer to ``Effect/waitUntilActive``).
        case appActive
        /// App Tracking Transparency answered (the answer to ``Effect/requestTracking``).
        case trackingAnswered(Result<TrackingAuthorizationStatus, TrackingAuthorizationError>)
        /// The store's answer to ``Effect/commit(_:)``, with App Tracking Transparency's status at that moment.
        case committed(CommitOutcome, trackingStatus: TrackingAuthorizationStatus)
        /// The app invalidates the bridge.
        case invalidate
    }

    /// The machine's timers; scheduling one replaces the running timer of the same kind.
    enum Timer: Sendable, Hashable, CaseIterable {
        /// The page must become ready before it fires (``BridgeConfiguration/readyTimeout``).
        case ready
        /// The UI ends when it fires, after a user's save (``BridgeConfiguration/finishDelay``).
        case finishDelay
        /// The privacy-settings opener under way must show the CMP's UI before it fires
        /// (``BridgeConfiguration/settingsAttemptTimeout``; ``SettingsOpening``).
        case settingsAttempt
        /// The privacy-settings opener is called again when it fires, until the CMP shows its UI
        /// (``SettingsOpening/retryInterval``; scheduled again after each call, so it repeats).
        case settingsRetry
    }

    /// What the store did with a ``CommitRequest``.
    enum CommitOutcome: Sendable, Hashable {
        /// ``ConsentCommit`` refused the consent: nothing was written.
        case refused(ConsentBridgeError)
        /// The store could not write it: nothing was written.
        case storageFailed(ConsentStoreError)
        /// It was stored.
        case stored(ConsentSummary, diagnostics: [String])
    }
}
