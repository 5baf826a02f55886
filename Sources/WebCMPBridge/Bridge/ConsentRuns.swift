import Foundation

/// The bridges of the process whose run is in progress (attached, not yet invalidated), by storage: what
/// ``ConsentGate`` needs to know that a consent UI or the kit's tracking prompt may be on screen.
///
/// A run ends when its bridge is invalidated, or when the bridge is released without that (an app that drops a bridge
/// mid-run): its ``Key`` tells the registry from its `deinit`, so that the entry goes and a waiting gate decides again
/// at once instead of at its timeout.
@MainActor
final class ConsentRuns {
    /// The process's runs.
    static let shared = ConsentRuns()

    /// A bridge's entry in the registry: one per bridge, released with it. Its id is never reused (an
    /// `ObjectIdentifier` could be, by the next bridge at the same address, before the release notice arrives).
    final class Key: Sendable {
        /// The entry's id.
        let id = UUID()

        deinit {
            let id = self.id
            Task { @MainActor in ConsentRuns.shared.released(id) }
        }
    }

    private struct Run {
        weak var bridge: ConsentBridge?
        let storage: KeyValueStorage.Identity
    }

    private var runs: [UUID: Run] = [:]
    private var listeners: [UUID: AsyncStream<Void>.Continuation] = [:]

    /// Whether entry `id` is in the registry (for tests).
    func contains(_ id: UUID) -> Bool { runs[id] != nil }

    /// `bridge` began a run (it was attached to a web view).
    func began(_ bridge: ConsentBridge) {
        runs[bridge.runKey.id] = Run(bridge: bridge, storage: bridge.store.storage.identity)
        notify()
    }

    /// `bridge`'s run ended (it was invalidated).
    func ended(_ bridge: ConsentBridge) {
        guard runs.removeValue(forKey: bridge.runKey.id) != nil else { return }
        notify()
    }

    /// The bridge of entry `id` was released (its ``Key`` went with it): a run it left in progress ends.
    func released(_ id: UUID) {
        guard runs.removeValue(forKey: id) != nil else { return }
        notify()
    }

    /// Whether a run over `storage` is in progress (a bridge released without being invalidated does not count).
    func isRunning(over storage: KeyValueStorage.Identity) -> Bool {
        runs.values.contains { $0.bridge != nil && $0.storage == storage }
    }

    /// A stream that gets a value whenever a run begins or ends.
    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        listeners[id] = continuation
        continuation.onTermination = { _ in Task { @MainActor in ConsentRuns.shared.listeners[id] = nil } }
        return stream
    }

    private func notify() {
        for listener in listeners.values { listener.yield() }
    }
}
