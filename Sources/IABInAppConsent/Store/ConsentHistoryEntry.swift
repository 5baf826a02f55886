import Foundation

/// One change of stored consent, as the store keeps it on the device (``ConsentStore/consentHistory()``) and reports
/// it with the change (``ConsentChange/historyEntry``): the proof of consent a publisher keeps to demonstrate it (GDPR
/// Art. 7(1)).
///
/// It is written in the same storage write as the IAB keys and the record it describes, so the history never holds a
/// change that was not stored and every stored change is in it (see <doc:ProofOfConsent>). Its
/// ``provenance`` says what happened: the user's choice, a CMP reporting or updating what it had, its default signal
/// while its UI was shown, the app's own change, an adoption, a removal.
///
/// JSON (``ConsentStore/exportConsentHistory()``): `date`, `source`, `action`, `details` (an object, absent when
/// empty), `cmpID`, `cmpVersion`, the strings of ``ConsentStrings`` by their names and `gdprApplies`, each absent
/// when `nil`. Entries written by earlier versions (`cause`, `dialect`, `pageURL`) read back with their provenance and
/// details.
///
/// Bound by the kit's promises over a session (WebCMPBridge's article "The kit's promises over a session", promise 5).
public struct ConsentHistoryEntry: Sendable, Hashable, Codable {
    /// When the change was written.
    public var date: Date
    /// Where the consent came from and what happened (whether the user chose).
    public var provenance: ConsentProvenance
    /// Facts about the source that its writer adds, by name (the bridge: the page's message dialect and URL).
    public var details: [String: String]
    /// The CMP SDK id written (`IABTCF_CmpSdkID`).
    public var cmpID: Int?
    /// The CMP SDK version written (`IABTCF_CmpSdkVersion`).
    public var cmpVersion: Int?
    /// The consent strings written (`IABTCF_TCString`, `IABTCF_AddtlConsent`, `IABGPP_HDR_GppString` with
    /// `IABGPP_GppSID`, `IABUSPrivacy_String`); empty for a removal.
    public var strings: ConsentStrings
    /// `IABTCF_gdprApplies` as written (`nil`: unset).
    public var gdprApplies: Bool?

    /// Creates an entry.
    package init(
        date: Date, provenance: ConsentProvenance, details: [String: String] = [:], cmpID: Int? = nil,
        cmpVersion: Int? = nil, strings: ConsentStrings = ConsentStrings(), gdprApplies: Bool? = nil
    ) {
        self.date = date
        self.provenance = provenance
        self.details = details
        self.cmpID = cmpID
        self.cmpVersion = cmpVersion
        self.strings = strings
        self.gdprApplies = gdprApplies
    }

    /// The TC string written.
    public var tcString: String? { strings.tcString }
    /// The Additional Consent string written.
    public var additionalConsent: String? { strings.additionalConsent }
    /// The GPP string written.
    public var gppString: String? { strings.gppString }
    /// The US Privacy string written.
    public var usPrivacy: String? { strings.usPrivacy }

    private enum CodingKeys: String, CodingKey {
        case date, source, action, details, cmpID, cmpVersion, gdprApplies
        /// Written by earlier versions.
        case cause, dialect, pageURL
    }

    /// Decodes an entry, of this version or an earlier one (`cause`, `dialect`, `pageURL`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        date = try container.decode(Date.self, forKey: .date)
        if let source = try container.decodeIfPresent(ConsentProvenance.Source.self, forKey: .source) {
            let action = try container.decodeIfPresent(String.self, forKey: .action)
            provenance = ConsentProvenance(source, action.flatMap(ConsentProvenance.Action.init(rawValue:)) ?? .reReport)
        } else {
            provenance = Self.legacyProvenance(cause: try container.decodeIfPresent(String.self, forKey: .cause))
        }
        var details = try container.decodeIfPresent([String: String].self, forKey: .details) ?? [:]
        if let dialect = try container.decodeIfPresent(String.self, forKey: .dialect) { details["dialect"] = dialect }
        if let pageURL = try container.decodeIfPresent(String.self, forKey: .pageURL) { details["pageURL"] = pageURL }
        self.details = details
        cmpID = try container.decodeIfPresent(Int.self, forKey: .cmpID)
        cmpVersion = try container.decodeIfPresent(Int.self, forKey: .cmpVersion)
        strings = try ConsentStrings(flatFrom: decoder)
        gdprApplies = try container.decodeIfPresent(Bool.self, forKey: .gdprApplies)
    }

    /// Encodes the entry (see the type's JSON).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(provenance.source, forKey: .source)
        try container.encode(provenance.action, forKey: .action)
        if !details.isEmpty { try container.encode(details, forKey: .details) }
        try container.encodeIfPresent(cmpID, forKey: .cmpID)
        try container.encodeIfPresent(cmpVersion, forKey: .cmpVersion)
        try container.encodeIfPresent(gdprApplies, forKey: .gdprApplies)
        try strings.encodeFlat(to: encoder)
    }

    /// The provenance of an entry that an earlier version wrote with `cause` (`cmpPage`, `fallbackPage`, `rejectAll`,
    /// `withdrawal`, `migration`, `cleared`). Those versions logged every page save as the user's choice; it reads
    /// so, since nothing else is known of it.
    static func legacyProvenance(cause: String?) -> ConsentProvenance {
        switch cause {
        case "rejectAll": return ConsentProvenance(.app, .rejectAll)
        case "withdrawal": return ConsentProvenance(.app, .withdrawal)
        case "migration": return ConsentProvenance(.previousSDK, .adopted)
        case "cleared": return ConsentProvenance(.app, .cleared)
        case let cause?: return ConsentProvenance(ConsentProvenance.Source(rawValue: cause), .userChoice)
        case nil: return ConsentProvenance(StoredConsentRecord.legacySource, .userChoice)
        }
    }
}
