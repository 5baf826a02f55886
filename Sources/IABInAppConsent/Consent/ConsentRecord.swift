import Foundation

/// The bridge's own record of the consent in force, kept beside the IAB keys: the CMP page gets its previous state
/// back from it (re-injection, settings on demand), expiry is decided from it without a web view, and content web
/// views are given it (consent sharing).
public struct ConsentRecord: Sendable, Hashable {
    /// The consent strings the CMP produced.
    public var strings: ConsentStrings
    /// Whether GDPR applies, as written to `IABTCF_gdprApplies` (`nil`: unset, "undetermined").
    public var gdprApplies: Bool?
    /// The CMP's non-TCF data (Gravito `nontcfdata`), as JSON.
    public var nonTCFData: JSONValue?
    /// When the CMP says this consent expires (Onesecondbefore `expirationDate`).
    public var expirationDate: Date?
    /// Cross-domain user id (Onesecondbefore `cduid`).
    public var crossDomainUserID: String?
    /// The CMP configuration version the consent was given under (Gravito `configversion`).
    public var configVersion: String?
    /// When the user gave this consent (kept when a CMP merely reports consent it already had).
    public var savedAt: Date
    /// Where this consent came from and whether the user chose it. A CMP merely reporting or updating the consent
    /// in force keeps the action of the consent it reports (as it keeps ``savedAt``).
    public var provenance: ConsentProvenance

    /// Creates a record; by default one the app made itself (``ConsentProvenance/Source/app``) as the user's choice.
    public init(
        strings: ConsentStrings,
        gdprApplies: Bool? = nil,
        nonTCFData: JSONValue? = nil,
        expirationDate: Date? = nil,
        crossDomainUserID: String? = nil,
        configVersion: String? = nil,
        savedAt: Date,
        provenance: ConsentProvenance = ConsentProvenance(.app, .userChoice)
    ) {
        self.strings = strings
        self.gdprApplies = gdprApplies
        self.nonTCFData = nonTCFData
        self.expirationDate = expirationDate
        self.crossDomainUserID = crossDomainUserID
        self.configVersion = configVersion
        self.savedAt = savedAt
        self.provenance = provenance
    }

    /// The TC string.
    public var tcString: String? { strings.tcString }
    /// The Google Additional Consent string.
    public var additionalConsent: String? { strings.additionalConsent }
    /// The GPP string.
    public var gppString: String? { strings.gppString }
    /// The US Privacy string.
    public var usPrivacy: String? { strings.usPrivacy }
    /// Who produced this consent (``provenance``'s source).
    public var source: ConsentProvenance.Source { provenance.source }
}
