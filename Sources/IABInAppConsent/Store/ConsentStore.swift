import Foundation

/// Reads and writes consent: the IAB in-app keys and the bridge's own ``ConsentRecord``.
///
/// - A write (the package's `apply(_:record:provenance:details:now:)`, behind every save) replaces the whole stored state in one call: it
///   validates everything first and touches storage only when all of it is valid; then it writes the new keys and
///   removes every stale key of the families this package owns (`IABTCF_*`, `IABGPP_*`, `IABUSPrivacy_String`), such
///   as an `IABTCF_PublisherRestrictions7` left by an older string. Keys of other families are never touched.
/// - The record is stored as JSON text (a `String`) under `WebCMPBridge.record.v1` and its non-TCF data under
///   `WebCMPBridge.nonTCFData.v1`, so that ``record(includingNonTCFData:)`` can skip the page-defined data at launch.
/// - The same write appends the change to the consent history under `WebCMPBridge.history.v1`
///   (``consentHistory()``, bounded by `historyLimits`): proof of consent, never apart from the consent it records.
/// - Stores over one storage (the same ``changeNotificationObject``: one `UserDefaults` suite, one in-memory storage)
///   share a lock and a stream of changes (``changes()``); stores over different storages share neither.
///
/// Spec: TCF CMP API v2.2 "In-App Details" and GPP CMP API v1.1 "In-App Details" (where the keys live; a publisher
/// removing a CMP must clear "all `IABTCF_*` / `IABGPP_*` vestigial values", which ``clearAll()`` does).
public struct ConsentStore: Sendable {
    /// Where the keys and the record are stored.
    package var storage: KeyValueStorage

    /// How much consent history every write keeps (``consentHistory()``): ``historyMaximumEntries`` and
    /// ``historyMaximumBytes``.
    package var historyLimits = ConsentHistoryLimits()

    /// The most consent history entries every write keeps (``consentHistory()``; at least 1, smaller values count as
    /// 1). Default 20. The newest entry is always kept, whatever its size: a change is never stored without its entry.
    public var historyMaximumEntries: Int {
        get { historyLimits.maximumEntries }
        set { historyLimits.maximumEntries = newValue }
    }

    /// The most bytes of JSON the kept history entries take together. Default 64 KiB (a TC string with a long vendor
    /// list takes a few KiB).
    public var historyMaximumBytes: Int {
        get { historyLimits.maximumBytes }
        set { historyLimits.maximumBytes = newValue }
    }

    /// The key of the JSON-encoded ``ConsentRecord`` (a UTF-8 JSON string). The suffix is the format version.
    static let recordKey = "WebCMPBridge.record.v1"

    /// The key of the record's non-TCF data (JSON text), kept apart from ``recordKey`` so that launch-time reads
    /// skip it (see ``record(includingNonTCFData:)``).
    static let nonTCFDataKey = "WebCMPBridge.nonTCFData.v1"

    /// Every key of the package's own namespace, including `WebCMPBridge.savedAt`, which versions before the record
    /// carried the date wrote beside it (removed on the next apply or clear).
    static let ownKeys = [recordKey, nonTCFDataKey, "WebCMPBridge.savedAt"]

    /// The most bytes of keys, values and record that one ``apply(_:record:provenance:details:now:)`` writes (1 MiB).
    static let maximumTotalSize = 1 << 20

    /// The key prefixes of the IAB families the store owns (`IABUSPrivacy_String` is matched exactly).
    static let iabPrefixes = [IABKey.tcfPrefix, IABKey.gppPrefix, IABKey.usPrivacyString.rawValue]

    /// Creates a store over `storage`.
    package init(storage: KeyValueStorage) {
        self.storage = storage
    }

    /// A store in `UserDefaults`: `standard` (where IAB vendors read) when `suiteName` is `nil`.
    public static func userDefaults(suiteName: String? = nil) -> ConsentStore {
        ConsentStore(storage: .userDefaults(suiteName: suiteName))
    }

    /// A store in memory, empty, for tests and previews.
    public static func inMemory() -> ConsentStore {
        ConsentStore(storage: .inMemory())
    }

