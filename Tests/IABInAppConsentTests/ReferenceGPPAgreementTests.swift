import Testing
@testable import IABInAppConsent

/// Our GPP reader and GPP key mapping against the IAB Tech Lab reference library, iabgpp-es 3.2.0: the fixture
/// `gppstrings-reference.json` holds GPP strings that the library's `GppModel` encoded from random models of its US
/// sections (national and every state it has, with and without the Global Privacy Control sub-section), sometimes
/// beside a US Privacy, a TCF EU and a TCF Canada section, and the in-app keys of what the library decodes from each:
/// the header, each section's string and every US field (GPP CMP API v1.1 "In-App Details"). A second fixture,
/// `gppstrings-reference-3.1.4.json`, does the same with iabgpp-es 3.1.4, whose sections are their first versions
/// (usnat version 1, with 12 and 2 list entries), as strings written in 2023-2025 carry. Written by
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

    static let current: [Case] = TestFixtures.decode("gppstrings-reference", as: Fixture.self)?.cases ?? []
    static let firstVersions: [Case] =
        TestFixtures.decode("gppstrings-reference-3.1.4", as: Fixture.self)?.cases.map { fixture in
            var fixture = fixture
            fixture.name += " (3.1.4)"
            return fixture
        } ?? []
    static let cases = current + firstVersions

    @Test func fixturesLoadAndCoverEveryUSSectionOfTheLibraries() {
        #expect(Self.current.count >= 200)
        // iabgpp-es 3.2.0's US sections: usnat and the 20 states (ids 7-27 but 6); 3.1.4's: usnat and 9 states.
        #expect(Set(Self.current.flatMap(\.sections)).count == 21)
        #expect(Set(Self.firstVersions.flatMap(\.sections)).count == 10)
        #expect(Self.cases.contains { $0.keys["IABGPP_6_String"] != nil && $0.keys["IABGPP_USP1_OptOut"] != nil })
        #expect(Self.cases.contains { $0.keys["IABGPP_2_String"] != nil })
        #expect(Self.cases.contains { $0.keys["IABGPP_5_String"] != nil })
        #expect(Self.cases.contains { $0.keys["IABGPP_USNAT_Gpc"] != nil })
        #expect(Self.cases.contains { $0.sections.contains("usnat") && $0.keys["IABGPP_USNAT_Gpc"] == nil })
        // usnat version 1 (12 sensitive-data entries) and version 2 (16).
        #expect(Self.firstVersions.contains { $0.keys["IABGPP_USNAT_Version"]?.value == .int(1) })
        #expect(Self.current.contains { $0.keys["IABGPP_USNAT_Version"]?.value == .int(2) })
    }

    /// Every key the reference's decoding gives is ours with the same value and type, and a US section's or the US
    /// Privacy section's fields give no key the reference has not.
    @Test(arguments: cases)
    func keysMatchTheReference(_ fixture: Case) throws {
        let keys = try IABKeySet(mapping: ConsentStrings(gppString: fixture.string))
        for (name, expected) in fixture.keys {
            #expect(keys[IABKey(rawValue: name)] == expected.value, "\(name)")
        }
        let prefixes = fixture.sections.map { "IABGPP_" + $0.uppercased() + "_" } + ["IABGPP_USP1_"]
        let extra = keys.values.keys.map(\.rawValue).filter { name in
            prefixes.contains { name.hasPrefix($0) } && fixture.keys[name] == nil
        }
        #expect(extra.isEmpty)
    }
}
