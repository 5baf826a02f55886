import Foundation

/// A decoded IAB TCF v2 Transparency & Consent string (TCF v2.2 / 2.3 layout; v2.0 and v2.1 strings decode too).
///
/// The model holds every field of the core segment and of the optional segments. Optional segments that were absent
/// are `nil`. Decode a string with ``TCString/init(decoding:)`` (the package's tools and tests produce one with
/// `encoded()`).
///
/// Spec: "Transparency and Consent String with Global Vendor & CMP List Formats" v2.2,
/// <https://github.com/InteractiveAdvertisingBureau/GDPR-Transparency-and-Consent-Framework/blob/master/TCFv2/IAB%20Tech%20Lab%20-%20Consent%20string%20and%20vendor%20list%20formats%20v2.md>,
/// section "The core string".
///
/// The properties' initial values describe an empty, valid TCF 2.2 string; the model is made with the memberwise
/// initializer (the decoder, the module's tests) or `TCString.model(…)` (the package's other modules). No
/// initializer with a body is declared: Swift 6.3 built such an initializer's result field by field, then copied
/// the whole model into the caller's slot and destroyed the original (a retain and a release of every string and
/// set: callgrind, ~670 instructions a decode of a 334-character string); the synthesised memberwise initializer
/// stores the fields in place.
public struct TCString: Sendable, Hashable {
    /// `Version` (6 bits). Always 2 for the formats this package reads.
    public var version: Int = 2
    /// `Created` (36 bits): epoch deciseconds.
    public var createdDeciseconds: Int64 = 0
    /// `LastUpdated` (36 bits): epoch deciseconds.
    public var lastUpdatedDeciseconds: Int64 = 0
    /// `CmpId` (12 bits): the CMP that last updated the string.
    public var cmpID: Int = 0
    /// `CmpVersion` (12 bits).
    public var cmpVersion: Int = 0
    /// `ConsentScreen` (6 bits).
    public var consentScreen: Int = 0
    /// `ConsentLanguage` (2 × 6 bits), upper case, e.g. `"EN"`.
    public var consentLanguage: String = "EN"
    /// `VendorListVersion` (12 bits).
    public var vendorListVersion: Int = 0
    /// `TcfPolicyVersion` (6 bits). 4 for TCF 2.2, 5 for current global vendor lists.
    public var policyVersion: Int = 4
    /// `IsServiceSpecific` (1 bit). The spec requires 1.
    public var isServiceSpecific: Bool = true
    /// `UseNonStandardTexts` (1 bit; `UseNonStandardStacks` before TCF 2.2).
    public var useNonStandardTexts: Bool = false
    /// `SpecialFeatureOptIns` (12 bits): special feature ids the user opted in to.
    public var specialFeatureOptIns: IDSet = IDSet()
    /// `PurposesConsent` (24 bits).
    public var purposeConsents: IDSet = IDSet()
    /// `PurposesLITransparency` (24 bits).
    public var purposeLegitimateInterests: IDSet = IDSet()
    /// `PurposeOneTreatment` (1 bit): `true` when purpose 1 was not disclosed.
    public var purposeOneTreatment: Bool = false
    /// `PublisherCC` (2 × 6 bits), upper case ISO 3166-1 alpha-2, default `"AA"`.
    public var publisherCountryCode: String = "AA"
    /// Vendor Consent Section.
    public var vendorConsents: IDSet = IDSet()
    /// Vendor Legitimate Interest Section.
    public var vendorLegitimateInterests: IDSet = IDSet()
    /// Publisher Restrictions Section, in string order.
    package var publisherRestrictions: [PublisherRestriction] = []
    /// DisclosedVendors segment (type 1); `nil` when absent. Mandatory from TCF 2.3 on.
    public var disclosedVendors: IDSet? = nil
    /// AllowedVendors segment (type 2, deprecated out-of-band signalling); `nil` when absent.
    public var allowedVendors: IDSet? = nil
    /// PublisherTC segment (type 3); `nil` when absent.
    package var publisherTC: PublisherTC? = nil

    /// `Created` as a date.
    public var created: Date { Date(timeIntervalSince1970: Double(createdDeciseconds) / 10) }

    /// `LastUpdated` as a date.
    public var lastUpdated: Date { Date(timeIntervalSince1970: Double(lastUpdatedDeciseconds) / 10) }
}

