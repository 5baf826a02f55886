import Testing
@testable import IABInAppConsent

/// Mapping tests over models built in code (independent of the TC string decoder).
@Suite struct IABKeyMappingTests {
    /// A binary string built the slow, obvious way: `'1'` at index id-1, as long as the highest id.
    static func bits(_ ids: [Int]) -> String {
        guard let max = ids.max() else { return "" }
        var characters = [Character](repeating: "0", count: max)
        for id in ids { characters[id - 1] = "1" }
        return String(characters)
    }

    static let richModel = TCString(
        cmpID: 300, cmpVersion: 7, vendorListVersion: 120, policyVersion: 5, useNonStandardTexts: true,
        specialFeatureOptIns: [1], purposeConsents: [1, 3, 4], purposeLegitimateInterests: [2, 7],
        publisherCountryCode: "DE", vendorConsents: [1, 3, 1000], vendorLegitimateInterests: [2],
        publisherRestrictions: [
            PublisherRestriction(purposeID: 2, restrictionType: .notAllowed, vendors: [1, 5]),
            PublisherRestriction(purposeID: 7, restrictionType: .requireConsent, vendors: [3]),
            PublisherRestriction(purposeID: 2, restrictionType: .requireLegitimateInterest, vendors: [5, 8]),
        ],
        disclosedVendors: IDSet(1...10),
        publisherTC: PublisherTC(
            purposeConsents: [1], purposeLegitimateInterests: [2, 3], numberOfCustomPurposes: 3,
            customPurposeConsents: [3], customPurposeLegitimateInterests: [])
    )

    static func map(
        _ model: TCString?, raw: String = "RAW.TC", gpp: GPPString? = nil, ac: String? = nil,
        strings: ConsentStrings = ConsentStrings(), gdprApplies: Bool? = nil, identity: CMPIdentity = CMPIdentity()
    ) throws -> IABKeySet {
        try IABKeySet.mapped(
            tc: model, tcRawValue: model == nil ? nil : raw, gpp: gpp, additionalConsent: ac, strings: strings,
            gdprApplies: gdprApplies, identity: identity)
    }

    @Test func fullTCFKeySetWithExactTypes() throws {
        let keys = try Self.map(
            Self.richModel, ac: "2~1.35~dv.9",
            gdprApplies: true, identity: CMPIdentity(id: 12, version: 3))
        let expected: [IABKey: IABValue] = [
            "IABTCF_CmpSdkID": .int(12),
            "IABTCF_CmpSdkVersion": .int(3),
            "IABTCF_PolicyVersion": .int(5),
            "IABTCF_gdprApplies": .int(1),
            "IABTCF_PublisherCC": .string("DE"),
            "IABTCF_PurposeOneTreatment": .int(0),
            "IABTCF_UseNonStandardTexts": .int(1),
            "IABTCF_UseNonStandardStacks": .int(1),
            "IABTCF_TCString": .string("RAW.TC"),
            "IABTCF_VendorConsents": .string(Self.bits([1, 3, 1000])),
            "IABTCF_VendorLegitimateInterests": .string("01"),
            "IABTCF_DisclosedVendors": .string("1111111111"),
            "IABTCF_PurposeConsents": .string("1011"),
            "IABTCF_PurposeLegitimateInterests": .string("0100001"),
            "IABTCF_SpecialFeaturesOptIns": .string("1"),
            "IABTCF_PublisherRestrictions2": .string("0___0__2"),
            "IABTCF_PublisherRestrictions7": .string("__1_____"),
            "IABTCF_PublisherConsent": .string("1"),
            "IABTCF_PublisherLegitimateInterests": .string("011"),
            "IABTCF_PublisherCustomPurposesConsents": .string("001"),
            "IABTCF_PublisherCustomPurposesLegitimateInterests": .string(""),
            "IABTCF_AddtlConsent": .string("2~1.35~dv.9"),
        ]
        #expect(keys.values == expected)
        #expect(keys[.vendorConsents]?.description.count == 1000)
    }

    @Test func gdprAppliesIsOnlyWrittenWhenKnown() throws {
        let model = TCString(cmpID: 5)
        #expect(try Self.map(model)[.gdprApplies] == nil)
        #expect(try Self.map(model, gdprApplies: false)[.gdprApplies] == .int(0))
        #expect(try Self.map(model, gdprApplies: true)[.gdprApplies] == .int(1))
    }

    @Test func sdkIDFallsBackToTheStringsCMP() throws {
        let keys = try Self.map(TCString(cmpID: 28, cmpVersion: 9))
        #expect(keys[.cmpSDKID] == .int(28))
        #expect(keys[.cmpSDKVersion] == .int(9))
    }

