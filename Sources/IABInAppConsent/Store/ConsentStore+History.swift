import Foundation

extension ConsentStore {
    /// The key of the consent history (JSON text: an array of ``ConsentHistoryEntry``, oldest first).
    static let historyKey = "WebCMPBridge.history.v1"

    /// The consent changes kept on the device, oldest first: the newest ones within `historyLimits`. Empty when
    /// nothing was ever stored (or the stored history cannot be read).
    ///
    /// Every entry was written in the same storage write as the keys and the record it describes.
    public func consentHistory() -> [ConsentHistoryEntry] {
        let stored = storage.identity.withLock { storage.load([ConsentStore.historyKey]) }
        guard case .string(let text)? = stored[ConsentStore.historyKey] else { return [] }
        return Self.decodeHistory(text)
    }

    /// ``consentHistory()`` as JSON to hand to the publisher's records: an array of objects, oldest first, with the
    /// members of ``ConsentHistoryEntry`` (absent when `nil`), dates as ISO 8601 text with milliseconds in UTC and
    /// keys sorted.
    public func exportConsentHistory() -> Data {
        Self.exportJSON(consentHistory())
    }

    /// `entries` as the JSON of ``exportConsentHistory()``.
    static func exportJSON(_ entries: [ConsentHistoryEntry]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var container = encoder.singleValueContainer()
            try container.encode(formatter.string(from: date))
        }
        return (try? encoder.encode(entries)) ?? Data("[]".utf8)
    }

    /// The stored history text with `entry` appended, trimmed to `limits`: the oldest entries are dropped until at
    /// most `limits.maximumEntries` remain and their JSON takes at most `limits.maximumBytes`; `entry` itself is
    /// always kept. A stored history that cannot be read is replaced.
    ///
    /// Reports never push a decision out: a report entry (``ConsentProvenance/Action/isReport``: a CMP restating or
    /// updating what it had) replaces the newest entry when that one is a report too, so a run of reports between
    /// two choices takes one place; and trimming drops the oldest reports before any other entry.
    static func appendingHistory(
        _ entry: ConsentHistoryEntry, to stored: String?, limits: ConsentHistoryLimits
    ) throws(ConsentStoreError) -> String {
        // The stored entries, each as its JSON: the text this store wrote last is not decoded and encoded again
        // (`historyCache`: keyed by the exact text, so whatever else wrote the storage is decoded).
        var encoded = stored.flatMap { text in
            historyCache.value(for: text) { text in try? encodedEntries(decodeHistory(text)) }
        } ?? []
        if entry.provenance.action.isReport, encoded.last?.isReport == true { encoded.removeLast() }
        encoded += try encodedEntries([entry])
        let maximumEntries = max(1, limits.maximumEntries)
        var bytes = encoded.reduce(2) { $0 + $1.data.count } + encoded.count - 1   // brackets and commas
        // The oldest report first, else the oldest entry; never the new one (the last).
        while encoded.count > 1, encoded.count > maximumEntries || bytes > limits.maximumBytes {
            let index = encoded.dropLast().firstIndex { $0.isReport } ?? 0
            bytes -= encoded.remove(at: index).data.count + 1
        }
        var text = Data("[".utf8)
        for (index, item) in encoded.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: item.data)
        }
        text.append(UInt8(ascii: "]"))
        let result = String(decoding: text, as: UTF8.self)
        historyCache.store(encoded, for: result)
        return result
    }

    /// Each entry's JSON, and whether it is a report.
    private static func encodedEntries(
        _ entries: [ConsentHistoryEntry]
    ) throws(ConsentStoreError) -> [(data: [UInt8], isReport: Bool)] {
        let encoder = JSONEncoder()
        var encoded: [(data: [UInt8], isReport: Bool)] = []
        encoded.reserveCapacity(entries.count)
        for item in entries {
            do {
                encoded.append((Array(try encoder.encode(item)), item.provenance.action.isReport))
            } catch {
                throw .recordNotEncodable(reason: "history entry: \(error)")
            }
        }
        return encoded
    }

    /// The history text written last and its entries' JSON, process-wide (keyed by the text). Bytes as `[UInt8]`, not
    /// `Data`: `Data`'s inline-slice representation keeps its storage pointer with enum tag bits set, which
    /// LeakSanitizer cannot follow, so a cached `Data` was reported as a leak by the fuzz targets under ASan.
    private static let historyCache = DecodeCache<[(data: [UInt8], isReport: Bool)]>()

    /// The entries of stored history text; empty when it cannot be read.
    static func decodeHistory(_ text: String) -> [ConsentHistoryEntry] {
        (try? JSONDecoder().decode([ConsentHistoryEntry].self, from: Data(text.utf8))) ?? []
    }

    /// The history entry of a write of `keys` and `record`, what happened (`provenance`, `details`), at `now`.
    static func historyEntry(
        keys: IABKeySet, record: ConsentRecord?, provenance: ConsentProvenance, details: [String: String], now: Date
    ) -> ConsentHistoryEntry {
        let identity = keys.cmpIdentity
        var gdprApplies: Bool?
        if case .int(let flag)? = keys[.gdprApplies] { gdprApplies = flag == 1 }
        return ConsentHistoryEntry(
            date: now, provenance: provenance, details: details, cmpID: identity.id,
            cmpVersion: identity.version, strings: record?.strings ?? ConsentStrings(), gdprApplies: gdprApplies)
    }
}