    /// Replaces the stored consent with `keys` and `record` (`nil` removes the stored record).
    ///
    /// Fails without touching storage when the record cannot be encoded, or everything together exceeds
    /// ``maximumTotalSize``. The keys are the mapping's (``MappedIABKeys``: valid by construction, so not checked
    /// again); ``apply(checking:record:provenance:details:now:)`` takes keys from anywhere else and checks each first.
    /// It takes the lock of its storage (`KeyValueStorage.Identity`) once, while it reads the stale keys and the
    /// history and writes, so that concurrent applies to one storage never mix; applies to other storages do not wait.
    /// The same write appends the change's ``ConsentHistoryEntry`` (`provenance` says what happened, `details` add
    /// facts about its source, at `now`) to the history (``consentHistory()``): a failed write records nothing, and
    /// nothing is written without its entry.
    /// A report (``ConsentProvenance/Action/reReport``, ``ConsentProvenance/Action/signalUpdate``,
    /// ``ConsentProvenance/Action/noChoiceWhileUIShown``) that would store exactly the stored keys and record writes
    /// nothing and records nothing: a CMP restating what the user chose is no change, and must not push the user's
    /// choice out of the bounded history. Returns whether it wrote.
    /// After a successful write, ``changes()`` streams and ``didChangeNotification`` observers are told.
    @discardableResult
    package func apply(
        _ keys: MappedIABKeys, record: ConsentRecord?, provenance: ConsentProvenance, details: [String: String] = [:],
        now: Date = Date()
    ) throws(ConsentStoreError) -> Bool {
        try write(keys.keySet, record: record, provenance: provenance, details: details, now: now)
    }

    /// The stored record as a writer saw it: the exact texts of the record and of its non-TCF data. A conditional
    /// write (``apply(_:record:provenance:details:now:replacing:)``) compares it with the storage under the lock it
    /// writes under, so that a change prepared on one record is never written over another (written meanwhile by
    /// another store over the same storage, the app, or another process).
    package struct RecordVersion: Sendable, Hashable {
        /// The record's JSON text (`nil`: no record).
        var record: String?
        /// The non-TCF data's JSON text (`nil`: none).
        var nonTCFData: String?

        /// The version of an empty storage.
        package init() {}
    }

    /// The stored record with its version, read under the storage's lock.
    package func versionedRecord() -> (record: ConsentRecord?, version: RecordVersion) {
        let stored = storage.identity.withLock { storage.load([ConsentStore.recordKey, ConsentStore.nonTCFDataKey]) }
        return (record(from: stored, includingNonTCFData: true), RecordVersion(stored))
    }

    /// ``apply(_:record:provenance:details:now:)`` only when the stored record is still `expected` (checked under the
    /// same lock as the write): otherwise it writes nothing and throws ``ConsentStoreError/recordChanged(current:version:)``
    /// with the record in force. Returns the version it leaves (`expected` when a report changed nothing).
    package func apply(
        _ keys: MappedIABKeys, record: ConsentRecord?, provenance: ConsentProvenance, details: [String: String] = [:],
        now: Date = Date(), replacing expected: RecordVersion
    ) throws(ConsentStoreError) -> RecordVersion {
        var left = expected
        let entry = ConsentStore.historyEntry(
            keys: keys.keySet, record: record, provenance: provenance, details: details, now: now)
        var changed: [String: KeyValueStorage.Value]?
        do {
            _ = try transaction(reporting: ConsentChange(record: record, historyEntry: entry)) {
                () throws(ConsentStoreError) -> Bool in
                let found = storage.load([ConsentStore.recordKey, ConsentStore.nonTCFDataKey])
                guard RecordVersion(found) == expected else {
                    changed = found
                    throw .recordChanged(current: nil, version: RecordVersion(found))
                }
                guard try applyLocked(keys.keySet, record: record, entry: entry,
                                      skipsUnchanged: provenance.action.isReport) else { return false }
                left = RecordVersion(storage.load([ConsentStore.recordKey, ConsentStore.nonTCFDataKey]))
                return true
            }
        } catch .recordChanged(_, let version) {
            // Decoded outside the lock.
            throw .recordChanged(
                current: changed.flatMap { self.record(from: $0, includingNonTCFData: true) }, version: version)
        }
        return left
    }

    /// ``apply(_:record:provenance:details:now:)`` for keys the mapping did not produce (a tool's, a test's): every
    /// key and value is checked first (``validate(_:_:)``: a foreign key, a wrong type or content fails without
    /// touching storage).
    @discardableResult
    package func apply(
        checking keys: IABKeySet, record: ConsentRecord?, provenance: ConsentProvenance,
        details: [String: String] = [:], now: Date = Date()
    ) throws(ConsentStoreError) -> Bool {
        for (key, value) in keys { try ConsentStore.validate(key, value) }
        return try write(keys, record: record, provenance: provenance, details: details, now: now)
    }

