import Testing
@testable import WebCMPBridge

/// Tests of the in-app key mapping core over constructed TC string models (no decoding involved).
@Suite struct IABKeyMappingTests {
    private func map(
        _ tc: TCString, raw: String = "RAW", context: IABKeySet.TCFContext = .init(), names: TCFKeyNames = .tcf
    ) -> [IABKey: IABValue] {
        var values: [IABKey: IABValue] = [:]
        IABKeySet.addTCFKeys(tc, raw: raw, context: context, names: names, to: &values)
        return values
    }

    @Test func fullModelProducesEveryKeyWithSpecTypes() {
        let tc = TCString(
            policyVersion: 5, useNonStandardTexts: true, specialFeatureOptIns: [2],
            purposeConsents: [1, 3, 4], purposeLegitimateInterests: [2, 7], purposeOneTreatment: true,
            publisherCountryCode: "DE", vendorConsents: [1, 5, 130], vendorLegitimateInterests: [3],
            publisherRestrictions: [PublisherRestriction(purposeID: 2, restrictionType: .requireConsent, vendors: [2, 4])],
            disclosedVendors: [1, 2, 3, 5, 130],
            publisherTC: PublisherTC(purposeConsents: [1], purposeLegitimateInterests: [], numberOfCustomPurposes: 3,
                                     customPurposeConsents: [3], customPurposeLegitimateInterests: [1, 2])
        )
        let values = map(tc, raw: "CQ-raw.string", context: .init(gdprApplies: true, cmpSDKID: 300, cmpSDKVersion: 7))
        let vendors = "1" + String(repeating: "0", count: 3) + "1" + String(repeating: "0", count: 124) + "1"
        let expected: [IABKey: IABValue] = [
            "IABTCF_CmpSdkID": .int(300),
            "IABTCF_CmpSdkVersion": .int(7),
            "IABTCF_gdprApplies": .int(1),
            "IABTCF_PolicyVersion": .int(5),
            "IABTCF_PublisherCC": .string("DE"),
            "IABTCF_PurposeOneTreatment": .int(1),
            "IABTCF_UseNonStandardTexts": .int(1),
            "IABTCF_UseNonStandardStacks": .int(1),
            "IABTCF_TCString": .string("CQ-raw.string"),
            "IABTCF_VendorConsents": .string(vendors),
            "IABTCF_VendorLegitimateInterests": .string("001"),
            "IABTCF_DisclosedVendors": .string("11101" + String(repeating: "0", count: 124) + "1"),
            "IABTCF_PurposeConsents": .string("1011"),
            "IABTCF_PurposeLegitimateInterests": .string("0100001"),
            "IABTCF_SpecialFeaturesOptIns": .string("01"),
            "IABTCF_PublisherRestrictions2": .string("_1_1"),
            "IABTCF_PublisherConsent": .string("1"),
            "IABTCF_PublisherLegitimateInterests": .string(""),
            "IABTCF_PublisherCustomPurposesConsents": .string("001"),
            "IABTCF_PublisherCustomPurposesLegitimateInterests": .string("11"),
        ]
        #expect(values == expected)
        #expect(vendors.count == 130)
    }

    @Test func unknownFactsStayUnsetAndAbsentSegmentsFollowTheReference() {
        let values = map(TCString())
        #expect(values[.gdprApplies] == nil)
        #expect(values[.cmpSdkID] == nil)
        #expect(values[.cmpSdkVersion] == nil)
        #expect(values[.disclosedVendors] == nil)
        #expect(values[.publisherConsent] == .string(""))
        #expect(values[.publisherCustomPurposesLegitimateInterests] == .string(""))
        #expect(values[.vendorConsents] == .string(""))
        #expect(values[.purposeOneTreatment] == .int(0))
        #expect(values[.publisherCC] == .string("AA"))
        #expect(values.keys.allSatisfy { !$0.rawValue.hasPrefix(IABKey.publisherRestrictionsPrefix) })
        #expect(map(TCString(), context: .init(gdprApplies: false))[.gdprApplies] == .int(0))
        #expect(map(TCString(disclosedVendors: []))[.disclosedVendors] == .string(""))
    }

