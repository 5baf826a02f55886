import Foundation

/// The continuations of one storage's ``ConsentStore/changes()`` streams (`KeyValueStorage.Identity.listeners`).
/// `@unchecked Sendable`: every access holds `lock`.
final class ConsentChangeListeners: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<ConsentChange>.Continuation] = [:]

    /// A new stream of the changes ``yield(_:)`` reports from now on; it keeps the newest 64 changes its reader has
    /// not taken yet, and stops being told when it terminates (its task is cancelled or the stream is released).
    func stream() -> AsyncStream<ConsentChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConsentChange.self, bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        lock.lock()
        continuations[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    /// Tells every stream about `change` (the store calls it under its storage's lock, so that the streams get the
    /// changes in the order they were written); the continuations are called after this object's lock is released.
    func yield(_ change: ConsentChange) {
        lock.lock()
        let current = Array(continuations.values)
        lock.unlock()
        for continuation in current { continuation.yield(change) }
    }

    /// Ends every stream: nothing can write to the storage any more (its last `KeyValueStorage` value is gone).
    deinit {
        for continuation in continuations.values { continuation.finish() }
    }

    /// Forgets the stream `id`.
    private func remove(_ id: UUID) {
        lock.lock()
        continuations[id] = nil
        lock.unlock()
    }
}