    @Test func absentSegmentsAndEmptySets() throws {
        let keys = try Self.map(TCString(purposeOneTreatment: true))
        #expect(keys[.disclosedVendors] == nil)
        for key in [
            IABKey.publisherConsent, .publisherLegitimateInterests, .publisherCustomPurposesConsents,
            .publisherCustomPurposesLegitimateInterests, .vendorConsents, .purposeConsents, .specialFeatureOptIns,
        ] {
            #expect(keys[key] == .string(""), "\(key)")
        }
        #expect(keys[.purposeOneTreatment] == .int(1))
        #expect(keys[.useNonStandardTexts] == .int(0))
        #expect(!keys.values.keys.contains { $0.rawValue.hasPrefix("IABTCF_PublisherRestrictions") })
        #expect(keys[.additionalConsent] == nil)
        #expect(try Self.map(TCString(disclosedVendors: []))[.disclosedVendors] == .string(""))
    }

    @Test func everyNumberKeyIsAnInteger() throws {
        let keys = try Self.map(Self.richModel, gdprApplies: false)
        for (key, value) in keys.values {
            #expect(key.expectedKind == value.kind, "\(key)")
        }
        let numbers = keys.values.filter { $0.value.kind == .int }.keys.map(\.rawValue).sorted()
        #expect(numbers == [
            "IABTCF_CmpSdkID", "IABTCF_CmpSdkVersion", "IABTCF_PolicyVersion", "IABTCF_PurposeOneTreatment",
            "IABTCF_UseNonStandardStacks", "IABTCF_UseNonStandardTexts", "IABTCF_gdprApplies",
        ])
    }

    @Test func publisherRestrictionRules() {
        let strings = IABKeySet.publisherRestrictionStrings([
            PublisherRestriction(purposeID: 3, restrictionType: .requireLegitimateInterest, vendors: [2]),
            PublisherRestriction(purposeID: 3, restrictionType: .requireConsent, vendors: [2, 4]),
            PublisherRestriction(purposeID: 1, restrictionType: .undefined, vendors: [9]),
            PublisherRestriction(purposeID: 0, restrictionType: .notAllowed, vendors: [9]),
            PublisherRestriction(purposeID: 5, restrictionType: .notAllowed, vendors: []),
            PublisherRestriction(purposeID: 10, restrictionType: .notAllowed, vendors: [1]),
        ])
        #expect(strings.map(\.purpose) == [3, 10])
        #expect(strings.map(\.value) == ["_1_1", "0___"])
        #expect(IABKeySet.publisherRestrictionStrings([]).isEmpty)
    }

    @Test func restrictionOverTheWholeVendorRange() {
        var all = IDSet()
        all.insert(contentsOf: 1...IDSet.maximumID)
        let strings = IABKeySet.publisherRestrictionStrings([
            PublisherRestriction(purposeID: 63, restrictionType: .requireConsent, vendors: all),
            PublisherRestriction(purposeID: 1, restrictionType: .notAllowed, vendors: [IDSet.maximumID]),
        ])
        #expect(strings.map(\.purpose) == [1, 63])
        #expect(strings.allSatisfy { $0.value.utf8.count == IDSet.maximumID })
        #expect(strings[0].value.hasSuffix("_0"))
        #expect(strings[1].value.utf8.allSatisfy { $0 == UInt8(ascii: "1") })
    }

    /// Purpose ids above the 6 bits a TC string carries (only a hand-built `TCString` has them) come after the
    /// others, in order, once each.
    @Test func restrictionsForLargePurposeIDs() {
        let strings = IABKeySet.publisherRestrictionStrings([
            PublisherRestriction(purposeID: 200, restrictionType: .notAllowed, vendors: [2]),
            PublisherRestriction(purposeID: 64, restrictionType: .requireConsent, vendors: [1]),
            PublisherRestriction(purposeID: 200, restrictionType: .requireConsent, vendors: [1, 2]),
            PublisherRestriction(purposeID: 63, restrictionType: .requireLegitimateInterest, vendors: [3]),
        ])
        #expect(strings.map(\.purpose) == [63, 64, 200])
        #expect(strings.map(\.value) == ["__2", "1__", "10_"])
    }

    /// ``IABKeySet/tcfKeyCount`` (the key set's capacity hint) is the number of `IABTCF_*` keys a string with every
    /// optional part produces besides its restriction keys.
    @Test func tcfKeyCountMatchesTheFullKeySet() throws {
        let keys = try Self.map(Self.richModel, gdprApplies: true, identity: CMPIdentity(id: 12, version: 3))
        let restrictionKeys = keys.values.keys.filter { $0.rawValue.hasPrefix(IABKey.publisherRestrictionsPrefix) }
        #expect(!restrictionKeys.isEmpty)
        #expect(keys.values.count - restrictionKeys.count == IABKeySet.tcfKeyCount)
    }

    @Test func usPrivacyValidation() throws {
        for valid in ["1YNN", "1---", "1NY-", "1YYY"] {
            let keys = try IABKeySet(mapping: ConsentStrings(usPrivacy: valid))
            #expect(keys.values == [.usPrivacyString: .string(valid)])
        }
        for invalid in ["1YN", "2YNN", "1ynn", "1YNNN", "1YNX", " 1YN", "1ＹNN"] {
            #expect(throws: IABMappingError.invalidUSPrivacy(invalid)) {
                try IABKeySet(mapping: ConsentStrings(usPrivacy: invalid))
            }
        }
    }

    @Test func emptyInputGivesNoKeys() throws {
        #expect(try IABKeySet(mapping: ConsentStrings()).values.isEmpty)
        #expect(try IABKeySet(mapping: ConsentStrings(tcString: "", usPrivacy: ""), gdprApplies: true).values.isEmpty)
    }

    @Test func sdkIDAndVersionRanges() {
        #expect(throws: IABMappingError.invalidCMPSDKID(4096)) {
            try Self.map(TCString(), identity: CMPIdentity(id: 4096))
        }
        #expect(throws: IABMappingError.invalidCMPSDKID(-1)) {
            try Self.map(TCString(), identity: CMPIdentity(id: -1))
        }
        #expect(throws: IABMappingError.invalidCMPSDKVersion(-5)) {
            try Self.map(TCString(), identity: CMPIdentity(version: -5))
        }
        #expect(throws: IABMappingError.invalidCMPSDKVersion(Int(Int32.max) + 1)) {
            try Self.map(TCString(), identity: CMPIdentity(version: Int(Int32.max) + 1))
        }
    }

    static let gpp = GPPString(
        rawValue: "DBACNY~RAW.TC~1YNN", version: 1, sectionIDs: [2, 6],
        sections: [.init(id: 2, string: "RAW.TC"), .init(id: 6, string: "1YNN")])

    @Test func gppKeysWithTCFEUMirror() throws {
        let keys = try Self.map(
            Self.richModel, gpp: Self.gpp, ac: "1~1",
            strings: ConsentStrings(gppApplicableSections: [2]), gdprApplies: true,
            identity: CMPIdentity(id: 12, version: 3))
        let tcf = try Self.map(Self.richModel, gdprApplies: true, identity: CMPIdentity(id: 12, version: 3))
        #expect(keys["IABGPP_HDR_Version"] == .string("1"))
        #expect(keys["IABGPP_HDR_Sections"] == .string("2_6"))
        #expect(keys["IABGPP_HDR_GppString"] == .string("DBACNY~RAW.TC~1YNN"))
        #expect(keys["IABGPP_GppSID"] == .string("2"))
        #expect(keys["IABGPP_2_String"] == .string("RAW.TC"))
        #expect(keys["IABGPP_2_TCString"] == .string("RAW.TC"))
        #expect(keys["IABGPP_6_String"] == .string("1YNN"))
        #expect(keys["IABGPP_TCFEU2_UseNonStandardStacks"] == .int(1))
        #expect(keys["IABGPP_TCFEU2_gdprApplies"] == .int(1))
        #expect(keys["IABGPP_TCFEU2_CmpSdkID"] == .int(12))
        #expect(keys["IABGPP_TCFEU2_PublisherRestrictions2"] == .string("0___0__2"))
        #expect(keys["IABGPP_TCFEU2_VendorConsents"] == tcf[.vendorConsents])
        #expect(keys["IABGPP_TCFEU2_PublisherCustomPurposesConsents"] == .string("001"))
        #expect(keys["IABGPP_TCFEU2_DisclosedVendors"] == nil)
        #expect(keys["IABGPP_TCFEU2_UseNonStandardTexts"] == nil)
        #expect(keys["IABGPP_TCFEU2_AddtlConsent"] == nil)
        #expect(keys["IABGPP_TCFEU2_TCString"] == nil)
        // Mirror keys: exactly the GPP EU "Key Names" table (18 rows, restrictions for purposes 2 and 7).
        let mirror = keys.values.keys.filter { $0.rawValue.hasPrefix("IABGPP_TCFEU2_") }
        #expect(mirror.count == 18)
        // Every IABTCF key is still there, unchanged.
        for (key, value) in tcf.values { #expect(keys[key] == value, "\(key)") }
        #expect(keys[.additionalConsent] == .string("1~1"))
    }

    static let gppUSP = GPPString(
        rawValue: "DBABTA~1YN-", version: 1, sectionIDs: [6], sections: [.init(id: 6, string: "1YN-")])

    @Test func gppWithoutTCStringGivesOnlyGPPKeys() throws {
        let keys = try Self.map(nil, gpp: Self.gppUSP, ac: "1~1",
            strings: ConsentStrings(usPrivacy: "1YN-"), gdprApplies: false)
        #expect(keys.values == [
            "IABGPP_HDR_Version": .string("1"),
            "IABGPP_HDR_Sections": .string("6"),
            "IABGPP_HDR_GppString": .string("DBABTA~1YN-"),
            "IABGPP_GppSID": .string("6"),
            "IABGPP_6_String": .string("1YN-"),
            // The US Privacy section field by field (GPP CMP API v1.1 "In-App Details" example names).
            "IABGPP_USP1_Version": .int(1),
            "IABGPP_USP1_Notice": .string("Y"),
            "IABGPP_USP1_OptOut": .string("N"),
            "IABGPP_USP1_LSPACovered": .string("-"),
            "IABUSPrivacy_String": .string("1YN-"),
        ])
    }

    /// The US Privacy section's `IABGPP_USP1_*` keys follow the section: a later GPP string without it leaves none in
    /// the store (the write removes every `IABGPP_*` key it does not produce).
    @Test func usp1KeysFollowTheUSPrivacySection() throws {
        let store = ConsentStore.inMemory()
        let withUSP = try IABKeySet(mapping: ConsentStrings(gppString: "DBABzw~1YY-~BAAAAAAAAQA.QA"))
        #expect(withUSP[.gppUSP1Version] == .int(1))
        #expect(withUSP[.gppUSP1Notice] == .string("Y"))
        #expect(withUSP[.gppUSP1OptOut] == .string("Y"))
        #expect(withUSP[.gppUSP1LSPACovered] == .string("-"))
        try store.apply(withUSP, record: nil)
        #expect(store.iabKeys()[.gppUSP1OptOut] == .string("Y"))
        let without = try IABKeySet(mapping: ConsentStrings(gppString: "DBABLA~BAAAAAAAAQA.QA"))
        #expect(without.values.keys.filter { $0.rawValue.hasPrefix("IABGPP_USP1_") }.isEmpty)
        try store.apply(without, record: nil)
        #expect(store.iabKeys().values.keys.filter { $0.rawValue.hasPrefix("IABGPP_USP1_") }.isEmpty)
        // The spec's types, which the store checks on every write.
        #expect(IABKey.gppUSP1Version.expectedKind == .int)
        #expect(IABKey.gppUSP1OptOut.expectedKind == .string)
    }

    @Test func applicableSectionsAreValidated() throws {
        let keys = try Self.map(nil, gpp: Self.gppUSP, strings: ConsentStrings(gppApplicableSections: [-1]))
        #expect(keys[.gppSID] == .string("-1"))
        let both = try Self.map(nil, gpp: Self.gppUSP, strings: ConsentStrings(gppApplicableSections: [7, 6]))
        #expect(both[.gppSID] == .string("7_6"))
        #expect(throws: IABMappingError.invalidApplicableSection(-2)) {
            try Self.map(nil, gpp: Self.gppUSP, strings: ConsentStrings(gppApplicableSections: [2, -2]))
        }
    }

    @Test func knownKeyNames() {
        #expect(IABKey.publisherRestrictions(purpose: 7).rawValue == "IABTCF_PublisherRestrictions7")
        #expect(IABKey.gppSectionString(8).rawValue == "IABGPP_8_String")
        #expect(IABKey.vendorConsents.gppTCFEUMirror?.rawValue == "IABGPP_TCFEU2_VendorConsents")
        #expect(IABKey.tcString.gppTCFEUMirror == .gppTCFEUTCString)
        #expect(IABKey.usPrivacyString.gppTCFEUMirror == nil)
        #expect(IABKey("IABTCF_Anything").isOwnedIABKey)
        #expect(IABKey("IABUSPrivacy_String").isOwnedIABKey)
        for foreign in ["IABTCF_", "IABGPP_", "IABTCF", "IABUSPrivacy_StringX", "IABConsent_CMPPresent", "iabtcf_x", ""] {
            #expect(!IABKey(rawValue: foreign).isOwnedIABKey, "\(foreign)")
        }
    }

    @Test func errorDescriptionsNameTheProblem() {
        #expect(IABMappingError.invalidUSPrivacy("1ZZZ").description.contains("\"1ZZZ\""))
        #expect(IABMappingError.invalidCMPSDKID(9999).description.contains("9999"))
        let long = String(repeating: "x", count: 500) + "\u{0}"
        let description = IABMappingError.invalidUSPrivacy(long).description
        #expect(description.count < 200)
        #expect(!description.contains("\u{0}"))
    }
}
