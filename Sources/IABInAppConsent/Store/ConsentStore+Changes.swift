import Foundation

/// A change of stored consent, as ``ConsentStore/changes()`` and ``ConsentStore/didChangeNotification`` report it.
public struct ConsentChange: Sendable, Hashable {
    /// The record now stored; `nil` when consent was cleared.
    public var record: ConsentRecord?
    /// The change as the consent history keeps it (``ConsentStore/consentHistory()``): hand it to the publisher's
    /// own records from ``ConsentStore/changes()``. `nil` only in changes an app creates itself.
    public var historyEntry: ConsentHistoryEntry?

    /// Creates a change.
    public init(record: ConsentRecord?, historyEntry: ConsentHistoryEntry? = nil) {
        self.record = record
        self.historyEntry = historyEntry
    }
}

extension ConsentStore {
    /// Posted on `NotificationCenter.default` after every successful write and every ``clearAll()`` of any store in
    /// the process (a bridge's save, a programmatic reject-all, a migration, a reset), on the thread that wrote. The
    /// notification's `object` is the store's ``changeNotificationObject`` (observe with
    /// `object: store.changeNotificationObject` to hear about one storage only); `userInfo[ConsentStore.changeUserInfoKey]`
    /// is the ``ConsentChange``.
    public static let didChangeNotification = Notification.Name("WebCMPBridge.ConsentStore.didChange")

    /// The `object` of this store's ``didChangeNotification``s: one object per storage — the same for every store of
    /// one `UserDefaults` suite in the process (``userDefaults(suiteName:)``), its own for every in-memory storage
    /// (``inMemory()``). Compare it by reference (`===`); its `description` names the storage for logs.
    public var changeNotificationObject: any AnyObject & Sendable & CustomStringConvertible { storage.identity }

    /// The `userInfo` key of ``didChangeNotification`` whose value is the ``ConsentChange``.
    public static let changeUserInfoKey = "change"

    /// Every change of this store's storage from now on, for as long as the stream is iterated: the listener that
    /// outlives a bridge (initialise ad SDKs from it). It reports the writes of every store over the same storage
    /// (`KeyValueStorage.Identity`: for `UserDefaults`, every store of the same suite in the process), and none of
    /// other storages, in the order they were written (the last change is what is stored). Changes are reported after
    /// they are written; a failed write reports nothing. The stream keeps the newest 64 changes not yet taken, and
    /// ends when the storage can no longer be written (the last value of an in-memory storage is released).
    ///
    /// ```swift
    /// Task {
    ///     for await change in ConsentStore.userDefaults().changes() {
    ///         print("consent changed:", change.record?.tcString ?? "cleared")
    ///     }
    /// }
    /// ```
    public func changes() -> AsyncStream<ConsentChange> {
        storage.identity.listeners.stream()
    }

    /// Runs `write` under the storage's lock and reports `change` when it succeeds: to this storage's ``changes()``
    /// streams before the lock is released, so that they see the changes of a storage in the order they were written
    /// (the last one is what is stored), and to ``didChangeNotification`` observers after it is released (an observer
    /// may read the store; concurrent writers' notifications may arrive in either order).
    /// `write` returns whether it wrote: when it did not (a report that changes nothing), nothing is reported.
    @discardableResult
    func transaction<Failure: Error>(
        reporting change: ConsentChange, _ write: () throws(Failure) -> Bool
    ) throws(Failure) -> Bool {
        let wrote = try storage.identity.withLock { () throws(Failure) -> Bool in
            guard try write() else { return false }
            storage.identity.listeners.yield(change)
            return true
        }
        guard wrote else { return false }
        NotificationCenter.default.post(
            name: ConsentStore.didChangeNotification, object: storage.identity,
            userInfo: [ConsentStore.changeUserInfoKey: change])
        return true
    }
}
