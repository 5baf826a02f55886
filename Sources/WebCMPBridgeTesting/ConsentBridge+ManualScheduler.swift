import Foundation
import WebCMPBridge

// The bridge on a test's clock: time moves only when the test calls
// `ManualScheduler.advance(by:)`.
extension ConsentBridge {
    /// Creates a bridge whose time is `scheduler`'s: its timers (the ready timeout, the finish delay, App Tracking
    /// Transparency's settle time) fire only when the test advances the clock.
    public convenience init(
        configuration: BridgeConfiguration, store: ConsentStore, scheduler: ManualScheduler,
        trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) {
        self.init(
            configuration: configuration, store: store, scheduler: scheduler.scheduler,
            trackingAuthorizer: trackingAuthorizer)
    }
}
