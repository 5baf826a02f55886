import Foundation
import Testing
@testable import IABInAppConsent

/// Our decoder and key mapping against the IAB reference library, `@iabtcf/core` 1.5.6: the fixture
/// `tcstrings-reference.json` holds TC strings that the library's own encoder wrote from random models (bitfield and
/// range vendor sets, publisher restrictions whose ranges cover ids the vendor list lacks, the optional segments in any
/// order) and what the library's decoder reads from each. Written by `scripts/reference-fixture`; the oracle is the
/// IAB's code, not ours.
@Suite struct ReferenceDecoderAgreementTests {
    struct Fixture: Decodable {
        var cases: [Case]
    }

    struct Case: Decodable, CustomTestStringConvertible {
        var name: String
        var string: String
        var expected: Expected
        var testDescription: String { name }
    }

    /// An id set as the fixture writes it: `[first, last]` runs.
    struct Runs: Decodable {
        var ids: IDSet

        init(from decoder: any Decoder) throws {
            var ids = IDSet()
            for run in try decoder.singleValueContainer().decode([[Int]].self) {
                guard run.count == 2, run[0] >= 1, run[0] <= run[1] else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(run)"))
                }
                ids.insert(contentsOf: run[0]...run[1])
            }
            self.ids = ids
        }
    }

    struct Restriction: Decodable {
        var purpose: Int
        var type: Int
        var vendors: Runs
    }

    struct PublisherSegment: Decodable {
        var purposeConsents: Runs
        var purposeLegitimateInterests: Runs
        var numberOfCustomPurposes: Int
        var customPurposeConsents: Runs
        var customPurposeLegitimateInterests: Runs
    }

    /// The reference's decoding (`TCString.decode`), field by field.
    struct Expected: Decodable {
        var cmpId: Int
        var cmpVersion: Int
        var consentScreen: Int
        var consentLanguage: String
        var vendorListVersion: Int
        var policyVersion: Int
        var isServiceSpecific: Bool
        var useNonStandardTexts: Bool
        var purposeOneTreatment: Bool
        var publisherCountryCode: String
        var createdDeciseconds: Int64
        var lastUpdatedDeciseconds: Int64
        var specialFeatureOptIns: Runs
        var purposeConsents: Runs
        var purposeLegitimateInterests: Runs
        var vendorConsents: Runs
        var vendorLegitimateInterests: Runs
        var publisherRestrictions: [Restriction]
        var publisherTC: PublisherSegment?
        var disclosedVendors: Runs?
        var allowedVendors: Runs?

        /// Vendor → restriction type, for each restricted purpose.
        var restrictionTypes: [Int: [Int: Int]] {
            var types: [Int: [Int: Int]] = [:]
            for restriction in publisherRestrictions {
                for vendor in restriction.vendors.ids {
                    types[restriction.purpose, default: [:]][vendor] = restriction.type
                }
            }
            return types
        }
    }

    static let cases: [Case] = TestFixtures.decode("tcstrings-reference", as: Fixture.self)?.cases ?? []

    /// The ids whose position in an IAB binary string (`'1'` at index n is id n + 1) is `'1'`; `nil` when a character
    /// is neither `'0'` nor `'1'`.
    static func ids(inBinaryString value: IABValue?) -> IDSet? {
        guard case .string(let text)? = value else { return nil }
        var ids = IDSet()
        for (index, character) in text.enumerated() {
            switch character {
            case "1": ids.insert(index + 1)
            case "0": continue
            default: return nil
            }
        }
        return ids
    }

    @Test func fixtureLoadsAndCoversBothEncodingsAndEverySegment() {
        #expect(Self.cases.count >= 200)
        #expect(Self.cases.contains { !$0.expected.publisherRestrictions.isEmpty })
        #expect(Self.cases.contains { $0.expected.publisherTC != nil })
        #expect(Self.cases.contains { $0.expected.disclosedVendors != nil })
        #expect(Self.cases.contains { $0.expected.allowedVendors != nil })
        // The encoder chose each vendor consent section's encoding by length: both occur.
        let encodings = Set(Self.cases.compactMap { Self.vendorConsentsAreRangeEncoded($0.string) })
        #expect(encodings == [false, true])
    }

    /// The core segment's `IsRangeEncoding` bit of the vendor consent section, read straight from the base64url
    /// characters: bit 229, after the 213 bits of fixed fields and `MaxVendorId` (16 bits) (TC string format v2,
    /// "Core String"). `nil` for a string too short to have it.
    static func vendorConsentsAreRangeEncoded(_ string: String) -> Bool? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let bit = 213 + 16
        let characters = Array(string)
        guard characters.count > bit / 6, let value = alphabet.firstIndex(of: characters[bit / 6]) else { return nil }
        return (value >> (5 - bit % 6)) & 1 == 1
    }

    @Test(arguments: cases)
    func decodingMatchesTheReference(_ fixture: Case) throws {
        let model = try TCString(decoding: fixture.string)
        let expected = fixture.expected
        #expect(model.cmpID == expected.cmpId)
        #expect(model.cmpVersion == expected.cmpVersion)
        #expect(model.consentScreen == expected.consentScreen)
        #expect(model.consentLanguage == expected.consentLanguage)
        #expect(model.vendorListVersion == expected.vendorListVersion)
        #expect(model.policyVersion == expected.policyVersion)
        #expect(model.isServiceSpecific == expected.isServiceSpecific)
        #expect(model.useNonStandardTexts == expected.useNonStandardTexts)
        #expect(model.purposeOneTreatment == expected.purposeOneTreatment)
        #expect(model.publisherCountryCode == expected.publisherCountryCode)
        #expect(model.createdDeciseconds == expected.createdDeciseconds)
        #expect(model.lastUpdatedDeciseconds == expected.lastUpdatedDeciseconds)
        #expect(model.specialFeatureOptIns == expected.specialFeatureOptIns.ids)
        #expect(model.purposeConsents == expected.purposeConsents.ids)
        #expect(model.purposeLegitimateInterests == expected.purposeLegitimateInterests.ids)
        #expect(model.vendorConsents == expected.vendorConsents.ids)
        #expect(model.vendorLegitimateInterests == expected.vendorLegitimateInterests.ids)
        #expect(model.disclosedVendors == expected.disclosedVendors?.ids)
        #expect(model.allowedVendors == expected.allowedVendors?.ids)
        var types: [Int: [Int: Int]] = [:]
        for restriction in model.publisherRestrictions {
            for vendor in restriction.vendors {
                types[restriction.purposeID, default: [:]][vendor] = restriction.restrictionType.rawValue
            }
        }
        #expect(types == expected.restrictionTypes)
        #expect(model.publisherTC?.purposeConsents == expected.publisherTC?.purposeConsents.ids)
        #expect(model.publisherTC?.purposeLegitimateInterests == expected.publisherTC?.purposeLegitimateInterests.ids)
        #expect(model.publisherTC?.numberOfCustomPurposes == expected.publisherTC?.numberOfCustomPurposes)
        #expect(model.publisherTC?.customPurposeConsents == expected.publisherTC?.customPurposeConsents.ids)
        #expect(
            model.publisherTC?.customPurposeLegitimateInterests
                == expected.publisherTC?.customPurposeLegitimateInterests.ids)
    }

    /// What an ad SDK reads: each binary-string key names the reference's ids, each restriction key the reference's
    /// type for each vendor (`'_'` for none), and the number and string keys its fields.
    @Test(arguments: cases)
    func inAppKeysMatchTheReference(_ fixture: Case) throws {
        let keys = try IABKeySet(mapping: ConsentStrings(tcString: fixture.string), gdprApplies: true)
        let expected = fixture.expected
        #expect(keys["IABTCF_TCString"] == .string(fixture.string))
        #expect(keys["IABTCF_CmpSdkID"] == .int(expected.cmpId))
        #expect(keys["IABTCF_PolicyVersion"] == .int(expected.policyVersion))
        #expect(keys["IABTCF_PublisherCC"] == .string(expected.publisherCountryCode))
        #expect(keys["IABTCF_PurposeOneTreatment"] == .int(expected.purposeOneTreatment ? 1 : 0))
        #expect(keys["IABTCF_UseNonStandardTexts"] == .int(expected.useNonStandardTexts ? 1 : 0))
        #expect(Self.ids(inBinaryString: keys["IABTCF_VendorConsents"]) == expected.vendorConsents.ids)
        #expect(
            Self.ids(inBinaryString: keys["IABTCF_VendorLegitimateInterests"])
                == expected.vendorLegitimateInterests.ids)
        #expect(Self.ids(inBinaryString: keys["IABTCF_PurposeConsents"]) == expected.purposeConsents.ids)
        #expect(
            Self.ids(inBinaryString: keys["IABTCF_PurposeLegitimateInterests"])
                == expected.purposeLegitimateInterests.ids)
        #expect(Self.ids(inBinaryString: keys["IABTCF_SpecialFeaturesOptIns"]) == expected.specialFeatureOptIns.ids)
        if let disclosed = expected.disclosedVendors {
            #expect(Self.ids(inBinaryString: keys["IABTCF_DisclosedVendors"]) == disclosed.ids)
        } else {
            #expect(keys["IABTCF_DisclosedVendors"] == nil)
        }
        if let publisher = expected.publisherTC {
            #expect(Self.ids(inBinaryString: keys["IABTCF_PublisherConsent"]) == publisher.purposeConsents.ids)
            #expect(
                Self.ids(inBinaryString: keys["IABTCF_PublisherLegitimateInterests"])
                    == publisher.purposeLegitimateInterests.ids)
            #expect(
                Self.ids(inBinaryString: keys["IABTCF_PublisherCustomPurposesConsents"])
                    == publisher.customPurposeConsents.ids)
            #expect(
                Self.ids(inBinaryString: keys["IABTCF_PublisherCustomPurposesLegitimateInterests"])
                    == publisher.customPurposeLegitimateInterests.ids)
        }
        var restrictionKeys: [Int: [Int: Int]] = [:]
        for (key, value) in keys.values where key.rawValue.hasPrefix("IABTCF_PublisherRestrictions") {
            let purpose = try #require(Int(key.rawValue.dropFirst("IABTCF_PublisherRestrictions".count)))
            guard case .string(let text) = value else {
                Issue.record("\(key) is not a string")
                continue
            }
            for (index, character) in text.enumerated() where character != "_" {
                let type = try #require(character.wholeNumberValue, "\(key): '\(character)'")
                restrictionKeys[purpose, default: [:]][index + 1] = type
            }
        }
        #expect(restrictionKeys == expected.restrictionTypes)
    }
}
