/// The keys this package writes, with the value type each one must have.
///
/// Spec: TCF "Consent Management Platform API" v2.2, "In-App Details" (key table); GPP "CMP API Specification" v1.1,
/// "In-App Details"; GPP "IAB TCF Europe Technical Specification", "Key Names"; USP API v1.0, "In-app support".
///
/// The key strings are exactly the specs'; the Swift names follow Swift casing (`cmpSDKID` for `IABTCF_CmpSdkID`)
/// and the names of the ``TCString`` fields they carry (`specialFeatureOptIns` for `IABTCF_SpecialFeaturesOptIns`).
extension IABKey {
    // MARK: TCF v2 (`IABTCF_*`), CMP API v2.2 "In-App Details"

    /// `IABTCF_CmpSdkID` (Number): the CMP SDK id; its presence tells vendors a CMP is present.
    public static let cmpSDKID: IABKey = "IABTCF_CmpSdkID"
    /// `IABTCF_CmpSdkVersion` (Number).
    public static let cmpSDKVersion: IABKey = "IABTCF_CmpSdkVersion"
    /// `IABTCF_PolicyVersion` (Number): the TC string's `TcfPolicyVersion`.
    public static let policyVersion: IABKey = "IABTCF_PolicyVersion"
    /// `IABTCF_gdprApplies` (Number 0/1; unset while undetermined).
    public static let gdprApplies: IABKey = "IABTCF_gdprApplies"
    /// `IABTCF_PublisherCC` (String, ISO 3166-1 alpha-2, default `AA`).
    public static let publisherCC: IABKey = "IABTCF_PublisherCC"
    /// `IABTCF_PurposeOneTreatment` (Number 0/1).
    public static let purposeOneTreatment: IABKey = "IABTCF_PurposeOneTreatment"
    /// `IABTCF_UseNonStandardTexts` (Number 0/1), the TCF 2.2 name of the bit.
    public static let useNonStandardTexts: IABKey = "IABTCF_UseNonStandardTexts"
    /// `IABTCF_UseNonStandardStacks` (Number 0/1): the pre-2.2 name of the same bit, still read by older SDKs and
    /// still named by the GPP EU section's key table. This package writes it as a mirror of
    /// ``useNonStandardTexts``.
    public static let useNonStandardStacks: IABKey = "IABTCF_UseNonStandardStacks"
    /// `IABTCF_TCString` (String): the full TC string, verbatim.
    public static let tcString: IABKey = "IABTCF_TCString"
    /// `IABTCF_VendorConsents` (binary string).
    public static let vendorConsents: IABKey = "IABTCF_VendorConsents"
    /// `IABTCF_VendorLegitimateInterests` (binary string).
    public static let vendorLegitimateInterests: IABKey = "IABTCF_VendorLegitimateInterests"
    /// `IABTCF_DisclosedVendors` (binary string; TCF 2.3, written when the segment is present).
    public static let disclosedVendors: IABKey = "IABTCF_DisclosedVendors"
    /// `IABTCF_PurposeConsents` (binary string).
    public static let purposeConsents: IABKey = "IABTCF_PurposeConsents"
    /// `IABTCF_PurposeLegitimateInterests` (binary string).
    public static let purposeLegitimateInterests: IABKey = "IABTCF_PurposeLegitimateInterests"
    /// `IABTCF_SpecialFeaturesOptIns` (binary string).
    public static let specialFeatureOptIns: IABKey = "IABTCF_SpecialFeaturesOptIns"
    /// `IABTCF_PublisherConsent` (binary string, PublisherTC segment).
    public static let publisherConsent: IABKey = "IABTCF_PublisherConsent"
    /// `IABTCF_PublisherLegitimateInterests` (binary string, PublisherTC segment).
    public static let publisherLegitimateInterests: IABKey = "IABTCF_PublisherLegitimateInterests"
    /// `IABTCF_PublisherCustomPurposesConsents` (binary string, PublisherTC segment).
    public static let publisherCustomPurposesConsents: IABKey = "IABTCF_PublisherCustomPurposesConsents"
    /// `IABTCF_PublisherCustomPurposesLegitimateInterests` (binary string, PublisherTC segment).
    public static let publisherCustomPurposesLegitimateInterests: IABKey =
        "IABTCF_PublisherCustomPurposesLegitimateInterests"
    /// `IABTCF_AddtlConsent` (String): Google's Additional Consent string (not in the IAB spec; Google AC spec).
    public static let additionalConsent: IABKey = "IABTCF_AddtlConsent"

