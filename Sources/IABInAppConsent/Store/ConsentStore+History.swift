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
    static func appendingHistory(
        _ entry: ConsentHistoryEntry, to stored: String?, limits: ConsentHistoryLimits
    ) throws(ConsentStoreError) -> String {
        var entries = stored.map(decodeHistory) ?? []
        entries.append(entry)
        let encoder = JSONEncoder()
        var encoded: [Data] = []
        encoded.reserveCapacity(entries.count)
        for item in entries {
            do {
                encoded.append(try encoder.encode(item))
            } catch {
                throw .recordNotEncodable(reason: "history entry: \(error)")
            }
        }
        let maximumEntries = max(1, limits.maximumEntries)
        if encoded.count > maximumEntries { encoded.removeFirst(encoded.count - maximumEntries) }
        var bytes = encoded.reduce(2) { $0 + $1.count } + encoded.count - 1   // brackets and commas
        while encoded.count > 1, bytes > limits.maximumBytes {
            bytes -= encoded.removeFirst().count + 1
        }
        var text = Data("[".utf8)
        for (index, item) in encoded.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(item)
        }
        text.append(UInt8(ascii: "]"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The entries of stored history text; empty when it cannot be read.
    static func decodeHistory(_ text: String) -> [ConsentHistoryEntry] {
        (try? JSONDecoder().decode([ConsentHistoryEntry].self, from: Data(text.utf8))) ?? []
    }

    /// The history entry of a write of `keys` and `record` in `context` at `now`.
    static func historyEntry(
        keys: IABKeySet, record: ConsentRecord?, context: ConsentChangeContext, now: Date
    ) -> ConsentHistoryEntry {
        let identity = keys.cmpIdentity
        var gdprApplies: Bool?
        if case .int(let flag)? = keys[.gdprApplies] { gdprApplies = flag == 1 }
        return ConsentHistoryEntry(
            date: now, cause: context.cause, dialect: context.dialect, pageURL: context.pageURL, cmpID: identity.id,
            cmpVersion: identity.version, strings: record?.strings ?? ConsentStrings(), gdprApplies: gdprApplies)
    }
}
