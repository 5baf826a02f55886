import Foundation

extension KeyValueStorage {
    /// A storage backed by `UserDefaults`: `.standard` when `suiteName` is `nil` (where the IAB in-app specs expect
    /// the keys), else the named suite (e.g. an app group).
    ///
    /// Integers are stored as integers (`set(_: Int, forKey:)`), strings as strings, data as data. When the suite
    /// name is one `UserDefaults` refuses (the app's own bundle id, `NSGlobalDomain`), reads are empty and writes
    /// throw ``ConsentStoreError/storageUnavailable(suiteName:)``.
    public static func userDefaults(suiteName: String? = nil) -> KeyValueStorage {
        let defaults = suiteName.map { UserDefaults(suiteName: $0) } ?? UserDefaults.standard
        guard let defaults else {
            return KeyValueStorage(
                load: { _ in [:] },
                allKeys: { _ in [] },
                write: { _, _ in throw ConsentStoreError.storageUnavailable(suiteName: suiteName) }
            )
        }
        let box = UserDefaultsBox(defaults)
        return KeyValueStorage(
            load: { keys in
                var result: [String: Value] = [:]
                for key in keys {
                    if let value = box.defaults.object(forKey: key).flatMap(Value.init(storedObject:)) {
                        result[key] = value
                    }
                }
                return result
            },
            allKeys: { prefixes in
                box.defaults.dictionaryRepresentation().keys.filter { key in prefixes.contains { key.hasPrefix($0) } }
            },
            write: { set, remove in
                for (key, value) in set {
                    switch value {
                    case .int(let number): box.defaults.set(number, forKey: key)
                    case .string(let text): box.defaults.set(text, forKey: key)
                    case .data(let data): box.defaults.set(data, forKey: key)
                    }
                }
                for key in remove { box.defaults.removeObject(forKey: key) }
                #if !canImport(Darwin)
                // swift-corelibs-foundation persists lazily; Apple platforms persist on their own.
                box.defaults.synchronize()
                #endif
            }
        )
    }
}

extension KeyValueStorage.Value {
    /// Converts what `UserDefaults.object(forKey:)` returned; `nil` for types the store never writes.
    init?(storedObject object: Any) {
        if let text = object as? String {
            self = .string(text)
        } else if let data = object as? Data {
            self = .data(data)
        } else if let number = object as? Int {
            self = .int(number)
        } else {
            return nil
        }
    }
}

/// Holds a `UserDefaults` so the storage closures can be `@Sendable`. `@unchecked Sendable` is sound because Apple
/// documents `UserDefaults` as thread-safe ("The UserDefaults class is thread-safe"), and swift-corelibs-foundation
/// guards its state with locks; the box adds no mutable state of its own. Re-opening the suite on every call instead
/// would re-read the property list and miss the launch-time read budget.
private final class UserDefaultsBox: @unchecked Sendable {
    let defaults: UserDefaults

    init(_ defaults: UserDefaults) { self.defaults = defaults }
}