    /// The write of valid `keys`, under the storage's lock.
    private func write(
        _ keys: IABKeySet, record: ConsentRecord?, provenance: ConsentProvenance, details: [String: String],
        now: Date
    ) throws(ConsentStoreError) -> Bool {
        let entry = ConsentStore.historyEntry(keys: keys, record: record, provenance: provenance, details: details, now: now)
        let skipsUnchanged = provenance.action.isReport
        return try transaction(reporting: ConsentChange(record: record, historyEntry: entry)) {
            () throws(ConsentStoreError) -> Bool in
            try applyLocked(keys, record: record, entry: entry, skipsUnchanged: skipsUnchanged)
        }
    }

    /// The body of ``apply(_:record:provenance:details:now:)``, run under the storage's lock; `false` when it wrote
    /// nothing (`skipsUnchanged` and everything is stored already).
    private func applyLocked(
        _ keys: IABKeySet, record: ConsentRecord?, entry: ConsentHistoryEntry, skipsUnchanged: Bool
    ) throws(ConsentStoreError) -> Bool {
        var set: [String: KeyValueStorage.Value] = [:]
        set.reserveCapacity(keys.count + 2)
        var size = 0
        for (key, value) in keys {
            size += key.rawValue.utf8.count
            switch value {
            case .int(let number): set[key.rawValue] = .int(number)
            case .string(let string):
                set[key.rawValue] = .string(string)
                size += string.utf8.count
            }
        }
        var remove: [String] = []
        if let record {
            let data: Data
            do {
                data = try ConsentStore.encoder.encode(StoredConsentRecord(record))
            } catch {
                throw .recordNotEncodable(reason: String(describing: error))
            }
            // JSON text, not `Data`: swift-corelibs-foundation's `UserDefaults` returns `Data` by copying it byte by
            // byte (~100 µs for a 500-byte record), a string in a few µs; Apple platforms read both quickly.
            set[ConsentStore.recordKey] = .string(String(decoding: data, as: UTF8.self))
            size += data.count
            remove.append("WebCMPBridge.savedAt")
            if let nonTCFData = record.nonTCFData {
                let json = try StoredConsentRecord.encodeNonTCFData(nonTCFData)
                set[ConsentStore.nonTCFDataKey] = .string(json)
                size += json.utf8.count
            } else {
                remove.append(ConsentStore.nonTCFDataKey)
            }
        } else {
            remove = ConsentStore.ownKeys
        }
        guard size <= ConsentStore.maximumTotalSize else {
            throw .tooLarge(bytes: size, limit: ConsentStore.maximumTotalSize)
        }
        let storedKeys = storedIABKeys()
        if skipsUnchanged, record != nil, isStored(set, keys: storedKeys) { return false }
        for key in storedKeys where set[key.rawValue] == nil {   // `set` holds the new keys by name
            remove.append(key.rawValue)
        }
        set[ConsentStore.historyKey] = .string(try appendedHistory(entry))
        try storage.write(set, remove)
        return true
    }

    /// Whether the storage holds exactly `set` (the keys, the record and its non-TCF data about to be written) and
    /// no other key of the owned IAB families (`storedKeys`).
    private func isStored(_ set: [String: KeyValueStorage.Value], keys storedKeys: [IABKey]) -> Bool {
        storage.load(storedKeys.map(\.rawValue) + [ConsentStore.recordKey, ConsentStore.nonTCFDataKey]) == set
    }

    /// The stored history with `entry` appended (read under the storage's lock, by the write that stores it).
    private func appendedHistory(_ entry: ConsentHistoryEntry) throws(ConsentStoreError) -> String {
        var stored: String?
        if case .string(let text)? = storage.load([ConsentStore.historyKey])[ConsentStore.historyKey] { stored = text }
        return try ConsentStore.appendingHistory(entry, to: stored, limits: historyLimits)
    }

