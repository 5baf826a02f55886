import Foundation

/// When the machine's timers pause: the page's while it is suspended or throttled (the app in the background, the UI
/// covered), App Tracking Transparency's settle window while the app is inactive. Arming and stopping a timer stay
/// with the timers themselves (`BridgeMachine.swift`, the only place that changes them).
extension BridgeMachine {
    /// Whether `timer` is paused now. The page's timers pause while the page is suspended (the app in the background)
    /// or throttled (the UI covered, so the web view is outside a window). App Tracking Transparency's settle window
    /// counts the app's **active** time: it pauses while the app is inactive, which it is while the tracking alert is
    /// up (``TrackingPrompt``).
    func isPaused(_ timer: Timer) -> Bool {
        switch timer {
        case .trackingSettle: return !isActive
        case .ready, .finishDelay, .settingsAttempt, .settingsRetry: return inBackground || isCovered
        }
    }

    /// Applies `change` to the pausing conditions and pauses or resumes every armed timer whose ``isPaused(_:)``
    /// that changes (in ``Timer``'s order).
    mutating func changePauses(_ out: inout Effects, _ change: (inout BridgeMachine) -> Void) {
        let before = Timer.allCases.map { isPaused($0) }
        change(&self)
        guard !phase.isInvalidated else { return }
        for (timer, wasPaused) in zip(Timer.allCases, before) where timers.contains(timer) && wasPaused != isPaused(timer) {
            out.append(wasPaused ? .resume(timer) : .pause(timer))
        }
    }
}
