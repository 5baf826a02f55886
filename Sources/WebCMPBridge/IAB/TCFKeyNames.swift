/// The key names of one family of TCF-derived keys: the `IABTCF_*` keys, or their GPP TCF EU mirror
/// `IABGPP_TCFEU2_*` (GPP "IAB TCF Europe Technical Specification", "Key Names"). One mapping routine fills both.
struct TCFKeyNames: Sendable {
    var cmpSdkID: IABKey
    var cmpSdkVersion: IABKey
    var policyVersion: IABKey
    var gdprApplies: IABKey
    var publisherCC: IABKey
    var purposeOneTreatment: IABKey
    /// Every name the `UseNonStandardTexts` bit is written under.
    var useNonStandardTexts: [IABKey]
    var tcString: IABKey
    var vendorConsents: IABKey
    var vendorLegitimateInterests: IABKey
    /// `nil` when the family has no DisclosedVendors key (the GPP table has none).
    var disclosedVendors: IABKey?
    var purposeConsents: IABKey
    var purposeLegitimateInterests: IABKey
    var specialFeaturesOptIns: IABKey
    /// Prefix of the per-purpose publisher restriction keys; the purpose id is appended.
    var publisherRestrictionsPrefix: String
    var publisherConsent: IABKey
    var publisherLegitimateInterests: IABKey
    var publisherCustomPurposesConsents: IABKey
    var publisherCustomPurposesLegitimateInterests: IABKey

    /// The `IABTCF_*` keys of the CMP API v2.2 "In-App Details" table. The `UseNonStandardTexts` bit is written under
    /// its TCF 2.2 name and under the legacy `IABTCF_UseNonStandardStacks` name (renamed in 2023; older SDKs and the
    /// GPP TCF EU mapping table still use the old name).
    static let tcf = TCFKeyNames(
        cmpSdkID: .cmpSdkID,
        cmpSdkVersion: .cmpSdkVersion,
        policyVersion: .policyVersion,
        gdprApplies: .gdprApplies,
        publisherCC: .publisherCC,
        purposeOneTreatment: .purposeOneTreatment,
        useNonStandardTexts: [.useNonStandardTexts, .useNonStandardStacks],
        tcString: .tcString,
        vendorConsents: .vendorConsents,
        vendorLegitimateInterests: .vendorLegitimateInterests,
        disclosedVendors: .disclosedVendors,
        purposeConsents: .purposeConsents,
        purposeLegitimateInterests: .purposeLegitimateInterests,
        specialFeaturesOptIns: .specialFeaturesOptIns,
        publisherRestrictionsPrefix: IABKey.publisherRestrictionsPrefix,
        publisherConsent: .publisherConsent,
        publisherLegitimateInterests: .publisherLegitimateInterests,
        publisherCustomPurposesConsents: .publisherCustomPurposesConsents,
        publisherCustomPurposesLegitimateInterests: .publisherCustomPurposesLegitimateInterests
    )

    /// The GPP TCF EU mirror, exactly as the GPP TCF EU "Key Names" table lists it: `IABTCF_X` becomes
    /// `IABGPP_TCFEU2_X`, except the TC string (`IABGPP_2_TCString`); only the legacy `UseNonStandardStacks` name;
    /// no DisclosedVendors key.
    static let gppTCFEU2 = TCFKeyNames(
        cmpSdkID: mirror(.cmpSdkID),
        cmpSdkVersion: mirror(.cmpSdkVersion),
        policyVersion: mirror(.policyVersion),
        gdprApplies: mirror(.gdprApplies),
        publisherCC: mirror(.publisherCC),
        purposeOneTreatment: mirror(.purposeOneTreatment),
        useNonStandardTexts: [mirror(.useNonStandardStacks)],
        tcString: .gppTCFEUTCString,
        vendorConsents: mirror(.vendorConsents),
        vendorLegitimateInterests: mirror(.vendorLegitimateInterests),
        disclosedVendors: nil,
        purposeConsents: mirror(.purposeConsents),
        purposeLegitimateInterests: mirror(.purposeLegitimateInterests),
        specialFeaturesOptIns: mirror(.specialFeaturesOptIns),
        publisherRestrictionsPrefix: mirror(IABKey(rawValue: IABKey.publisherRestrictionsPrefix)).rawValue,
        publisherConsent: mirror(.publisherConsent),
        publisherLegitimateInterests: mirror(.publisherLegitimateInterests),
        publisherCustomPurposesConsents: mirror(.publisherCustomPurposesConsents),
        publisherCustomPurposesLegitimateInterests: mirror(.publisherCustomPurposesLegitimateInterests)
    )

    /// The GPP TCF EU prefix that replaces `IABTCF_`.
    static let gppTCFEU2Prefix = "IABGPP_TCFEU2_"

    private static func mirror(_ key: IABKey) -> IABKey {
        IABKey(rawValue: gppTCFEU2Prefix + key.rawValue.dropFirst("IABTCF_".count))
    }
}