    @Test func restrictionStringsShareTheLengthOfTheHighestRestrictedVendor() {
        let restrictions = [
            PublisherRestriction(purposeID: 1, restrictionType: .notAllowed, vendors: [3]),
            PublisherRestriction(purposeID: 7, restrictionType: .requireLegitimateInterest, vendors: [1, 6]),
            PublisherRestriction(purposeID: 7, restrictionType: .requireConsent, vendors: [2]),
            // Conflicting entries for vendor 6 / purpose 7: the stricter (lower) type wins.
            PublisherRestriction(purposeID: 7, restrictionType: .notAllowed, vendors: [6]),
            // Type 3 and purpose 0 are not usable and do not extend the length.
            PublisherRestriction(purposeID: 8, restrictionType: .undefined, vendors: [50]),
            PublisherRestriction(purposeID: 0, restrictionType: .notAllowed, vendors: [60]),
        ]
        let strings = IABKeySet.restrictionStrings(restrictions)
        #expect(strings.map(\.purposeID) == [1, 7])
        #expect(strings.map(\.value) == ["__0___", "21___0"])
        #expect(IABKeySet.restrictionStrings([]).isEmpty)
        let keys = map(TCString(publisherRestrictions: restrictions))
        #expect(keys["IABTCF_PublisherRestrictions7"] == .string("21___0"))
        #expect(keys["IABTCF_PublisherRestrictions8"] == nil)
    }

    @Test func gppMirrorUsesTheGPPTableNames() {
        let values = map(TCString(purposeConsents: [1]), raw: "SECTION", context: .init(gdprApplies: true),
                         names: .gppTCFEU2)
        #expect(values["IABGPP_2_TCString"] == .string("SECTION"))
        #expect(values["IABGPP_TCFEU2_PurposeConsents"] == .string("1"))
        #expect(values["IABGPP_TCFEU2_gdprApplies"] == .int(1))
        #expect(values["IABGPP_TCFEU2_UseNonStandardStacks"] == .int(0))
        #expect(values["IABGPP_TCFEU2_UseNonStandardTexts"] == nil)
        #expect(values.keys.allSatisfy { $0.rawValue.hasPrefix("IABGPP_") })
        #expect(values.keys.allSatisfy { $0.accepts(values[$0] ?? .int(-1)) })
    }

