import Foundation

/// A change of stored consent, as ``ConsentStore/changes()`` and ``ConsentStore/didChangeNotification`` report it.
public struct ConsentChange: Sendable, Hashable {
    /// The record now stored; `nil` when consent was cleared.
    public var record: ConsentRecord?

    /// Creates a change.
    public init(record: ConsentRecord?) {
        self.record = record
    }
}

extension ConsentStore {
    /// Posted on `NotificationCenter.default` after every successful ``apply(_:record:)`` and every ``clearAll()`` of
    /// any store in the process (a bridge's save, a programmatic reject-all, a migration, a reset), on the thread that
    /// wrote. `userInfo[ConsentStore.changeUserInfoKey]` is the ``ConsentChange``.
    public static let didChangeNotification = Notification.Name("WebCMPBridge.ConsentStore.didChange")

    /// The `userInfo` key of ``didChangeNotification`` whose value is the ``ConsentChange``.
    public static let changeUserInfoKey = "change"

    /// Every change of stored consent from now on, in any store of the process, for as long as the stream is
    /// iterated: the listener that outlives a bridge (initialise ad SDKs from it). Changes are reported after they
    /// are written; a failed write reports nothing.
    ///
    /// ```swift
    /// Task {
    ///     for await change in ConsentStore.changes() {
    ///         print("consent changed:", change.record?.tcString ?? "cleared")
    ///     }
    /// }
    /// ```
    public static func changes() -> AsyncStream<ConsentChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConsentChange.self, bufferingPolicy: .bufferingNewest(64))
        let id = ChangeListeners.shared.add(continuation)
        continuation.onTermination = { _ in ChangeListeners.shared.remove(id) }
        return stream
    }

    /// Tells the listeners; called after the store's lock is released (an observer may read the store).
    static func didChange(_ change: ConsentChange) {
        ChangeListeners.shared.yield(change)
        NotificationCenter.default.post(
            name: didChangeNotification, object: nil, userInfo: [changeUserInfoKey: change])
    }
}

/// The continuations of ``ConsentStore/changes()`` streams, guarded by a lock.
private final class ChangeListeners: @unchecked Sendable {
    static let shared = ChangeListeners()
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<ConsentChange>.Continuation] = [:]

    func add(_ continuation: AsyncStream<ConsentChange>.Continuation) -> UUID {
        let id = UUID()
        lock.lock()
        continuations[id] = continuation
        lock.unlock()
        return id
    }

    func remove(_ id: UUID) {
        lock.lock()
        continuations[id] = nil
        lock.unlock()
    }

    func yield(_ change: ConsentChange) {
        lock.lock()
        let current = Array(continuations.values)
        lock.unlock()
        for continuation in current { continuation.yield(change) }
    }
}
