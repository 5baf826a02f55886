import Testing
@testable import IABInAppConsent

/// The public mapping path with the codec's decoders: GPP reader, Additional Consent parser, TC string round trips.
@Suite struct IABKeyCodecWiringTests {
    /// TC string of the GPP spec's examples (section 2 of `DBACNY~…~1YNN`).
    static let specTCString = "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA"
    static let specGPP = "DBACNY~" + specTCString + "~1YNN"

    @Test func gppStringFromTheSpecMapsHeaderSectionsAndTCFMirror() throws {
        let keys = try IABKeySet(
            mapping: ConsentStrings(gppString: Self.specGPP), gdprApplies: true, identity: CMPIdentity(id: 12))
        #expect(keys[.gppVersion] == .string("1"))
        #expect(keys[.gppSections] == .string("2_6"))
        #expect(keys[.gppSID] == .string("2_6"))
        #expect(keys[.gppString] == .string(Self.specGPP))
        #expect(keys["IABGPP_2_String"] == .string(Self.specTCString))
        #expect(keys["IABGPP_2_TCString"] == .string(Self.specTCString))
        #expect(keys["IABGPP_6_String"] == .string("1YNN"))
        #expect(keys["IABGPP_TCFEU2_gdprApplies"] == .int(1))
        #expect(keys["IABGPP_TCFEU2_CmpSdkID"] == .int(12))
        // No TC string given: no IABTCF_* keys.
        #expect(keys.values.keys.allSatisfy { $0.rawValue.hasPrefix("IABGPP_") })

        // The mirror carries exactly the values the IABTCF_* keys get for the same TC string.
        let tcf = try IABKeySet(
            mapping: ConsentStrings(tcString: Self.specTCString), gdprApplies: true, identity: CMPIdentity(id: 12))
        var mirrored = 0
        for (key, value) in tcf.values {
            guard let mirror = key.gppTCFEUMirror else { continue }
            if [.disclosedVendors, .useNonStandardTexts].contains(key) {
                #expect(keys[mirror] == nil)
            } else {
                #expect(keys[mirror] == value, "\(mirror.rawValue)")
                mirrored += 1
            }
        }
        // A configured SDK id without a version leaves IABTCF_CmpSdkVersion (and its mirror) unset rather than
        // pairing the id with the version of the CMP that wrote the string; every other mirror key is present.
        #expect(tcf[.cmpSDKVersion] == nil)
        #expect(keys["IABGPP_TCFEU2_CmpSdkVersion"] == nil)
        #expect(mirrored == 16)
    }

    @Test func applicableSectionsOverrideTheHeader() throws {
        let keys = try IABKeySet(mapping: ConsentStrings(gppString: Self.specGPP, gppApplicableSections: [6]))
        #expect(keys[.gppSID] == .string("6"))
        #expect(keys[.gppSections] == .string("2_6"))
    }

    @Test(arguments: [
        "DBACNY~" + specTCString,        // header lists two sections, one present
        "XXXX~1YNN",                     // not a GPP header
        "DBABTA~",                       // empty section
        "DBABMA~NotATCString!",          // TCF EU section does not decode
    ])
    func invalidGPPFailsTheWholeMapping(_ gpp: String) {
        #expect(throws: IABMappingError.self) {
            try IABKeySet(mapping: ConsentStrings(tcString: Self.specTCString, gppString: gpp, usPrivacy: "1YNN"))
        }
    }

    @Test func additionalConsentIsValidatedByTheParser() throws {
        let valid = "2~1.35.41.101~dv.9.21.81"
        let keys = try IABKeySet(mapping: ConsentStrings(tcString: Self.specTCString, additionalConsent: valid))
        #expect(keys[.additionalConsent] == .string(valid))
        for invalid in ["3~1", "2~1.35", "1~1..2", "2~1~9", "1~abc"] {
            #expect(throws: IABMappingError.self) {
                try IABKeySet(mapping: ConsentStrings(tcString: Self.specTCString, additionalConsent: invalid))
            }
        }
        // Without a TC string the AC string is not written (Google AC is used only alongside a TC string).
        #expect(try IABKeySet(mapping: ConsentStrings(additionalConsent: valid)).values.isEmpty)
    }

    @Test func encodedModelsMapLikeTheModelItself() throws {
        var vendors = IDSet()
        vendors.insert(contentsOf: 1...400)
        vendors.remove(77)
        let model = TCString(
            createdDeciseconds: 17_000_000_000, lastUpdatedDeciseconds: 17_000_000_000, cmpID: 300, cmpVersion: 2,
            vendorListVersion: 80, policyVersion: 5, useNonStandardTexts: true, specialFeatureOptIns: [1],
            purposeConsents: [1, 2, 3, 4, 7, 9, 10], purposeLegitimateInterests: [2, 7, 10], purposeOneTreatment: false,
            publisherCountryCode: "NL", vendorConsents: vendors, vendorLegitimateInterests: [4, 91, 755],
            publisherRestrictions: [
                PublisherRestriction(purposeID: 2, restrictionType: .notAllowed, vendors: [8, 755]),
                PublisherRestriction(purposeID: 7, restrictionType: .requireLegitimateInterest, vendors: [1]),
            ],
            disclosedVendors: vendors,
            publisherTC: PublisherTC(purposeConsents: [1, 3], numberOfCustomPurposes: 2, customPurposeConsents: [2])
        )
        let raw = try model.encoded()
        let keys = try IABKeySet(
            mapping: ConsentStrings(tcString: raw), gdprApplies: true, identity: CMPIdentity(id: 5, version: 9))
        var expected = IABKeySet()
        IABKeySet.addTCFKeys(
            for: model, rawValue: raw, gdprApplies: true, cmpSDKID: 5, cmpSDKVersion: 9, into: &expected)
        #expect(keys == expected)
        #expect(keys.values == expected.values)
        #expect(keys["IABTCF_PublisherRestrictions2"] == .string(String(repeating: "_", count: 7) + "0"
            + String(repeating: "_", count: 746) + "0"))
        #expect(keys[.vendorConsents] == .string(String(repeating: "1", count: 76) + "0"
            + String(repeating: "1", count: 323)))
    }
}
