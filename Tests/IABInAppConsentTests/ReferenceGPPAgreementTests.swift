import Testing
@testable import IABInAppConsent

/// Our GPP reader and GPP key mapping against the IAB Tech Lab reference library, iabgpp-es 3.2.0: the fixture
/// `gppstrings-reference.json` holds GPP strings that the library's `GppModel` encoded from random models of its US
/// sections (national and every state it has, with and without the Global Privacy Control sub-section), sometimes
/// beside a US Privacy, a TCF EU and a TCF Canada section, and the in-app keys of what the library decodes from each:
/// the header, each section's string and every US field (GPP CMP API v1.1 "In-App Details"). Written by
/// `scripts/reference-fixture`.
@Suite struct ReferenceGPPAgreementTests {
    struct Fixture: Decodable {
        var cases: [Case]
    }

    struct Case: Decodable, CustomTestStringConvertible {
        var name: String
        var string: String
        /// The US sections the model set, by the library's names (`usnat`, `usca`, …).
        var sections: [String]
        var keys: [String: TestFixtures.KeyValue]
        var testDescription: String { name }
    }

    static let cases: [Case] = TestFixtures.decode("gppstrings-reference", as: Fixture.self)?.cases ?? []

    @Test func fixtureLoadsAndCoversEveryUSSectionOfTheLibrary() {
        #expect(Self.cases.count >= 200)
        let named = Set(Self.cases.flatMap(\.sections))
        // iabgpp-es 3.2.0's US sections: usnat and the 20 states (ids 7-27 but 6).
        #expect(named.count == 21)
        #expect(Self.cases.contains { $0.keys["IABGPP_6_String"] != nil })
        #expect(Self.cases.contains { $0.keys["IABGPP_2_String"] != nil })
        #expect(Self.cases.contains { $0.keys["IABGPP_5_String"] != nil })
        #expect(Self.cases.contains { $0.keys["IABGPP_USNAT_Gpc"] != nil })
        #expect(Self.cases.contains { $0.sections.contains("usnat") && $0.keys["IABGPP_USNAT_Gpc"] == nil })
    }

    /// Every key the reference's decoding gives is ours with the same value and type, and a US section's fields give
    /// no key the reference has not.
    @Test(arguments: cases)
    func keysMatchTheReference(_ fixture: Case) throws {
        let keys = try IABKeySet(mapping: ConsentStrings(gppString: fixture.string))
        for (name, expected) in fixture.keys {
            #expect(keys[IABKey(rawValue: name)] == expected.value, "\(name)")
        }
        let prefixes = fixture.sections.map { "IABGPP_" + $0.uppercased() + "_" }
        let extra = keys.values.keys.map(\.rawValue).filter { name in
            prefixes.contains { name.hasPrefix($0) } && fixture.keys[name] == nil
        }
        #expect(extra.isEmpty)
    }
}
