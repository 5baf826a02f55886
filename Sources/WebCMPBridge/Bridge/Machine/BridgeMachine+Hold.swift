import Foundation

extension BridgeMachine {
    /// Whether the bridge's consent UI or the tracking prompt it requests may be on screen now: what ``ConsentGate``
    /// waits on (the runner sets the storage's consent-UI hold to it after every input, `ConsentUIHolds`). Derived from
    /// the state alone, never set by hand:
    /// - a UI shows the web view (``Presentation/shown`` or covered), in any phase, until it reports its end (a UI
    ///   still shows a page the run is done with while it is dismissed);
    /// - a run in progress that a UI was going to show at once: started without waiting for a presentation (not
    ///   pre-warmed). A pre-warmed page nobody shows holds nothing (it loads off-screen, for up to the pre-warmer's
    ///   idle timeout); it holds once a UI shows it, like any other;
    /// - App Tracking Transparency before the CMP, from the wait for an active app until its answer settled;
    /// - after the UI, while the tracking prompt is due (waiting for the UI's end, for an active app, under way,
    ///   settling).
    ///
    /// Nothing else: an attached bridge not started, a finished run with no prompt due, an invalidated bridge whose UI
    /// has gone.
    var holdsConsentUI: Bool {
        if isPresented { return true }
        switch phase {
        case .created, .attached, .invalidated:
            return false
        case .running(let run):
            if case .trackingFirst = run.stage { return true }
            return !run.awaitsFirstPresentation
        case .finished:
            return true   // a finished run lasts only while the tracking prompt is due (finish(_:_:))
        }
    }
}
