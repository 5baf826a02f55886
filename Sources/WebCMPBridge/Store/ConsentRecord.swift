import Foundation

/// The bridge's own record of the last saved consent, kept beside the IAB keys so that the CMP page can be given its
/// previous state back (re-injection) and so that expiry can be decided without a web view.
public struct ConsentRecord: Sendable, Hashable, Codable {
    /// The raw TC string the page saved.
    public var tcString: String?
    /// The CMP's non-TCF data (Gravito `nontcfdata`), as JSON.
    public var nonTCFData: JSONValue?
    /// Google Additional Consent string.
    public var additionalConsent: String?
    /// GPP string, when the CMP produced one.
    public var gppString: String?
    /// US Privacy string, when the CMP produced one.
    public var usPrivacy: String?
    /// When the CMP says this consent expires (Onesecondbefore `expirationDate`).
    public var expirationDate: Date?
    /// Cross-domain user id (Onesecondbefore `cduid`).
    public var crossDomainUserID: String?
    /// The CMP configuration version the consent was given under (Gravito `configversion`).
    public var configVersion: String?
    /// When the bridge saved this record.
    public var savedAt: Date

    /// Creates a record.
    public init(
        tcString: String? = nil,
        nonTCFData: JSONValue? = nil,
        additionalConsent: String? = nil,
        gppString: String? = nil,
        usPrivacy: String? = nil,
        expirationDate: Date? = nil,
        crossDomainUserID: String? = nil,
        configVersion: String? = nil,
        savedAt: Date
    ) {
        self.tcString = tcString
        self.nonTCFData = nonTCFData
        self.additionalConsent = additionalConsent
        self.gppString = gppString
        self.usPrivacy = usPrivacy
        self.expirationDate = expirationDate
        self.crossDomainUserID = crossDomainUserID
        self.configVersion = configVersion
        self.savedAt = savedAt
    }
}
