import Foundation

/// What the user chose, as the app reads it after a save: decoded from the TC string (the truth), plus the other
/// strings the CMP produced.
public struct ConsentSummary: Sendable, Hashable {
    /// The consent strings.
    public var strings: ConsentStrings
    /// The decoded TC string.
    public var decoded: TCString?
    /// Whether GDPR applies, as written to `IABTCF_gdprApplies`.
    public var gdprApplies: Bool?
    /// When the CMP says the consent expires.
    public var expirationDate: Date?
    /// When the user gave it.
    public var savedAt: Date
    /// Where it came from.
    public var source: ConsentSource

    /// Creates a summary.
    public init(
        strings: ConsentStrings, decoded: TCString?, gdprApplies: Bool?, expirationDate: Date?, savedAt: Date,
        source: ConsentSource = .cmpPage
    ) {
        self.strings = strings
        self.decoded = decoded
        self.gdprApplies = gdprApplies
        self.expirationDate = expirationDate
        self.savedAt = savedAt
        self.source = source
    }

    /// The TC string, when the CMP produced one.
    public var tcString: String? { strings.tcString }
    /// The GPP string, when the CMP produced one.
    public var gppString: String? { strings.gppString }
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
