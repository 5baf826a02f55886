/// The keys of the IAB in-app specifications, and the key families this package owns.
///
/// Spec: TCF "Consent Management Platform API" v2.2, "In-App Details" (key table);
/// GPP "CMP API Specification" v1.1, "In-App Details"; GPP "IAB TCF Europe Technical Specification", "Key Names";
/// USP API v1.0, "In-app support"; Google "Additional Consent technical specification".
extension IABKey {
    // MARK: TCF v2 (`IABTCF_*`)

    /// `IABTCF_CmpSdkID` (Number): the CMP SDK's registered id.
    public static let cmpSdkID: IABKey = "IABTCF_CmpSdkID"
    /// `IABTCF_CmpSdkVersion` (Number).
    public static let cmpSdkVersion: IABKey = "IABTCF_CmpSdkVersion"
    /// `IABTCF_PolicyVersion` (Number): the TC string's `TcfPolicyVersion`.
    public static let policyVersion: IABKey = "IABTCF_PolicyVersion"
    /// `IABTCF_gdprApplies` (Number 0/1; unset = undetermined).
    public static let gdprApplies: IABKey = "IABTCF_gdprApplies"
    /// `IABTCF_PublisherCC` (String).
    public static let publisherCC: IABKey = "IABTCF_PublisherCC"
    /// `IABTCF_PurposeOneTreatment` (Number).
    public static let purposeOneTreatment: IABKey = "IABTCF_PurposeOneTreatment"
    /// `IABTCF_UseNonStandardTexts` (Number), the TCF 2.2 name of the bit.
    public static let useNonStandardTexts: IABKey = "IABTCF_UseNonStandardTexts"
    /// `IABTCF_UseNonStandardStacks` (Number), the pre-2.2 name of the same bit, still read by older SDKs.
    public static let useNonStandardStacks: IABKey = "IABTCF_UseNonStandardStacks"
    /// `IABTCF_TCString` (String): the full TC string, verbatim.
    public static let tcString: IABKey = "IABTCF_TCString"
    /// `IABTCF_VendorConsents` (binary string).
    public static let vendorConsents: IABKey = "IABTCF_VendorConsents"
    /// `IABTCF_VendorLegitimateInterests` (binary string).
    public static let vendorLegitimateInterests: IABKey = "IABTCF_VendorLegitimateInterests"
    /// `IABTCF_DisclosedVendors` (binary string), TCF 2.3; written only when the segment is present.
    public static let disclosedVendors: IABKey = "IABTCF_DisclosedVendors"
    /// `IABTCF_PurposeConsents` (binary string).
    public static let purposeConsents: IABKey = "IABTCF_PurposeConsents"
    /// `IABTCF_PurposeLegitimateInterests` (binary string).
    public static let purposeLegitimateInterests: IABKey = "IABTCF_PurposeLegitimateInterests"
    /// `IABTCF_SpecialFeaturesOptIns` (binary string).
    public static let specialFeaturesOptIns: IABKey = "IABTCF_SpecialFeaturesOptIns"
    /// `IABTCF_PublisherConsent` (binary string).
    public static let publisherConsent: IABKey = "IABTCF_PublisherConsent"
    /// `IABTCF_PublisherLegitimateInterests` (binary string).
    public static let publisherLegitimateInterests: IABKey = "IABTCF_PublisherLegitimateInterests"
    /// `IABTCF_PublisherCustomPurposesConsents` (binary string).
    public static let publisherCustomPurposesConsents: IABKey = "IABTCF_PublisherCustomPurposesConsents"
    /// `IABTCF_PublisherCustomPurposesLegitimateInterests` (binary string).
    public static let publisherCustomPurposesLegitimateInterests: IABKey =
        "IABTCF_PublisherCustomPurposesLegitimateInterests"
    /// `IABTCF_AddtlConsent` (String): Google's Additional Consent string (not an IAB key; Google AC spec).
    public static let additionalConsent: IABKey = "IABTCF_AddtlConsent"

    /// `IABTCF_PublisherRestrictions{purposeID}` (String of `'0'`/`'1'`/`'2'`/`'_'`).
    public static func publisherRestrictions(purposeID: Int) -> IABKey {
        IABKey(rawValue: publisherRestrictionsPrefix + String(purposeID))
    }

    /// The prefix of the `IABTCF_PublisherRestrictions{ID}` keys.
    public static let publisherRestrictionsPrefix = "IABTCF_PublisherRestrictions"

    // MARK: GPP (`IABGPP_*`)

    /// `IABGPP_HDR_Version` (String, per the GPP key table).
    public static let gppVersion: IABKey = "IABGPP_HDR_Version"
    /// `IABGPP_HDR_Sections` (String): the header's section ids joined with `_`, e.g. `"2_6"`.
    public static let gppSections: IABKey = "IABGPP_HDR_Sections"
    /// `IABGPP_HDR_GppString` (String): the full GPP string.
    public static let gppString: IABKey = "IABGPP_HDR_GppString"
    /// `IABGPP_GppSID` (String): the section ids in force, joined with `_`.
    public static let gppSID: IABKey = "IABGPP_GppSID"
    /// `IABGPP_2_TCString` (String): the TCF EU section's TC string, per the GPP TCF EU "Key Names" table.
    public static let gppTCFEUTCString: IABKey = "IABGPP_2_TCString"

    /// `IABGPP_{sectionID}_String` (String): one GPP section's encoded string.
    public static func gppSectionString(sectionID: Int) -> IABKey {
        IABKey(rawValue: "IABGPP_" + String(sectionID) + "_String")
    }

    // MARK: US Privacy

    /// `IABUSPrivacy_String` (String), e.g. `"1YNN"`.
    public static let usPrivacyString: IABKey = "IABUSPrivacy_String"

    // MARK: Families

    /// The key prefixes of the families this package writes and owns (every key starting with one of them is
    /// removed when it is no longer produced).
    public static let ownedPrefixes = ["IABTCF_", "IABGPP_"]

    /// Keys this package owns outside ``ownedPrefixes``.
    public static let ownedExactKeys = ["IABUSPrivacy_String"]

    /// Whether the key belongs to a family this package writes (`IABTCF_*`, `IABGPP_*`, `IABUSPrivacy_String`).
    public var isOwnedFamily: Bool {
        IABKey.ownedPrefixes.contains { rawValue.hasPrefix($0) } || IABKey.ownedExactKeys.contains(rawValue)
    }
}
