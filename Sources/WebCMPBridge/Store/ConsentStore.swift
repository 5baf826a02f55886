/// Reads and writes consent: the IAB in-app keys and the bridge's own ``ConsentRecord``.
///
/// (Skeleton: helper B owns the store. Public shape agreed with the bridge work:
/// `apply(_:record:)`, `iabKeys()`, `record()`, `clearAll()`, plus `.userDefaults(...)` and `.inMemory()` factories.)
public struct ConsentStore: Sendable {
    /// Writes `keys` and `record` in one call, removing stale keys of the families this package owns.
    public func apply(_ keys: IABKeySet, record: ConsentRecord?) throws {
        fatalError("ConsentStore is not implemented yet")
    }
}

extension ConsentStore {
    /// The stored record. (Skeleton.)
    public func record() -> ConsentRecord? { fatalError("ConsentStore is not implemented yet") }
    /// The stored IAB keys. (Skeleton.)
    public func iabKeys() -> IABKeySet { fatalError("ConsentStore is not implemented yet") }
    /// Removes everything the store wrote. (Skeleton.)
    public func clearAll() { fatalError("ConsentStore is not implemented yet") }
    /// An in-memory store. (Skeleton.)
    public static func inMemory() -> ConsentStore { ConsentStore() }
}