extension TCString {
    /// A model, for the other modules of the package (the memberwise initializer is internal). Defaults describe an
    /// empty, valid TCF 2.2 string.
    package static func model(
        version: Int = 2,
        createdDeciseconds: Int64 = 0,
        lastUpdatedDeciseconds: Int64 = 0,
        cmpID: Int = 0,
        cmpVersion: Int = 0,
        consentScreen: Int = 0,
        consentLanguage: String = "EN",
        vendorListVersion: Int = 0,
        policyVersion: Int = 4,
        isServiceSpecific: Bool = true,
        useNonStandardTexts: Bool = false,
        specialFeatureOptIns: IDSet = IDSet(),
        purposeConsents: IDSet = IDSet(),
        purposeLegitimateInterests: IDSet = IDSet(),
        purposeOneTreatment: Bool = false,
        publisherCountryCode: String = "AA",
        vendorConsents: IDSet = IDSet(),
        vendorLegitimateInterests: IDSet = IDSet(),
        publisherRestrictions: [PublisherRestriction] = [],
        disclosedVendors: IDSet? = nil,
        allowedVendors: IDSet? = nil,
        publisherTC: PublisherTC? = nil
    ) -> TCString {
        TCString(
            version: version, createdDeciseconds: createdDeciseconds, lastUpdatedDeciseconds: lastUpdatedDeciseconds,
            cmpID: cmpID, cmpVersion: cmpVersion, consentScreen: consentScreen, consentLanguage: consentLanguage,
            vendorListVersion: vendorListVersion, policyVersion: policyVersion, isServiceSpecific: isServiceSpecific,
            useNonStandardTexts: useNonStandardTexts, specialFeatureOptIns: specialFeatureOptIns,
            purposeConsents: purposeConsents, purposeLegitimateInterests: purposeLegitimateInterests,
            purposeOneTreatment: purposeOneTreatment, publisherCountryCode: publisherCountryCode,
            vendorConsents: vendorConsents, vendorLegitimateInterests: vendorLegitimateInterests,
            publisherRestrictions: publisherRestrictions, disclosedVendors: disclosedVendors,
            allowedVendors: allowedVendors, publisherTC: publisherTC)
    }
}

/// One entry of the Publisher Restrictions Section: a purpose, a restriction type and the vendors it applies to.
///
/// Spec: TC string format v2, "Publisher Restrictions Section".
package struct PublisherRestriction: Sendable, Hashable {
    /// `PurposeId` (6 bits).
    package var purposeID: Int
    /// `RestrictionType` (2 bits).
    package var restrictionType: RestrictionType
    /// The vendors the restriction applies to (range entries; ids need not exist in the vendor list).
    package var vendors: IDSet

    /// Creates a restriction entry.
    package init(purposeID: Int, restrictionType: RestrictionType, vendors: IDSet) {
        self.purposeID = purposeID
        self.restrictionType = restrictionType
        self.vendors = vendors
    }
}

/// `RestrictionType` of a publisher restriction.
package enum RestrictionType: Int, Sendable, Hashable, CaseIterable {
    /// 0: "Purpose Flatly Not Allowed by Publisher".
    case notAllowed = 0
    /// 1: "Require Consent".
    case requireConsent = 1
    /// 2: "Require Legitimate Interest".
    case requireLegitimateInterest = 2
    /// 3: "UNDEFINED (not used)". Carried through so that decoding is lossless.
    case undefined = 3
}

/// The PublisherTC segment (type 3): the publisher's own purposes and custom purposes.
///
/// Spec: TC string format v2, "Publisher Purposes Transparency and Consent".
package struct PublisherTC: Sendable, Hashable {
    /// `PubPurposesConsent` (24 bits).
    package var purposeConsents: IDSet = IDSet()
    /// `PubPurposesLITransparency` (24 bits).
    package var purposeLegitimateInterests: IDSet = IDSet()
    /// `NumCustomPurposes` (6 bits): how many custom purposes the publisher declared (0–63).
    package var numberOfCustomPurposes: Int
    /// `CustomPurposesConsent` (ids 1...numberOfCustomPurposes).
    package var customPurposeConsents: IDSet
    /// `CustomPurposesLITransparency` (ids 1...numberOfCustomPurposes).
    package var customPurposeLegitimateInterests: IDSet

    /// Creates a PublisherTC segment.
    init(
        purposeConsents: IDSet = [],
        purposeLegitimateInterests: IDSet = [],
        numberOfCustomPurposes: Int = 0,
        customPurposeConsents: IDSet = [],
        customPurposeLegitimateInterests: IDSet = []
    ) {
        self.purposeConsents = purposeConsents
        self.purposeLegitimateInterests = purposeLegitimateInterests
        self.numberOfCustomPurposes = numberOfCustomPurposes
        self.customPurposeConsents = customPurposeConsents
        self.customPurposeLegitimateInterests = customPurposeLegitimateInterests
    }
}
