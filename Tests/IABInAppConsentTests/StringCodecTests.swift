import Foundation
import Testing
@testable import IABInAppConsent

@Suite struct StringCodecTests {
    /// The worked example of the TC string spec ("Transparency and Consent String … v2", example with DisclosedVendors
    /// and an empty PublisherTC segment), decoded field by field (values cross-checked with five decoders, see
    /// shared/reference/tcstring-format.md §3.6).
    @Test func specWorkedExample() throws {
        let tc = try TCString(decodingPrecisely: "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA")
        #expect(tc.version == 2)
        #expect(tc.created == ISO8601DateFormatter().date(from: "2025-06-03T00:00:00Z"))
        #expect(tc.lastUpdated == tc.created)
        #expect(tc.cmpID == 880)
        #expect(tc.cmpVersion == 0)
        #expect(tc.consentLanguage == "EN")
        #expect(tc.vendorListVersion == 48)
        #expect(tc.policyVersion == 2)
        #expect(tc.isServiceSpecific)
        #expect(tc.publisherCountryCode == "DE")
        #expect(tc.purposeConsents.isEmpty)
        #expect(tc.vendorConsents == [1, 2, 3, 4])
        #expect(tc.disclosedVendors == [1, 2, 3, 4, 5, 100, 404])
        #expect(tc.publisherTC == PublisherTC())
        #expect(tc.allowedVendors == nil)
    }

    @Test func paddingIsAcceptedAndNeverEmitted() throws {
        let plain = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA"
        let padded = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA==.IDKQA4AAgAKAGQAygAAA="
        #expect(try TCString(decodingPrecisely: padded) == TCString(decodingPrecisely: plain))
        #expect(try !TCString(decodingPrecisely: padded).encoded().contains("="))
    }

    @Test(arguments: [
        ("", TCStringError.empty),
        ("BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA", .unsupportedVersion(1)),
        ("DBABMA", .unsupportedVersion(3)),
        ("CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.", .emptySegment(index: 1)),
        ("CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.IDKQA4AAgAKAGQAygAAA", .duplicateSegment(type: 1, segment: 2)),
        ("CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA", .duplicateSegment(type: 0, segment: 1)),
        ("CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.gAAA", .unknownSegmentType(4, segment: 1)),
        ("CQSbk4AQSbk4+NwAAAENAw", .invalidCharacter("+", offset: 12)),
        ("CQSbk4AQ", .truncated(field: "LastUpdated", atBit: 42, segment: 0)),
        // ConsentLanguage (bits 108-119, both letters read at once when both are there): cut before its first letter,
        // after it, and after both.
        ("CQSbk4AQSbk4ANwAAA", .truncated(field: "ConsentLanguage", atBit: 108, segment: 0)),
        ("CQSbk4AQSbk4ANwAAAE", .truncated(field: "ConsentLanguage", atBit: 114, segment: 0)),
        ("CQSbk4AQSbk4ANwAAAEN", .truncated(field: "VendorListVersion", atBit: 120, segment: 0)),
    ])
    func invalidStrings(input: String, expected: TCStringError) {
        #expect(throws: expected) { try TCString(decodingPrecisely: input) }
    }

