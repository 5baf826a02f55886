import Foundation

/// The storage the ``ConsentStore`` writes to: a small client made of `@Sendable` closures, so that the real
/// `UserDefaults` and an in-memory dictionary are interchangeable (``ConsentStore/userDefaults(suiteName:)``,
/// ``ConsentStore/inMemory()``; the package's own tools add a file-backed one). Apps use its ``identity``.
///
/// The store validates everything before it calls `write`, so a rejected consent never reaches storage, and it calls
/// `write` under the lock of the storage's ``identity``, so no ``ConsentStore`` reader of this storage sees half a
/// write. `write` itself must fail
/// only before changing anything (the storage is unavailable). It need not be atomic for readers outside the store:
/// `UserDefaults` has no transactions, so ad SDKs that read the keys while a write is under way can see some new keys
/// beside old ones for that moment; they are told to re-read on `UserDefaults.didChangeNotification` (CMP API v2.2,
/// "In-App Details"), which arrives after the write.
package struct KeyValueStorage: Sendable {
    /// A stored value: the property-list types the store uses.
    package enum Value: Sendable, Hashable {
        /// An integer (`NSNumber`).
        case int(Int)
        /// A floating-point number (`NSNumber`).
        case double(Double)
        /// A string.
        case string(String)
    }

    /// Returns the values stored under `keys` (missing keys and values of other types are left out).
    package var load: @Sendable (_ keys: [String]) -> [String: Value]
    /// Returns every stored key that starts with one of `prefixes`.
    package var keys: @Sendable (_ prefixes: [String]) -> [String]
    /// Sets every value of `set` and then removes every key of `remove`.
    package var write: @Sendable (_ set: [String: Value], _ remove: [String]) throws(ConsentStoreError) -> Void
    /// Which storage this is: stores over one identity share a lock and a stream of changes. Copies keep it, also
    /// when their closures are replaced.
    package let identity: Identity

    /// Creates a storage client from its operations, with a new ``identity`` (a storage of its own: create it once
    /// and share the value when several stores use the same data).
    package init(
        load: @escaping @Sendable (_ keys: [String]) -> [String: Value],
        keys: @escaping @Sendable (_ prefixes: [String]) -> [String],
        write: @escaping @Sendable (_ set: [String: Value], _ remove: [String]) throws(ConsentStoreError) -> Void
    ) {
        self.init(identity: Identity("custom storage"), load: load, keys: keys, write: write)
    }

    /// Creates a storage client of `identity` from its operations.
    init(
        identity: Identity,
        load: @escaping @Sendable (_ keys: [String]) -> [String: Value],
        keys: @escaping @Sendable (_ prefixes: [String]) -> [String],
        write: @escaping @Sendable (_ set: [String: Value], _ remove: [String]) throws(ConsentStoreError) -> Void
    ) {
        self.load = load
        self.keys = keys
        self.write = write
        self.identity = identity
    }
}
