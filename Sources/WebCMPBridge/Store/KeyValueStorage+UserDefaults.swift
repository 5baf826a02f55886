import Foundation

extension KeyValueStorage {
    /// Storage in `UserDefaults`: `UserDefaults.standard` when `suiteName` is `nil` (where IAB vendors read the keys,
    /// per TCF CMP API v2.2 "In-App Details"), otherwise the named suite.
    ///
    /// `UserDefaults` is not `Sendable` (swift-corelibs-foundation marks it unavailable), so the closures capture only
    /// the suite name and open the defaults on each call. Instances of one suite share Foundation's per-domain cache,
    /// so this costs a few microseconds and every instance sees the others' writes at once.
    /// When the suite cannot be opened (`UserDefaults(suiteName:)` returns `nil`, e.g. for `NSGlobalDomain`), reads
    /// return nothing and writes throw ``ConsentStoreError/storageUnavailable(suiteName:)``.
    public static func userDefaults(suiteName: String? = nil) -> KeyValueStorage {
        @Sendable func open() -> UserDefaults? {
            guard let suiteName else { return UserDefaults.standard }
            return UserDefaults(suiteName: suiteName)
        }
        return KeyValueStorage(
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
        case .data(let value): return value
        }
    }

    /// Reads a property-list object; `nil` for types the store does not use.
    ///
    /// swift-corelibs-foundation returns `Int`/`Double`; Apple's Foundation returns `NSNumber`, which bridges to `Int`
    /// when it holds an integral value and to `Double` otherwise.
    init?(propertyList object: Any) {
        switch object {
        case let value as String: self = .string(value)
        case let value as Data: self = .data(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        default: return nil
        }
    }
}
