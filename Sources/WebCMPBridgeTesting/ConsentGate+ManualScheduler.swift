import Foundation
import WebCMPBridge

// The consent gate on a test's clock: its timeout passes only when the test calls `ManualScheduler.advance(by:)`.
extension ConsentGate {
    /// `wait(timeout:)` on `scheduler`'s time: the timeout passes only when the test advances the clock.
    @MainActor
    public func wait(timeout: TimeInterval, scheduler: ManualScheduler) async -> ConsentGateOutcome {
        await wait(timeout: timeout, scheduler: scheduler.scheduler)
    }
}
