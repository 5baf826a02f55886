import Foundation

/// The form a ``ConsentRecord`` is stored in: JSON text of its fields except the CMP's non-TCF data, which the store
/// keeps as JSON text under a key of its own (``ConsentStore/nonTCFDataKey``).
///
/// Why: `ConsentStore.record()` runs at every app launch (budget 50 µs), and the launch decision (expiry, config
/// version) never needs the non-TCF data, which is page-defined and can be large. Kept apart it is neither parsed
/// nor scanned unless asked for, and when it is, the package's own JSON parser reads it (decoding a ``JSONValue``
/// through `Codable` costs a thrown error per failed type guess, several µs per value on Linux).
///
/// The format is flat and only grows optional members, so that records written by earlier versions (format `v1`)
/// read back: `gdprApplies`, `gppApplicableSections`, `source` and `action` were added later and are absent there
/// (``provenance``: how a record without them reads). The strings are one ``ConsentStrings``, written as the flat
/// members they always were (`+Coding`: the same JSON text as before).
struct StoredConsentRecord: Sendable {
    var strings: ConsentStrings
    var gdprApplies: Bool?
    var expirationDate: Date?
    var crossDomainUserID: String?
    var configVersion: String?
    var savedAt: Date
    var source: String?
    /// ``ConsentProvenance/Action``'s raw value; absent in records written before the provenance had an action.
    var action: String?

    /// The stored fields of `record` (all but ``ConsentRecord/nonTCFData``).
    init(_ record: ConsentRecord) {
        strings = record.strings
        gdprApplies = record.gdprApplies
        expirationDate = record.expirationDate
        crossDomainUserID = record.crossDomainUserID
        configVersion = record.configVersion
        savedAt = record.savedAt
        source = record.provenance.source.rawValue
        action = record.provenance.action.rawValue
    }

    /// The record, with `nonTCFData`.
    func record(nonTCFData: JSONValue?) -> ConsentRecord {
        ConsentRecord(
            strings: strings,
            gdprApplies: gdprApplies, nonTCFData: nonTCFData, expirationDate: expirationDate,
            crossDomainUserID: crossDomainUserID, configVersion: configVersion, savedAt: savedAt,
            provenance: provenance)
    }

    /// The source written by versions whose records had none: they were all made by the bridge's hosted CMP page.
    static let legacySource = ConsentProvenance.Source(rawValue: "cmpPage")

    /// The record's provenance. A source reads as written (an open value; absent: ``legacySource``). An absent action
    /// (a record of an earlier version) reads as what that version meant by the source: the app's own change was a
    /// reject-all or withdrawal, an adopted consent was adopted, anything else was taken for the user's choice (what
    /// those versions claimed; they could not tell). An action this version does not know (a later version's) reads
    /// as a report: nothing says the user chose.
    var provenance: ConsentProvenance {
        let source = source.map(ConsentProvenance.Source.init(rawValue:)) ?? Self.legacySource
        guard let action else {
            switch source {
            case .app: return ConsentProvenance(source, .rejectAll)
            case .previousSDK: return ConsentProvenance(source, .adopted)
            default: return ConsentProvenance(source, .userChoice)
            }
        }
        return ConsentProvenance(source, ConsentProvenance.Action(rawValue: action) ?? .reReport)
    }

    /// Limits for reading back our own non-TCF data: far above what the bridge accepts from a page
    /// (`JSONLimits.default`), so that anything it stored reads back.
    static let nonTCFDataLimits = JSONLimits(
        maximumBytes: 16 * 1024 * 1024, maximumDepth: 256, maximumStringBytes: 16 * 1024 * 1024,
        maximumElements: 1_000_000)

    /// `data` as JSON text that ``parseNonTCFData(_:)`` reads back equal (``JSONValue/jsonText(limits:)`` checks
    /// ``nonTCFDataLimits`` as the parser does; debug builds parse the text back to prove it).
    /// - Throws: ``ConsentStoreError/recordNotEncodable(reason:)`` for non-finite numbers or data beyond
    ///   ``nonTCFDataLimits``.
    static func encodeNonTCFData(_ data: JSONValue) throws(ConsentStoreError) -> String {
        let text: String
        do {
            text = try data.jsonText(limits: nonTCFDataLimits)
        } catch {
            throw .recordNotEncodable(reason: "non-TCF data: \(error)")
        }
        assert(parseNonTCFData(text) == data, "non-TCF data does not read back equal: \(text)")
        return text
    }

    /// Parses stored non-TCF data; `nil` when the text is corrupt.
    static func parseNonTCFData(_ text: String) -> JSONValue? {
        try? JSONValue(parsing: text, limits: nonTCFDataLimits)
    }
}
