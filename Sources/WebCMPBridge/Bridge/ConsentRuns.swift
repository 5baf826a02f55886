import Foundation

/// The bridges of the process whose run is in progress (attached, not yet invalidated), by storage: what
/// ``ConsentGate`` needs to know that a consent UI or the kit's tracking prompt may be on screen.
@MainActor
final class ConsentRuns {
    /// The process's runs.
    static let shared = ConsentRuns()

    private struct Run {
        weak var bridge: ConsentBridge?
        let storage: KeyValueStorage.Identity
    }

    private var runs: [ObjectIdentifier: Run] = [:]
    private var listeners: [UUID: AsyncStream<Void>.Continuation] = [:]

    /// `bridge` began a run (it was attached to a web view).
    func began(_ bridge: ConsentBridge) {
        runs[ObjectIdentifier(bridge)] = Run(bridge: bridge, storage: bridge.store.storage.identity)
        notify()
    }

    /// `bridge`'s run ended (it was invalidated).
    func ended(_ bridge: ConsentBridge) {
        guard runs.removeValue(forKey: ObjectIdentifier(bridge)) != nil else { return }
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
