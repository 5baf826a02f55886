import Foundation

/// Time for the bridge: the current date and delayed work on the main actor. Injected so that tests control time:
/// apps use ``live`` (the default), tests `ManualScheduler.scheduler` (product `WebCMPBridgeTesting`).
public struct BridgeScheduler: Sendable {
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

    /// `Date()` for the current date and `Task.sleep(nanoseconds:)` for delays. A delay is not wall-clock time: it is
    /// a `Task.sleep`, never compared with `Date()`. Pausing the bridge's timers while the app is in the background is
    /// being added (issue 28).
    public static let live = BridgeScheduler(
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

/// Work scheduled by a ``BridgeScheduler``.
package struct ScheduledWork: Sendable {
    /// Cancels the work if it has not run yet.
    package var cancel: @MainActor @Sendable () -> Void

    /// Creates a handle.
    package init(cancel: @escaping @MainActor @Sendable () -> Void) {
        self.cancel = cancel
    }
}