    /// `IABTCF_PublisherRestrictions{ID}` (string of `0`/`1`/`2`/`_`) for purpose `purposeID`.
    public static func publisherRestrictions(purpose purposeID: Int) -> IABKey {
        if purposeRestrictionKeys.indices.contains(purposeID) { return purposeRestrictionKeys[purposeID] }
        return IABKey(rawValue: publisherRestrictionsPrefix + String(purposeID))
    }

    /// The restriction keys for every 6-bit purpose id, built once (the mapping is benchmarked).
    private static let purposeRestrictionKeys: [IABKey] = (0..<64).map {
        IABKey(rawValue: publisherRestrictionsPrefix + String($0))
    }

    /// The name of the publisher restriction keys without the purpose id.
    static let publisherRestrictionsPrefix = "IABTCF_PublisherRestrictions"
    /// The GPP EU mirror of ``publisherRestrictionsPrefix``.
    static let gppPublisherRestrictionsPrefix = "IABGPP_TCFEU2_PublisherRestrictions"

    // MARK: GPP (`IABGPP_*`), GPP CMP API "In-App Details" and GPP EU section "Key Names"

    /// `IABGPP_HDR_Version` (String, e.g. `"1"`).
    public static let gppVersion: IABKey = "IABGPP_HDR_Version"
    /// `IABGPP_HDR_Sections` (String): the header's section ids joined by `_`, e.g. `"2_6"`.
    public static let gppSections: IABKey = "IABGPP_HDR_Sections"
    /// `IABGPP_HDR_GppString` (String): the full GPP string, verbatim.
    public static let gppString: IABKey = "IABGPP_HDR_GppString"
    /// `IABGPP_GppSID` (String): the section ids in force, joined by `_`.
    public static let gppSID: IABKey = "IABGPP_GppSID"
    /// `IABGPP_2_TCString` (String): the TCF EU section (id 2) string, name from the GPP EU "Key Names" table.
    public static let gppTCFEUTCString: IABKey = "IABGPP_2_TCString"

    /// `IABGPP_{id}_String` (String): the encoded string of GPP section `sectionID`.
    public static func gppSectionString(_ sectionID: Int) -> IABKey {
        IABKey(rawValue: "IABGPP_" + String(sectionID) + "_String")
    }

    /// The US Privacy section (id 6) field by field, under the key names GPP CMP API v1.1 "In-App Details" gives as
    /// examples (`IABGPP_USP1_Version`, `IABGPP_USP1_Notice`, `IABGPP_USP1_OptOut`, `IABGPP_USP1_LSPACovered`): the
    /// version a Number, each other field its one character (`Y`, `N` or `-`) as a String (IAB "US Privacy String"
    /// v1.0: Notice, Opt-Out Sale, LSPA Covered Transaction).
    static let gppUSP1Version: IABKey = "IABGPP_USP1_Version"
    static let gppUSP1Notice: IABKey = "IABGPP_USP1_Notice"
    static let gppUSP1OptOut: IABKey = "IABGPP_USP1_OptOut"
    static let gppUSP1LSPACovered: IABKey = "IABGPP_USP1_LSPACovered"

