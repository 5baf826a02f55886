import Foundation

/// The storage the ``ConsentStore`` writes to: a small client made of `@Sendable` closures, so that the real
/// `UserDefaults` and an in-memory dictionary (or any test double) are interchangeable.
///
/// Implementations must keep `write` all-or-nothing from the caller's point of view: the store validates everything
/// before it calls `write`, so `write` itself only fails when the storage is unavailable.
public struct KeyValueStorage: Sendable {
    /// A stored value: the property-list types the store uses.
    public enum Value: Sendable, Hashable {
        /// An integer (`NSNumber`).
        case int(Int)
        /// A floating-point number (`NSNumber`).
        case double(Double)
        /// A string.
        case string(String)
    }

    /// Returns the values stored under `keys` (missing keys and values of other types are left out).
    public var load: @Sendable (_ keys: [String]) -> [String: Value]
    /// Returns every stored key that starts with one of `prefixes`.
    public var keys: @Sendable (_ prefixes: [String]) -> [String]
    /// Sets every value of `set` and then removes every key of `remove`.
    public var write: @Sendable (_ set: [String: Value], _ remove: [String]) throws(ConsentStoreError) -> Void

    /// Creates a storage client from its operations.
    public init(
        load: @escaping @Sendable (_ keys: [String]) -> [String: Value],
        keys: @escaping @Sendable (_ prefixes: [String]) -> [String],
        write: @escaping @Sendable (_ set: [String: Value], _ remove: [String]) throws(ConsentStoreError) -> Void
    ) {
        self.load = load
        self.keys = keys
        self.write = write
    }
}
