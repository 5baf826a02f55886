import Foundation

/// Reads and writes consent: the IAB in-app keys and the bridge's own ``ConsentRecord``.
///
/// ``apply(_:record:)`` replaces the whole consent state at once: it checks everything first and writes nothing when
/// anything is invalid; then it writes the new keys, removes every stale key of the families it owns (`IABTCF_*`,
/// `IABGPP_*`, `IABUSPrivacy_String`; e.g. an `IABTCF_PublisherRestrictions7` an older string produced) and stores
/// the record. Keys of other families are never touched.
///
/// Spec: TCF CMP API v2.2 "In-App Details" and GPP CMP API "In-App Details" (storage in `NSUserDefaults`; vendors
/// must not keep using stale values).
public struct ConsentStore: Sendable {
    /// The key the ``ConsentRecord`` is stored under, as JSON data.
    public static let recordKey = "WebCMPBridge.record"

    /// The storage client.
    public let storage: KeyValueStorage

    /// Creates a store over any storage client.
    public init(storage: KeyValueStorage) {
        self.storage = storage
    }

    /// A store in `UserDefaults`: `.standard` (where the IAB specs expect the keys) or the named suite.
    public static func userDefaults(suiteName: String? = nil) -> ConsentStore {
        ConsentStore(storage: .userDefaults(suiteName: suiteName))
    }

    /// A store in memory, for tests and previews.
    public static func inMemory() -> ConsentStore {
        ConsentStore(storage: .inMemory())
    }

    /// Writes `keys` and `record` in one call and removes stale keys of the owned families.
    ///
    /// A `nil` record removes the stored record (the record always describes the stored keys).
    /// - Throws: ``ConsentStoreError``; nothing was written unless the error is
    ///   ``ConsentStoreError/storageFailed(_:)``.
    public func apply(_ keys: IABKeySet, record: ConsentRecord?) throws(ConsentStoreError) {
        var set: [String: KeyValueStorage.Value] = [:]
        set.reserveCapacity(keys.values.count + 1)
        for (key, value) in keys.values {
            guard key.isOwnedFamily else { throw .foreignKey(key) }
            guard key.accepts(value) else { throw .invalidValue(key: key, value: value, expected: key.valueKind) }
            switch value {
            case .int(let number): set[key.rawValue] = .int(number)
            case .string(let text): set[key.rawValue] = .string(text)
            }
        }
        var remove: [String] = []
        if let record {
            set[Self.recordKey] = .data(try Self.encode(record))
        } else {
            remove.append(Self.recordKey)
        }
        remove += ownedKeys().filter { set[$0] == nil }
        do {
            try storage.write(set, remove)
        } catch let error as ConsentStoreError {
            throw error
        } catch {
            throw .storageFailed(String(describing: error))
        }
    }

    /// The stored IAB keys of the owned families.
    public func iabKeys() -> IABKeySet {
        var keys = IABKeySet()
        for (key, value) in storage.load(ownedKeys()) {
            switch value {
            case .int(let number): keys[IABKey(rawValue: key)] = .int(number)
            case .string(let text): keys[IABKey(rawValue: key)] = .string(text)
            case .data: continue
            }
        }
        return keys
    }

    /// The stored record, or `nil` when there is none or it cannot be read. Reads one key (fast enough for every app
    /// launch).
    public func record() -> ConsentRecord? {
        guard case .data(let data) = storage.load([Self.recordKey])[Self.recordKey] else { return nil }
        return try? Self.decoder().decode(ConsentRecord.self, from: data)
    }

    /// Removes everything the store wrote: every key of the owned families and the record. Nothing else.
    /// Storage errors are ignored (`UserDefaults` reports none).
    public func clearAll() {
        try? storage.write([:], ownedKeys() + [Self.recordKey])
    }

    /// Stored keys of the owned families (`allKeys` matches prefixes, so exact keys are re-checked).
    private func ownedKeys() -> [String] {
        storage.allKeys(IABKey.ownedPrefixes + IABKey.ownedExactKeys).filter { IABKey(rawValue: $0).isOwnedFamily }
    }

    private static func encode(_ record: ConsentRecord) throws(ConsentStoreError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            return try encoder.encode(record)
        } catch {
            throw .recordNotEncodable(String(describing: error))
        }
    }

    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
