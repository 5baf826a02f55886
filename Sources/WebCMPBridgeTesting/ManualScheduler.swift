import Foundation
import WebCMPBridge

/// A ``BridgeScheduler`` whose time moves only when the test says so: the bridge's timeouts (ready, finish delay)
/// and the prewarmer's idle time run in ``advance(by:)``, in order.
///
/// ```swift
/// let clock = ManualScheduler()
/// let bridge = ConsentBridge(configuration: configuration, store: .inMemory(), scheduler: clock)
/// clock.advance(by: 30)   // the ready timeout fires
/// ```
@MainActor
public final class ManualScheduler {
    /// The current date; moves with ``advance(by:)``.
    public var now = Date(timeIntervalSince1970: 1_750_000_000)
    private var pending: [(id: Int, due: TimeInterval, action: @MainActor @Sendable () -> Void)] = []
    private var elapsed: TimeInterval = 0
    private var nextID = 0

    /// Creates a clock at a fixed date.
    public init() {}

    /// How many scheduled actions have not run or been cancelled yet.
    public var pendingCount: Int { pending.count }

    /// The scheduler to give the bridge or the prewarmer.
    package var scheduler: BridgeScheduler {
        BridgeScheduler(
            now: { [self] in MainActor.assumeIsolated { self.now } },
            schedule: { [self] delay, action in
                let id = self.nextID
                self.nextID += 1
                self.pending.append((id, self.elapsed + delay, action))
                return ScheduledWork { [weak self] in self?.pending.removeAll { $0.id == id } }
            }
        )
    }

    /// Moves time forward by `seconds` and runs the work that became due, in order.
    public func advance(by seconds: TimeInterval) {
        elapsed += seconds
        now += seconds
        let due = pending.filter { $0.due <= elapsed }.sorted { $0.due < $1.due }
        pending.removeAll { $0.due <= elapsed }
        for work in due { work.action() }
    }
}
