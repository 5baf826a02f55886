import Foundation

/// Time for the bridge: the current date and delayed work on the main actor. Injected so that tests control time:
/// apps use ``live`` (the default), tests `ManualScheduler.scheduler` (product `WebCMPBridgeTesting`).
package struct BridgeScheduler: Sendable {
    /// The current date.
    package var now: @Sendable () -> Date
    /// Runs `action` on the main actor after `delay` seconds; the returned cancellation stops it.
    ///
    /// Seconds as `TimeInterval`, not `Duration`: `Duration` needs iOS 16 / macOS 13 and the package supports iOS 15 /
    /// macOS 12.
    package var schedule: @MainActor @Sendable (
        _ delay: TimeInterval, _ action: @escaping @MainActor @Sendable () -> Void
    ) -> ScheduledWork

    /// Creates a scheduler.
    package init(
        now: @escaping @Sendable () -> Date,
        schedule: @escaping @MainActor @Sendable (TimeInterval, @escaping @MainActor @Sendable () -> Void) -> ScheduledWork
    ) {
        self.now = now
        self.schedule = schedule
    }

    /// The calendar date (`Date()`) for `now`, and `Task.sleep(nanoseconds:)` for delays. The delays are not
    /// wall-clock time: Swift's runtime hands them to Dispatch as a deadline on a monotonic clock
    /// (`swift_dispatchEnqueueWithDeadline` in the runtime's `DispatchGlobalExecutor.cpp`), so a change of the device's
    /// clock does not move them, and they keep counting while iOS has the app suspended. The bridge does not take
    /// that time for the page's: its timers pause while the app is in the background (`AppLifecycleEvent`).
    package static let live = BridgeScheduler(
        now: { Date() },
        schedule: { delay, action in
            let task = Task { @MainActor in
                try? await Task.sleep(nanoseconds: BridgeScheduler.nanoseconds(delay))
                guard !Task.isCancelled else { return }
                action()
            }
            return ScheduledWork { task.cancel() }
        }
    )

    /// `seconds` as whole nanoseconds for `Task.sleep(nanoseconds:)`: negative and NaN become 0, values beyond
    /// `UInt64` are capped (about 584 years).
    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let value = seconds * 1e9
        return value >= Double(UInt64.max) ? UInt64.max : UInt64(value)
    }
}

/// Work scheduled by a `BridgeScheduler`.
package struct ScheduledWork: Sendable {
    /// Cancels the work if it has not run yet.
    package var cancel: @MainActor @Sendable () -> Void

    /// Creates a handle.
    package init(cancel: @escaping @MainActor @Sendable () -> Void) {
        self.cancel = cancel
    }
}
