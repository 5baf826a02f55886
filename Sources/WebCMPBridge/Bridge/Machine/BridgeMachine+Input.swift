import Foundation

extension BridgeMachine {
    /// What happens to the bridge: the runner (``ConsentBridge``) turns every callback, timer and answer into one.
    enum Input {
        /// The web view was set up: its handlers are registered (or registering failed with `setupFailure`), and
        /// `resourceFailures` name script resources that could not be read (reported as diagnostics).
        case attached(setupFailure: ConsentBridgeError?, resourceFailures: [String] = [])
        /// The app starts the run. `readyTimeoutWaitsForPresentation`: a pre-warmed page, whose ready timeout starts
        /// only with ``presentationBegan`` (until then it is unseen: ``Run/awaitsFirstPresentation``). `trackingStatus`: App Tracking Transparency's status now. `stored`: the
        /// record in force (the run's saves start from it, and from what they stored since), read as the stored text
        /// `version` (the first save is written only over it).
        case start(
            readyTimeoutWaitsForPresentation: Bool = false, trackingStatus: TrackingAuthorizationStatus,
            stored: ConsentRecord? = nil, version: ConsentStore.RecordVersion = ConsentStore.RecordVersion())
        /// The web view reported an event (a message, or a load event tagged with its load) at `now` (a message's
        /// save is dated by it).
        case webView(WebViewEvent, now: Date)
        /// A navigation ``BridgeMachine/decide(_:)`` found to be the load `redirect.load` itself going away from the
        /// allowed origins before the page answered (the runner feeds it right after the decision): the load fails.
        /// Ignored when that load was replaced or has answered since.
        case loadRedirected(LoadRedirect)
        /// A timer the machine scheduled fired.
        case timerFired(Timer)
        /// A UI now shows the web view.
        case presentationBegan
        /// The UI is gone.
        case presentationEnded
        /// The UI is still there but covered (another screen pushed or presented over it, a tab switch): WebKit
        /// throttles a web view outside a window, so the run's timers pause; the run goes on.
        case presentationCovered
        /// The covered UI shows again.
        case presentationUncovered
        /// The app is active (the answer to ``Effect/waitUntilActive``).
        case appActive
        /// App Tracking Transparency answered (the answer to ``Effect/requestTracking``), with the status read right
        /// after the answer (`nil`: not read; the answer stands).
        case trackingAnswered(
            Result<TrackingAuthorizationStatus, ConsentBridgeError>, statusNow: TrackingAuthorizationStatus? = nil)
        /// App Tracking Transparency's status, read again (the answer to ``Effect/readTrackingStatus``).
        case trackingStatusRead(TrackingAuthorizationStatus)
        /// The store's answer to ``Effect/store(_:)``: the save's ``Save/id``, the store's error (`nil`: written, or
        /// already stored), the stored text the write left (`written`: the next save is written only over it; a
        /// refused write's is in ``ConsentStoreError/recordChanged(current:version:)``), and App Tracking
        /// Transparency's status at that moment. Taken only for the live run's latest save of the current load; any
        /// other (a stray or late answer) is ignored with a diagnostic.
        case storeAnswered(
            Int, ConsentStoreError?, written: ConsentStore.RecordVersion = ConsentStore.RecordVersion(),
            trackingStatus: TrackingAuthorizationStatus)
        /// The app invalidates the bridge.
        case invalidate
    }

    /// The machine's timers; scheduling one replaces the running timer of the same kind. The machine keeps the set of
    /// armed timers itself (``BridgeMachine/timers``); while the app is in the background or the UI is covered they
    /// pause (``Effect/pause(_:)``) and go on with the time they had left (``Effect/resume(_:)``); the settle window
    /// pauses while the app is inactive (``BridgeMachine/isPaused(_:)``).
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
        /// App Tracking Transparency's settle window (``TrackingPrompt/settleWindow``): it counts only while the app is
        /// active, so it pauses from `willResignActive` (the alert is up) to `didBecomeActive`, unlike the others.
        case trackingSettle
    }
}
