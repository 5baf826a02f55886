import Foundation

/// The stored record's JSON: flat members, the strings among them by their names (``ConsentStrings``'s flat coding),
/// each absent when `nil` (the text synthesised `Codable` wrote before the strings were one ``ConsentStrings``; with
/// sorted keys it is the same text).
extension StoredConsentRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case gdprApplies, expirationDate, crossDomainUserID, configVersion, savedAt, source, action
    }

    init(from decoder: any Decoder) throws {
        strings = try ConsentStrings(flatFrom: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        gdprApplies = try container.decodeIfPresent(Bool.self, forKey: .gdprApplies)
        expirationDate = try container.decodeIfPresent(Date.self, forKey: .expirationDate)
        crossDomainUserID = try container.decodeIfPresent(String.self, forKey: .crossDomainUserID)
        configVersion = try container.decodeIfPresent(String.self, forKey: .configVersion)
        savedAt = try container.decode(Date.self, forKey: .savedAt)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        action = try container.decodeIfPresent(String.self, forKey: .action)
    }

    func encode(to encoder: any Encoder) throws {
        try strings.encodeFlat(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(gdprApplies, forKey: .gdprApplies)
        try container.encodeIfPresent(expirationDate, forKey: .expirationDate)
        try container.encodeIfPresent(crossDomainUserID, forKey: .crossDomainUserID)
        try container.encodeIfPresent(configVersion, forKey: .configVersion)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(action, forKey: .action)
    }
}
