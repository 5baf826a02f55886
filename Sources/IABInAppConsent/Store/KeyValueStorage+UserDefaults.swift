import Foundation

extension KeyValueStorage {
    /// Storage in `UserDefaults`: `UserDefaults.standard` when `suiteName` is `nil` (where IAB vendors read the keys,
    /// per TCF CMP API v2.2 "In-App Details"), otherwise the named suite.
    ///
    /// The defaults are opened once, when the storage is created, and shared by its closures: re-opening a suite on
    /// every call costs several µs on Linux, a large part of the launch-time read budget.
    /// When the suite cannot be opened (`UserDefaults(suiteName:)` returns `nil`, e.g. for `NSGlobalDomain`), reads
    /// return nothing and writes throw ``ConsentStoreError/storageUnavailable(suiteName:)``.
    ///
    /// Every storage of one suite name has the same ``identity`` in the process, so that stores created separately
    /// over one suite share their lock and their ``ConsentStore/changes()`` (names are compared as given).
    static func userDefaults(suiteName: String? = nil) -> KeyValueStorage {
        let shared: SharedUserDefaults
        if let suiteName {
            shared = SharedUserDefaults(UserDefaults(suiteName: suiteName))
        } else {
            shared = SharedUserDefaults(UserDefaults.standard)
        }
        @Sendable func open() -> UserDefaults? { shared.defaults }
        return KeyValueStorage(
            identity: .userDefaults(suiteName: suiteName),
            load: { keys in
                guard let defaults = open() else { return [:] }
                var result: [String: Value] = [:]
                for key in keys {
                    if let value = defaults.object(forKey: key).flatMap(Value.init(propertyList:)) {
                        result[key] = value
                    }
                }
                return result
            },
            keys: { prefixes in
                guard let defaults = open() else { return [] }
                return defaults.dictionaryRepresentation().keys.filter { key in
                    prefixes.contains { key.hasPrefix($0) }
                }
            },
            write: { (set, remove) throws(ConsentStoreError) in
                guard let defaults = open() else { throw .storageUnavailable(suiteName: suiteName) }
                for (key, value) in set {
                    defaults.set(value.propertyList, forKey: key)
                }
                for key in remove {
                    defaults.removeObject(forKey: key)
                }
            }
        )
    }
}

extension KeyValueStorage.Value {
    /// The value as a property-list object for `UserDefaults`.
    var propertyList: Any {
        switch self {
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        }
    }

    /// Reads a property-list object; `nil` for types the store does not use.
    ///
    /// swift-corelibs-foundation returns `Int`/`Double`; Apple's Foundation returns `NSNumber`, which bridges to `Int`
    /// when it holds an integral value and to `Double` otherwise.
    init?(propertyList object: Any) {
        switch object {
        case let value as String: self = .string(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        default: return nil
        }
    }
}

/// Holds the `UserDefaults` instance the storage closures share.
///
/// `@unchecked Sendable` is sound: the box itself is immutable, and `UserDefaults` is documented thread-safe by Apple
/// ("The UserDefaults class is thread-safe"); swift-corelibs-foundation keeps its state in CFPreferences, which
/// serialises access with locks. The type is only not annotated `Sendable` in the SDKs.
private final class SharedUserDefaults: @unchecked Sendable {
    let defaults: UserDefaults?

    init(_ defaults: UserDefaults?) { self.defaults = defaults }
}