    @Test func gppHeaderKeysAndSectionStrings() throws {
        let gpp = GPPInput(string: "DBACNY~1YNN~1NYN", version: 1, sectionIDs: [6, 7], sections: ["1YNN", "1NYN"])
        var values: [IABKey: IABValue] = [:]
        try IABKeySet.addGPPKeys(gpp, applicableSections: nil, context: .init(), to: &values)
        #expect(values == [
            "IABGPP_HDR_Version": .string("1"),
            "IABGPP_HDR_Sections": .string("6_7"),
            "IABGPP_HDR_GppString": .string("DBACNY~1YNN~1NYN"),
            "IABGPP_GppSID": .string("6_7"),
            "IABGPP_6_String": .string("1YNN"),
            "IABGPP_7_String": .string("1NYN"),
        ])
        values = [:]
        try IABKeySet.addGPPKeys(gpp, applicableSections: [7], context: .init(), to: &values)
        #expect(values[.gppSID] == .string("7"))
        try IABKeySet.addGPPKeys(gpp, applicableSections: [-1], context: .init(), to: &values)
        #expect(values[.gppSID] == .string("-1"))
        #expect(throws: IABMappingError.invalidGPPSectionID(0)) {
            var scratch: [IABKey: IABValue] = [:]
            try IABKeySet.addGPPKeys(gpp, applicableSections: [0], context: .init(), to: &scratch)
        }
        let mismatched = GPPInput(string: "x", version: 1, sectionIDs: [6, 7], sections: ["1YNN"])
        #expect(throws: IABMappingError.self) {
            var scratch: [IABKey: IABValue] = [:]
            try IABKeySet.addGPPKeys(mismatched, applicableSections: nil, context: .init(), to: &scratch)
        }
    }

    @Test(arguments: ["1YNN", "1---", "1NY-", "1YYY"])
    func validUSPrivacy(_ value: String) throws {
        try IABKeySet.validateUSPrivacy(value)
        let keys = try IABKeySet(mapping: InAppConsent(usPrivacy: value))
        #expect(keys.values == [.usPrivacyString: .string(value)])
    }

    @Test(arguments: ["2YNN", "1YN", "1YNNN", "1ynn", "1YNX", " 1YNN", "1ＹNN"])
    func invalidUSPrivacy(_ value: String) {
        #expect(throws: IABMappingError.invalidUSPrivacy(value)) { try IABKeySet(mapping: InAppConsent(usPrivacy: value)) }
    }

    @Test(arguments: ["1~1.35.41.101", "1~", "2~1.35.41.101~dv.9.21.81", "2~~dv.1.2.3.4.10", "2~1.2.3.4.10~dv."])
    func validAdditionalConsent(_ value: String) throws {
        try IABKeySet.validateAdditionalConsent(value)
    }

    @Test(arguments: ["", "3~1", "1~1..2", "1~a", "2~1.2", "2~1~9", "2~1~dv.x", "1~1~dv.2", "~", "1~-1"])
    func invalidAdditionalConsent(_ value: String) {
        #expect(throws: IABMappingError.self) { try IABKeySet.validateAdditionalConsent(value) }
    }

    @Test func emptyInputMapsToNoKeysAndEmptyStringsCountAsAbsent() throws {
        #expect(try IABKeySet(mapping: InAppConsent()).values.isEmpty)
        let keys = try IABKeySet(mapping: InAppConsent(tcString: "", gdprApplies: true, cmpSDKID: 3, gppString: "",
                                                       usPrivacy: ""))
        #expect(keys.values.isEmpty)
    }

    @Test func negativeCMPNumbersAreRejected() {
        #expect(throws: IABMappingError.negativeNumber(key: .cmpSdkID, value: -1)) {
            try IABKeySet(mapping: InAppConsent(cmpSDKID: -1))
        }
        #expect(throws: IABMappingError.negativeNumber(key: .cmpSdkVersion, value: -5)) {
            try IABKeySet(mapping: InAppConsent(cmpSDKVersion: -5))
        }
    }

    @Test func valueKindsFollowTheKeyTables() {
        #expect(IABKey.cmpSdkID.valueKind == .number)
        #expect(IABKey.gdprApplies.valueKind == .flag)
        #expect(IABKey("IABGPP_TCFEU2_gdprApplies").valueKind == .flag)
        #expect(IABKey.vendorConsents.valueKind == .binaryString)
        #expect(IABKey("IABTCF_PublisherRestrictions12").valueKind == .restrictions)
        #expect(IABKey("IABGPP_TCFEU2_PublisherRestrictions3").valueKind == .restrictions)
        #expect(IABKey("IABTCF_PublisherRestrictionsX").valueKind == .unknown)
        #expect(IABKey("IABGPP_7_String").valueKind == .string)
        #expect(IABKey.gdprApplies.accepts(.int(1)))
        #expect(!IABKey.gdprApplies.accepts(.int(2)))
        #expect(!IABKey.gdprApplies.accepts(.string("1")))
        #expect(!IABKey.cmpSdkID.accepts(.int(-1)))
        #expect(!IABKey.vendorConsents.accepts(.string("012")))
        #expect(IABKey("IABTCF_PublisherRestrictions1").accepts(.string("_0_12")))
        #expect(!IABKey("IABTCF_PublisherRestrictions1").accepts(.string("3")))
        #expect(!IABKey.tcString.accepts(.int(1)))
        #expect(IABKey("IABTCF_EnableAdvertiserConsentMode").accepts(.int(1)))
    }

    @Test func ownedFamilies() {
        #expect(IABKey.tcString.isOwnedFamily)
        #expect(IABKey("IABGPP_HDR_Version").isOwnedFamily)
        #expect(IABKey.usPrivacyString.isOwnedFamily)
        #expect(!IABKey("IABUSPrivacy_StringX").isOwnedFamily)
        #expect(!IABKey("IABConsent_ConsentString").isOwnedFamily)
        #expect(!IABKey("iabtcf_TCString").isOwnedFamily)
    }
}
