import Foundation

/// A validated message from the CMP page, whatever dialect it arrived in.
public enum CMPMessage: Sendable, Hashable {
    /// The page is ready and waits for the stored record (Gravito `CMP-loaded` / `start`; generic TCF: `__tcfapi`
    /// answered).
    case ready
    /// The CMP UI became visible (generic TCF `cmpuishown`).
    case uiShown
    /// The CMP reported its configuration (Gravito `load`, with `configversion`).
    case configurationLoaded(configVersion: String?)
    /// The user made a choice, or the CMP loaded stored consent (generic TCF `tcloaded`).
    case save(ConsentPayload)
    /// A GPP string became available (generic dialect, from `__gpp`).
    case gpp(gppString: String, applicableSections: [Int]?)
    /// The page asks to be dismissed.
    case close
}

extension CMPMessage {
    /// Whether this is a save.
    public var isSave: Bool {
        if case .save = self { return true }
        return false
    }
}

/// What a page's save message carries. The TC string is the truth; the other choice arrays are kept only to report
/// disagreements.
public struct ConsentPayload: Sendable, Hashable {
    /// Why this payload was produced.
    public enum Origin: String, Sendable, Hashable {
        /// The user acted in the CMP UI.
        case userAction
        /// The CMP loaded consent it already had without showing UI (generic TCF `tcloaded`).
        case loaded
    }

    /// Why this payload was produced.
    public var origin: Origin
    /// The TC string.
    public var tcString: String?
    /// The CMP's non-TCF data (Gravito `nontcfdata`), kept verbatim for re-injection.
    public var nonTCFData: JSONValue?
    /// Google Additional Consent string.
    public var additionalConsent: String?
    /// GPP string.
    public var gppString: String?
    /// GPP applicable sections, when the page says which.
    public var gppApplicableSections: [Int]?
    /// US Privacy string.
    public var usPrivacy: String?
    /// Whether GDPR applies, when the page says so.
    public var gdprApplies: Bool?
    /// The CMP's configuration version (Gravito `configversion`).
    public var configVersion: String?
    /// When the consent expires (Onesecondbefore `expirationDate`).
    public var expirationDate: Date?
    /// Cross-domain user id (Onesecondbefore `cduid`).
    public var crossDomainUserID: String?
    /// Whether the user rejected everything (Gravito `isRejectAll`).
    public var isRejectAll: Bool?
    /// The CMP's CMP id (generic TCF `cmpId`).
    public var cmpID: Int?
    /// The CMP's version (generic TCF `cmpVersion`).
    public var cmpVersion: Int?
    /// The choices the payload claims besides the TC string, for diagnostics.
    public var claimedChoices: ClaimedChoices?

    /// Creates a payload.
    public init(
        origin: Origin = .userAction, tcString: String? = nil, nonTCFData: JSONValue? = nil,
        additionalConsent: String? = nil, gppString: String? = nil, gppApplicableSections: [Int]? = nil,
        usPrivacy: String? = nil, gdprApplies: Bool? = nil, configVersion: String? = nil,
        expirationDate: Date? = nil, crossDomainUserID: String? = nil, isRejectAll: Bool? = nil,
        cmpID: Int? = nil, cmpVersion: Int? = nil, claimedChoices: ClaimedChoices? = nil
    ) {
        self.origin = origin
        self.tcString = tcString
        self.nonTCFData = nonTCFData
        self.additionalConsent = additionalConsent
        self.gppString = gppString
        self.gppApplicableSections = gppApplicableSections
        self.usPrivacy = usPrivacy
        self.gdprApplies = gdprApplies
        self.configVersion = configVersion
        self.expirationDate = expirationDate
        self.crossDomainUserID = crossDomainUserID
        self.isRejectAll = isRejectAll
        self.cmpID = cmpID
        self.cmpVersion = cmpVersion
        self.claimedChoices = claimedChoices
    }
}

/// Purpose, special feature and vendor ids a payload lists next to its TC string (Onesecondbefore's `consent`
/// object). Only compared with the TC string, never stored.
public struct ClaimedChoices: Sendable, Hashable {
    /// Claimed purpose consents.
    public var purposeConsents: IDSet?
    /// Claimed purpose legitimate interests.
    public var purposeLegitimateInterests: IDSet?
    /// Claimed special feature opt-ins.
    public var specialFeatureOptIns: IDSet?
    /// Claimed vendor consents.
    public var vendorConsents: IDSet?
    /// Claimed vendor legitimate interests.
    public var vendorLegitimateInterests: IDSet?

    /// Creates claimed choices.
    public init(
        purposeConsents: IDSet? = nil, purposeLegitimateInterests: IDSet? = nil, specialFeatureOptIns: IDSet? = nil,
        vendorConsents: IDSet? = nil, vendorLegitimateInterests: IDSet? = nil
    ) {
        self.purposeConsents = purposeConsents
        self.purposeLegitimateInterests = purposeLegitimateInterests
        self.specialFeatureOptIns = specialFeatureOptIns
        self.vendorConsents = vendorConsents
        self.vendorLegitimateInterests = vendorLegitimateInterests
    }

    /// The names of the fields that disagree with `tcString`.
    public func disagreements(with tcString: TCString) -> [String] {
        var fields: [String] = []
        if let purposeConsents, purposeConsents != tcString.purposeConsents { fields.append("purposes") }
        if let purposeLegitimateInterests, purposeLegitimateInterests != tcString.purposeLegitimateInterests {
            fields.append("legitimateInterests")
        }
        if let specialFeatureOptIns, specialFeatureOptIns != tcString.specialFeatureOptIns {
            fields.append("specialFeatures")
        }
        if let vendorConsents, vendorConsents != tcString.vendorConsents { fields.append("vendorConsents") }
        if let vendorLegitimateInterests, vendorLegitimateInterests != tcString.vendorLegitimateInterests {
            fields.append("vendorLegitimateInterests")
        }
        return fields
    }
}
