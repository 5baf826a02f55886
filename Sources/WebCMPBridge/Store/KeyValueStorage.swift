import Foundation

/// Where the consent store keeps its keys: a small storage client made of closures, so that apps and tests can
/// supply their own (``userDefaults(suiteName:)`` in apps, ``inMemory()`` in tests and previews).
///
/// Implementations must be safe to call from any thread.
public struct KeyValueStorage: Sendable {
    /// A stored value. `UserDefaults` holds these as `NSNumber`, `NSString` and `NSData`.
    public enum Value: Sendable, Hashable {
        /// An integer (IAB `Number` keys).
        case int(Int)
        /// A string.
        case string(String)
        /// Raw bytes (the bridge's own record).
        case data(Data)
    }

    /// Returns the values stored under `keys`; missing keys and values of other types are left out.
    public var load: @Sendable (_ keys: [String]) -> [String: Value]
    /// Returns every stored key that starts with one of `prefixes`.
    public var allKeys: @Sendable (_ prefixes: [String]) -> [String]
    /// Stores `set` and removes `remove`, in that order.
    public var write: @Sendable (_ set: [String: Value], _ remove: [String]) throws -> Void

    /// Creates a storage client from its operations.
    public init(
        load: @escaping @Sendable (_ keys: [String]) -> [String: Value],
        allKeys: @escaping @Sendable (_ prefixes: [String]) -> [String],
        write: @escaping @Sendable (_ set: [String: Value], _ remove: [String]) throws -> Void
    ) {
        self.load = load
        self.allKeys = allKeys
        self.write = write
    }
}

extension KeyValueStorage {
    /// A storage that lives in memory only, seeded with `initial`. Thread-safe.
    public static func inMemory(_ initial: [String: Value] = [:]) -> KeyValueStorage {
        let box = InMemoryBox(initial)
        return KeyValueStorage(
            load: { keys in box.withValues { values in values.filter { keys.contains($0.key) } } },
            allKeys: { prefixes in
                box.withValues { values in values.keys.filter { key in prefixes.contains { key.hasPrefix($0) } } }
            },
            write: { set, remove in
                box.withValues { values in
                    values.merge(set) { _, new in new }
                    for key in remove { values[key] = nil }
                }
            }
        )
    }
}

/// The lock-protected dictionary behind ``KeyValueStorage/inMemory(_:)``. `@unchecked Sendable`: every access to
/// `values` goes through `lock`.
private final class InMemoryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: KeyValueStorage.Value]

    init(_ values: [String: KeyValueStorage.Value]) { self.values = values }

    func withValues<T>(_ body: (inout [String: KeyValueStorage.Value]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&values)
    }
}
