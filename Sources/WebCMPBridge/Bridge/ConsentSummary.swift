import Foundation

/// What the user chose, as the app reads it after a save: decoded from the TC string (the truth), plus the other
/// strings the CMP produced.
public struct ConsentSummary: Sendable, Hashable {
    /// The TC string, when the CMP produced one.
    public var tcString: String?
    /// The decoded TC string.
    public var decoded: TCString?
    /// Whether GDPR applies, as written to `IABTCF_gdprApplies`.
    public var gdprApplies: Bool?
    /// Google Additional Consent string.
    public var additionalConsent: String?
    /// GPP string.
    public var gppString: String?
    /// US Privacy string.
    public var usPrivacy: String?
    /// When the CMP says the consent expires.
    public var expirationDate: Date?
    /// When it was saved.
    public var savedAt: Date

    /// Creates a summary.
    public init(
        tcString: String?, decoded: TCString?, gdprApplies: Bool?, additionalConsent: String?, gppString: String?,
        usPrivacy: String?, expirationDate: Date?, savedAt: Date
    ) {
        self.tcString = tcString
        self.decoded = decoded
        self.gdprApplies = gdprApplies
        self.additionalConsent = additionalConsent
        self.gppString = gppString
        self.usPrivacy = usPrivacy
        self.expirationDate = expirationDate
        self.savedAt = savedAt
    }

    /// Purposes with consent.
    public var purposeConsents: IDSet { decoded?.purposeConsents ?? [] }
    /// Purposes with legitimate interest.
    public var purposeLegitimateInterests: IDSet { decoded?.purposeLegitimateInterests ?? [] }
    /// Special features opted in.
    public var specialFeatureOptIns: IDSet { decoded?.specialFeatureOptIns ?? [] }
    /// Vendors with consent.
    public var vendorConsents: IDSet { decoded?.vendorConsents ?? [] }
    /// Vendors with legitimate interest.
    public var vendorLegitimateInterests: IDSet { decoded?.vendorLegitimateInterests ?? [] }

    /// Google Consent Mode v2 signals, when there is a TC string.
    public var googleConsentMode: GoogleConsentMode? {
        decoded.map { GoogleConsentMode(tcString: $0, gdprApplies: gdprApplies) }
    }
}
