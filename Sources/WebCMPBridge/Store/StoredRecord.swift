import Foundation

/// How a ``ConsentRecord`` is stored under ``ConsentStore/recordKey``: a JSON object with the record's members, where
/// `nonTCFData` is itself JSON text.
///
/// The record is read at every app launch. Decoding a ``JSONValue`` through `Codable` tries each JSON type in turn
/// (thrown errors included) and costs tens of microseconds even for a small object on swift-corelibs-foundation; as
/// text it goes through the package's own JSON parser in a few microseconds, keeping the launch-time read fast.
struct StoredRecord: Codable {
    var tcString: String?
    /// `ConsentRecord.nonTCFData` as JSON text.
    var nonTCFData: String?
    var additionalConsent: String?
    var gppString: String?
    var usPrivacy: String?
    var expirationDate: Date?
    var crossDomainUserID: String?
    var configVersion: String?
    var savedAt: Date

    /// Limits for reading back JSON this package wrote itself (the whole store is at most 1 MiB).
    private static let limits = JSONLimits(
        maximumBytes: 4 << 20, maximumDepth: 256, maximumStringBytes: 4 << 20, maximumElements: 1 << 20)

    init(_ record: ConsentRecord, encoder: JSONEncoder) throws {
        tcString = record.tcString
        nonTCFData = try record.nonTCFData.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        additionalConsent = record.additionalConsent
        gppString = record.gppString
        usPrivacy = record.usPrivacy
        expirationDate = record.expirationDate
        crossDomainUserID = record.crossDomainUserID
        configVersion = record.configVersion
        savedAt = record.savedAt
    }

    /// The record, or `nil` when `nonTCFData` does not parse.
    func record(decoder: JSONDecoder) -> ConsentRecord? {
        var data: JSONValue?
        if let text = nonTCFData {
            if let parsed = try? JSONValue(parsing: text, limits: StoredRecord.limits) {
                data = parsed
            } else if let decoded = try? decoder.decode(JSONValue.self, from: Data(text.utf8)) {
                data = decoded
            } else {
                return nil
            }
        }
        return ConsentRecord(
            tcString: tcString, nonTCFData: data, additionalConsent: additionalConsent, gppString: gppString,
            usPrivacy: usPrivacy, expirationDate: expirationDate, crossDomainUserID: crossDomainUserID,
            configVersion: configVersion, savedAt: savedAt)
    }
}