    /// The GPP EU mirror of an `IABTCF_*` key: `IABTCF_X` → `IABGPP_TCFEU2_X` (GPP EU section, "Key Names").
    ///
    /// `IABTCF_TCString` maps to ``gppTCFEUTCString`` instead; keys outside the `IABTCF_` family return `nil`.
    var gppTCFEUMirror: IABKey? {
        guard rawValue.hasPrefix(IABKey.tcfPrefix) else { return nil }
        if self == .tcString { return .gppTCFEUTCString }
        return IABKey(rawValue: "IABGPP_TCFEU2_" + rawValue.dropFirst(IABKey.tcfPrefix.count))
    }

    // MARK: US Privacy, USP API v1.0 "In-app support"

    /// `IABUSPrivacy_String` (String, e.g. `"1YNN"`).
    public static let usPrivacyString: IABKey = "IABUSPrivacy_String"

    // MARK: Families

    /// The prefix of every TCF v2 key.
    static let tcfPrefix = "IABTCF_"
    /// The prefix of every GPP key.
    static let gppPrefix = "IABGPP_"

    /// Whether the key belongs to a family this package owns and clears: `IABTCF_*`, `IABGPP_*` or
    /// `IABUSPrivacy_String`.
    var isOwnedIABKey: Bool {
        (rawValue.hasPrefix(IABKey.tcfPrefix) && rawValue.utf8.count > IABKey.tcfPrefix.utf8.count)
            || (rawValue.hasPrefix(IABKey.gppPrefix) && rawValue.utf8.count > IABKey.gppPrefix.utf8.count)
            || self == .usPrivacyString
    }

    /// The value type the specs give this key, when this package knows it.
    var expectedKind: IABValue.Kind? {
        if let kind = IABKey.knownKinds[self] { return kind }
        if rawValue.hasPrefix(IABKey.publisherRestrictionsPrefix)
            || rawValue.hasPrefix(IABKey.gppPublisherRestrictionsPrefix)
        {
            return .string
        }
        if rawValue.hasPrefix("IABGPP_"), rawValue.hasSuffix("_String") { return .string }
        if let kind = GPPUSSection.keyKinds[self] { return kind }
        return nil
    }

    private static let knownKinds: [IABKey: IABValue.Kind] = {
        var kinds: [IABKey: IABValue.Kind] = [:]
        let numbers: [IABKey] = [
            .cmpSDKID, .cmpSDKVersion, .policyVersion, .gdprApplies, .purposeOneTreatment, .useNonStandardTexts,
            .useNonStandardStacks, .gppUSP1Version,
        ]
        let strings: [IABKey] = [
            .publisherCC, .tcString, .additionalConsent, .usPrivacyString, .gppVersion, .gppSections, .gppString,
            .gppSID, .gppTCFEUTCString, .gppUSP1Notice, .gppUSP1OptOut, .gppUSP1LSPACovered,
        ]
        for key in numbers {
            kinds[key] = .int
            if let mirror = key.gppTCFEUMirror { kinds[mirror] = .int }
        }
        for key in strings + binaryStringKeys {
            kinds[key] = .string
        }
        for key in [IABKey.publisherCC] + binaryStringKeys {
            if let mirror = key.gppTCFEUMirror { kinds[mirror] = .string }
        }
        return kinds
    }()

    /// The keys whose values are IAB binary strings (`'0'`/`'1'` only, index 0 = id 1).
    static let binaryStringKeys: [IABKey] = [
        .vendorConsents, .vendorLegitimateInterests, .disclosedVendors, .purposeConsents,
        .purposeLegitimateInterests, .specialFeatureOptIns, .publisherConsent, .publisherLegitimateInterests,
        .publisherCustomPurposesConsents, .publisherCustomPurposesLegitimateInterests,
    ]
}

extension IABValue {
    /// The two value types the specs allow.
    package enum Kind: String, Sendable, Hashable {
        /// An integer ("Number").
        case int
        /// A string.
        case string
    }

    /// The kind of this value.
    var kind: Kind {
        switch self {
        case .int: return .int
        case .string: return .string
        }
    }
}
