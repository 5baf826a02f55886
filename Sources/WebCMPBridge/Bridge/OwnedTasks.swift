/// The tasks a ``ConsentBridge`` started (the tracking prompt before the CMP, the one after the UI). The bridge owns
/// them: ``cancelAll()`` (from ``ConsentBridge/invalidate()``) cancels every one still running, and each task checks
/// for cancellation after every suspension, so nothing the bridge started acts after it was invalidated.
@MainActor
package struct OwnedTasks {
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextID = 0

    package init() {}

    /// How many tasks were started and not yet cleared by ``cancelAll()``.
    package var count: Int { running.count }

    /// Starts `operation` on the main actor and keeps it until it ends or is cancelled.
    package mutating func start(_ operation: @escaping @MainActor @Sendable () async -> Void) {
        nextID += 1
        // A bridge starts at most two per run (tracking before the CMP, tracking after the UI), so finished tasks are
        // simply kept until cancelAll() clears them; cancelling a finished task does nothing.
        running[nextID] = Task { @MainActor in await operation() }
    }

    /// Cancels every task.
    package mutating func cancelAll() {
        for task in running.values { task.cancel() }
        running.removeAll()
    }
}
