import Foundation

/// Time for the bridge: the current date and delayed work on the main actor. Injected so that tests control time.
public struct BridgeScheduler: Sendable {
    /// The current date.
    public var now: @Sendable () -> Date
    /// Runs `action` on the main actor after `delay`; the returned cancellation stops it.
    public var schedule: @MainActor @Sendable (_ delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void)
        -> ScheduledWork

    /// Creates a scheduler.
    public init(
        now: @escaping @Sendable () -> Date,
        schedule: @escaping @MainActor @Sendable (Duration, @escaping @MainActor @Sendable () -> Void) -> ScheduledWork
    ) {
        self.now = now
        self.schedule = schedule
    }

    /// Wall-clock time and `Task.sleep`.
    public static let live = BridgeScheduler(
        now: { Date() },
        schedule: { delay, action in
            let task = Task { @MainActor in
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                action()
            }
            return ScheduledWork { task.cancel() }
        }
    )
}

/// Work scheduled by a ``BridgeScheduler``.
public struct ScheduledWork: Sendable {
    /// Cancels the work if it has not run yet.
    public var cancel: @MainActor @Sendable () -> Void

    /// Creates a handle.
    public init(cancel: @escaping @MainActor @Sendable () -> Void) {
        self.cancel = cancel
    }
}