    /// The IAB keys currently stored (integers and strings of the owned families).
    public func iabKeys() -> IABKeySet {
        let names = storedIABKeys().map(\.rawValue)
        var result = IABKeySet(minimumCapacity: names.count)
        for (name, value) in storage.load(names) {   // distinct names: no key is added twice
            switch value {
            case .int(let number): result.appendNew(IABKey(rawValue: name), .int(number))
            case .string(let string): result.appendNew(IABKey(rawValue: name), .string(string))
            case .double: continue
            }
        }
        return result
    }

    /// The stored record, or `nil` when there is none or the stored data cannot be decoded.
    ///
    /// - Parameter includingNonTCFData: `false` skips reading the CMP's non-TCF data (``ConsentRecord/nonTCFData`` is
    ///   then `nil`): enough for launch-time decisions such as `ConsentExpiryPolicy`, and faster when the data is
    ///   large.
    public func record(includingNonTCFData: Bool = true) -> ConsentRecord? {
        let keys = includingNonTCFData ? [ConsentStore.recordKey, ConsentStore.nonTCFDataKey] : [ConsentStore.recordKey]
        let stored = storage.identity.withLock { storage.load(keys) }
        return record(from: stored, includingNonTCFData: includingNonTCFData)
    }

    /// The record held by `stored` (the loaded record and non-TCF data keys).
    private func record(
        from stored: [String: KeyValueStorage.Value], includingNonTCFData: Bool
    ) -> ConsentRecord? {
        // Each text is decoded only when it differs from the one decoded last (`DecodeCache`): reads at launch and
        // before every run see the same bytes again and again.
        guard case .string(let text)? = stored[ConsentStore.recordKey],
            let fields = ConsentStore.recordCache.value(for: text, decode: {
                try? ConsentStore.decoder.decode(StoredConsentRecord.self, from: Data($0.utf8))
            })
        else { return nil }
        var nonTCFData: JSONValue?
        if includingNonTCFData, case .string(let json)? = stored[ConsentStore.nonTCFDataKey] {
            guard let parsed = ConsentStore.nonTCFDataCache.value(for: json, decode: StoredConsentRecord.parseNonTCFData)
            else { return nil }
            nonTCFData = parsed
        }
        return fields.record(nonTCFData: nonTCFData)
    }

    /// Removes everything the store wrote: every key of the owned IAB families and the record. Nothing else.
    /// The consent history (``consentHistory()``) is kept and gets a ``ConsentProvenance/Action/cleared`` entry in
    /// the same write: that consent was removed is part of the proof.
    ///
    /// Does not throw: the only possible failure is a `UserDefaults` suite that cannot be opened, and then nothing
    /// can have been written to it either (and nothing is reported or recorded).
    public func clearAll() {
        clearAll(provenance: ConsentProvenance(.app, .cleared))
    }

    /// ``clearAll()`` recorded with `provenance` and `details` at `now`.
    package func clearAll(provenance: ConsentProvenance, details: [String: String] = [:], now: Date = Date()) {
        let entry = ConsentStore.historyEntry(
            keys: IABKeySet(), record: nil, provenance: provenance, details: details, now: now)
        _ = try? transaction(reporting: ConsentChange(record: nil, historyEntry: entry)) {
            () throws(ConsentStoreError) -> Bool in
            let history = try appendedHistory(entry)
            try storage.write(
                [ConsentStore.historyKey: .string(history)], storedIABKeys().map(\.rawValue) + ConsentStore.ownKeys)
            return true
        }
    }

    /// The stored keys of the owned IAB families.
    private func storedIABKeys() -> [IABKey] {
        storage.keys(ConsentStore.iabPrefixes).map(IABKey.init(rawValue:)).filter(\.isOwnedIABKey)
    }

    /// Sorted keys: the same record always gives the same text, so that a report of the stored consent is seen to
    /// change nothing (`isStored`).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
    private static let decoder = JSONDecoder()
    /// The record text decoded last, process-wide (keyed by the text, so shared by every store and storage).
    private static let recordCache = DecodeCache<StoredConsentRecord>()
    /// The non-TCF data text parsed last.
    private static let nonTCFDataCache = DecodeCache<JSONValue>()
}

extension ConsentStore.RecordVersion {
    /// The version of the loaded record and non-TCF data keys.
    init(_ stored: [String: KeyValueStorage.Value]) {
        if case .string(let text)? = stored[ConsentStore.recordKey] { record = text }
        if case .string(let text)? = stored[ConsentStore.nonTCFDataKey] { nonTCFData = text }
    }
}