    @Test func rangeEntryValidation() throws {
        // Build a core segment by hand whose vendor consent section is a range 10...5.
        var writer = BitWriter()
        writer.write(2, 6); writer.write(0, 36); writer.write(0, 36); writer.write(1, 12); writer.write(1, 12)
        writer.write(0, 6); writer.writeLetters("EN"); writer.write(1, 12); writer.write(4, 6); writer.write(true)
        writer.write(false); writer.write(0, 12); writer.write(0, 24); writer.write(0, 24); writer.write(false)
        writer.writeLetters("AA")
        var backwards = writer
        backwards.write(20, 16); backwards.write(true); backwards.write(1, 12); backwards.write(true)
        backwards.write(10, 16); backwards.write(5, 16)
        #expect(throws: TCStringError.rangeEndBeforeStart(field: "Vendor Consent Section", start: 10, end: 5)) {
            try TCString(decodingPrecisely: backwards.string)
        }
        var above = writer
        above.write(20, 16); above.write(true); above.write(1, 12); above.write(false); above.write(21, 16)
        #expect(throws: TCStringError.idAboveMaximum(field: "Vendor Consent Section", id: 21, maximum: 20)) {
            try TCString(decodingPrecisely: above.string)
        }
        var zero = writer
        zero.write(20, 16); zero.write(true); zero.write(1, 12); zero.write(false); zero.write(0, 16)
        #expect(throws: TCStringError.zeroID(field: "Vendor Consent Section")) { try TCString(decodingPrecisely: zero.string) }
        // A bitfield that claims 65,535 vendors with no bits behind it is truncated, not a crash.
        var huge = writer
        huge.write(65_535, 16); huge.write(false)
        #expect(throws: TCStringError.self) { try TCString(decodingPrecisely: huge.string) }
        // A range that claims all 65,535 vendors decodes quickly.
        var all = writer
        all.write(65_535, 16); all.write(true); all.write(1, 12); all.write(true); all.write(1, 16); all.write(65_535, 16)
        all.write(0, 16); all.write(false); all.write(0, 12)
        let decoded = try TCString(decodingPrecisely: all.string)
        #expect(decoded.vendorConsents.count == 65_535)
    }

    typealias Generator = SplitMix64

    static func randomSet(_ g: inout Generator, maximum: Int, dense: Bool) -> IDSet {
        var set = IDSet()
        let top = Int.random(in: 0...maximum, using: &g)
        guard top > 0 else { return set }
        if dense {
            for id in 1...top where Int.random(in: 0..<3, using: &g) > 0 { set.insert(id) }
        } else {
            for _ in 0..<Int.random(in: 0...6, using: &g) {
                let start = Int.random(in: 1...top, using: &g)
                set.insert(contentsOf: start...min(top, start + Int.random(in: 0...300, using: &g)))
            }
        }
        return set
    }

    static func randomModel(_ g: inout Generator) -> TCString {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        func word() -> String { String([letters.randomElement(using: &g)!, letters.randomElement(using: &g)!]) }
        func set(_ maximum: Int) -> IDSet { randomSet(&g, maximum: maximum, dense: Bool.random(using: &g)) }
        var model = TCString(
            createdDeciseconds: Int64.random(in: 0..<(1 << 36), using: &g),
            lastUpdatedDeciseconds: Int64.random(in: 0..<(1 << 36), using: &g),
            cmpID: Int.random(in: 0..<4096, using: &g), cmpVersion: Int.random(in: 0..<4096, using: &g),
            consentScreen: Int.random(in: 0..<64, using: &g), consentLanguage: word(),
            vendorListVersion: Int.random(in: 0..<4096, using: &g), policyVersion: Int.random(in: 0..<64, using: &g),
            isServiceSpecific: Bool.random(using: &g), useNonStandardTexts: Bool.random(using: &g),
            specialFeatureOptIns: set(12), purposeConsents: set(24), purposeLegitimateInterests: set(24),
            purposeOneTreatment: Bool.random(using: &g), publisherCountryCode: word(),
            vendorConsents: set(3000), vendorLegitimateInterests: set(3000)
        )
        for _ in 0..<Int.random(in: 0...3, using: &g) {
            model.publisherRestrictions.append(PublisherRestriction(
                purposeID: Int.random(in: 0..<64, using: &g),
                restrictionType: RestrictionType(rawValue: Int.random(in: 0...3, using: &g))!, vendors: set(2000)))
        }
        if Bool.random(using: &g) { model.disclosedVendors = set(3000) }
        if Int.random(in: 0..<4, using: &g) == 0 { model.allowedVendors = set(500) }
        if Bool.random(using: &g) {
            let custom = Int.random(in: 0...63, using: &g)
            model.publisherTC = PublisherTC(
                purposeConsents: set(24), purposeLegitimateInterests: set(24), numberOfCustomPurposes: custom,
                customPurposeConsents: set(custom), customPurposeLegitimateInterests: set(custom))
        }
        return model
    }

    @Test func roundTripOverRandomModels() throws {
        var g = Generator(state: 7)
        var rangeSections = 0
        for _ in 0..<500 {
            let model = Self.randomModel(&g)
            let string = try model.encoded()
            #expect(!string.contains("="))
            let decoded = try TCString(decodingPrecisely: string)
            #expect(decoded == model)
            if string.split(separator: ".")[0].count < 40 + (model.vendorConsents.max ?? 0) / 6 { rangeSections += 1 }
        }
        #expect(rangeSections > 50, "the generator must exercise range encoding")
    }

    @Test func encoderRejectsFieldsThatDoNotFit() {
        #expect(throws: TCStringError.self) { try TCString(cmpID: 4096).encoded() }
        #expect(throws: TCStringError.self) { try TCString(consentLanguage: "en").encoded() }
        #expect(throws: TCStringError.self) { try TCString(purposeConsents: [25]).encoded() }
        #expect(throws: TCStringError.self) {
            try TCString(publisherTC: PublisherTC(numberOfCustomPurposes: 2, customPurposeConsents: [3])).encoded()
        }
    }

    /// Random and mutated inputs: a typed error or a model, never a crash; every accepted string re-encodes to a
    /// string that decodes to the same model.
    @Test func fuzzMutations() throws {
        var g = Generator(state: 99)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ~")
        var seeds = (0..<20).compactMap { _ in try? Self.randomModel(&g).encoded() }
        seeds.append("CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA")
        var accepted = 0
        for iteration in 0..<20_000 {
            var chars = Array(seeds[iteration % seeds.count])
            switch Int.random(in: 0..<5, using: &g) {
            case 0 where !chars.isEmpty: chars[Int.random(in: 0..<chars.count, using: &g)] = alphabet.randomElement(using: &g)!
            case 1: chars = Array(chars.prefix(Int.random(in: 0...chars.count, using: &g)))
            case 2: chars.insert(alphabet.randomElement(using: &g)!, at: Int.random(in: 0...chars.count, using: &g))
            case 3: chars = (0..<Int.random(in: 0...80, using: &g)).map { _ in alphabet.randomElement(using: &g)! }
            default:
                for _ in 0..<3 where !chars.isEmpty {
                    chars[Int.random(in: 0..<chars.count, using: &g)] = alphabet.randomElement(using: &g)!
                }
            }
            let input = String(chars)
            guard let model = try? TCString(decodingPrecisely: input) else { continue }
            accepted += 1
            let again = try TCString(decodingPrecisely: try model.encoded())
            #expect(again == model, "\(input)")
            _ = try? AdditionalConsent(parsingPrecisely: input)
            _ = try? GPPString(parsingPrecisely: input)
        }
        #expect(accepted > 1000)
    }

    @Test func additionalConsent() throws {
        let v1 = try AdditionalConsent(parsingPrecisely: "1~1.35.41.101")
        #expect(v1.version == 1 && v1.consentedProviders == [1, 35, 41, 101] && v1.disclosedProviders.isEmpty)
        let v2 = try AdditionalConsent(parsingPrecisely: "2~1.35.41.101~dv.9.21.81")
        #expect(v2.consentedProviders == [1, 35, 41, 101] && v2.disclosedProviders == [9, 21, 81])
        #expect(try AdditionalConsent(parsingPrecisely: "2~~dv.1.2.3.4.10").consentedProviders.isEmpty)
        #expect(try AdditionalConsent(parsingPrecisely: "2~1.2.3.4.10~dv.").disclosedProviders.isEmpty)
        #expect(try AdditionalConsent(parsingPrecisely: "1~").consentedProviders.isEmpty)
        for bad in ["", "3~1", "1", "1~a", "1~1..2", "1~0", "1~-1", "2~1.2", "2~1~9.21", "2~1~dv.x", "1~1~2", "1~99999999999"] {
            #expect(throws: AdditionalConsentError.self, "\(bad)") { try AdditionalConsent(parsingPrecisely: bad) }
        }
    }

    @Test func gppHeaders() throws {
        #expect(try GPPString(parsingPrecisely: "DBABM~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA").sectionIDs == [2])
        #expect(try GPPString(parsingPrecisely: "DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA").sectionIDs == [2])
        let two = try GPPString(parsingPrecisely: "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN")
        #expect(two.sectionIDs == [2, 6])
        #expect(two.section(6) == "1YNN")
        #expect(try two.tcfEUSection()?.cmpID == 31)
        #expect(try GPPString(parsingPrecisely: "DBABjw~a~b").sectionIDs == [5, 6])
        #expect(throws: GPPStringError.sectionCountMismatch(header: 2, found: 1)) {
            try GPPString(parsingPrecisely: "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
        }
        for bad in ["", "CBABM~x", "D", "DBA!M~x", "DBABM~", "DBABM"] {
            #expect(throws: GPPStringError.self, "\(bad)") { try GPPString(parsingPrecisely: bad) }
        }
    }
}
