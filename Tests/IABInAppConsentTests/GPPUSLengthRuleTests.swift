import Foundation
import Testing
@testable import IABInAppConsent

/// The length rule of GPP US sections: a section is read with the
/// longest layout its core has room for, and reported with the longer of that layout and the declared version's, so
/// no field the string carries is dropped (``GPPUSSection/resultLayout(declared:read:)``).
///
/// usnat is the only section with two layouts. The state sections (ids 8–27) have one: every state specification in
/// InteractiveAdvertisingBureau/Global-Privacy-Platform (`b27beb4`) is at version 1.0 and its widths never changed
/// (the 2024 edits only rewrote `Bitfield(2n)` as `N-Bitfield(2, n)`), and no released IABTechLab/iabgpp-java or
/// iabgpp-es encoder wrote a state list with other lengths (their `Us*CoreSegment` histories; iabgpp-java's
/// pre-release `a6862dc` gave usmn 9 and 5 entries, fixed in `e0fe2b5` before 3.2.5).
@Suite struct GPPUSLengthRuleTests {
    // MARK: Strings from the IAB reference libraries (fixture gpp-usnat-lengths.json)

    struct Fixture: Decodable {
        var cases: [Case]
    }

    struct Case: Decodable, CustomTestStringConvertible {
        var section: String
        var shape: String
        var sources: [String]
        var keys: [String: FixtureValue]
        var testDescription: String { "\(section) (\(shape))" }
    }

    typealias FixtureValue = TestFixtures.KeyValue

    static let cases: [Case] = TestFixtures.decode("gpp-usnat-lengths", as: Fixture.self)?.cases ?? []

    @Test func fixtureHasBothShapesInBothLabels() {
        #expect(Self.cases.count >= 10)
        for shape in ["Version 1 with version 2 lengths", "Version 2 with version 1 lengths",
                      "Version 1 with version 1 lengths", "Version 2 with version 2 lengths"] {
            #expect(Self.cases.contains { $0.shape.hasPrefix(shape) }, "\(shape)")
        }
    }

    /// Each reference string, mapped as a GPP string through the public mapping, gives the keys the fixture lists;
    /// the lists have the entry counts of the version written; the section string is stored verbatim.
    @Test(arguments: cases)
    func referenceStringsGiveTheReferenceKeys(_ fixture: Case) throws {
        let gpp = GPPUSSectionTests.header(for: 7) + "~" + fixture.section
        let keys = try IABKeySet(mapping: ConsentStrings(gppString: gpp))
        for (name, expected) in fixture.keys {
            #expect(keys[IABKey(rawValue: name)] == expected.value, "\(name)")
        }
        let version = try #require(keys["IABGPP_USNAT_Version"])
        let (sensitive, knownChild) = version == .int(1) ? (12, 2) : (16, 3)
        #expect(Self.entries(keys["IABGPP_USNAT_SensitiveDataProcessing"]) == sensitive)
        #expect(Self.entries(keys["IABGPP_USNAT_KnownChildSensitiveDataConsents"]) == knownChild)
        #expect(keys["IABGPP_7_String"] == .string(fixture.section))
        #expect(keys["IABGPP_USNAT_Gpc"] == (fixture.section.contains(".") ? .int(fixture.section.hasSuffix(".YA") ? 1 : 0) : nil))
    }

    static func entries(_ value: IABValue?) -> Int? {
        guard case .string(let text)? = value else { return nil }
        return text.split(separator: "_").count
    }

    /// The deployed encoders' version-1 string with version 2's lengths and the version 2 string with the same choices
    /// give the same keys: nothing of the user's choices depends on the label.
    @Test func longVersion1AndVersion2GiveTheSameKeys() throws {
        let usnat = try #require(GPPUSSection.catalog[7])
        let labelled1 = try usnat.decode("BVVVkkkkkpFY.YA")
        let labelled2 = try usnat.decode("CVVVkkkkkpFY.YA")
        #expect(labelled1.keys == labelled2.keys)
        #expect(labelled1.version == 2)
        #expect(labelled1.keys.count == 17)
    }

    // MARK: Both directions, every section, strings from an independent encoder

    struct Shape: Sendable, CustomTestStringConvertible {
        var section: Int
        var declared: Int
        var carried: Int
        var padding: GPPUSSectionEncoding.Padding
        var testDescription: String { "section \(section): Version \(declared), layout of version \(carried), \(padding)" }
    }

    /// Every (declared version, carried layout) pair of every section with a `Version` field, in both paddings: for
    /// usnat the four shapes, for each state section its one layout.
    static let shapes: [Shape] = GPPUSSection.all.filter(\.hasVersionField).flatMap { section in
        section.layouts.flatMap { declared in
            section.layouts.flatMap { carried in
                GPPUSSectionEncoding.Padding.allCases.map {
                    Shape(section: section.id, declared: declared.version, carried: carried.version, padding: $0)
                }
            }
        }
    }

    /// Random values (0–2) in every field of the carried layout, labelled with the declared version: the decoder
    /// reports the longer layout's version (in `Version` too), every carried value is kept at its place, and lists
    /// longer in the reported version end in `0` entries (not applicable).
    @Test(arguments: shapes)
    func noCarriedFieldIsDropped(_ shape: Shape) throws {
        let section = try #require(GPPUSSection.catalog[shape.section])
        let declared = try #require(section.layout(version: shape.declared))
        let carried = try #require(section.layout(version: shape.carried))
        let expected = carried.bitCount >= declared.bitCount ? carried : declared
        var random = SplitMix64(state: UInt64(shape.section * 100 + shape.declared * 10 + shape.carried))
        for _ in 0..<50 {
            var written: [String: GPPUSValue] = [:]
            var bits: [(width: Int, value: Int)] = []
            for field in carried.fields {
                switch field.kind {
                case .int(let width) where field.name == "Version":
                    bits.append((width, shape.declared))
                case .int(let width):
                    let value = Int(random.next() % 3)
                    written[field.name] = .int(value)
                    bits.append((width, value))
                case let .intList(count, width):
                    let list = (0..<count).map { _ in Int(random.next() % 3) }
                    written[field.name] = .list(list)
                    bits += list.map { (width, $0) }
                case .bool:
                    let value = random.next() % 2 == 1
                    written[field.name] = .bool(value)
                    bits.append((1, value ? 1 : 0))
                }
            }
            let gpc = random.next() % 2 == 1
            var string = GPPUSSectionEncoding.core(bits, padding: shape.padding)
            if section.optionalSubsection == .gpc { string += "." + GPPUSSectionEncoding.gpc(gpc, padding: shape.padding) }

            let data = try section.decode(string)
            #expect(data.version == expected.version, "\(string)")
            #expect(data.int("Version") == expected.version, "\(string)")
            #expect(data.fields.map(\.name) == expected.fields.map(\.name), "\(string)")
            for field in expected.fields where field.name != "Version" {
                switch (field.kind, written[field.name]) {
                case let (.intList(count, _), .list(list)?):
                    #expect(data[field.name] == .list(list + Array(repeating: 0, count: count - list.count)),
                            "\(string) \(field.name)")
                case (_, let value?):
                    #expect(data[field.name] == value, "\(string) \(field.name)")
                case (_, nil):
                    Issue.record("\(field.name) of version \(expected.version) is not in version \(carried.version)")
                }
            }
            if section.optionalSubsection == .gpc { #expect(data.gpc == gpc, "\(string)") }
        }
    }

    /// The shapes above cover a second layout only where the specifications and reference encoders have one.
    @Test func onlyUsnatHasTwoLayouts() {
        #expect(GPPUSSection.all.filter { $0.layouts.count > 1 }.map(\.apiName) == ["usnat"])
        // Lengths: version 1 (60 bits) is 10 or 11 characters, version 2 (70 bits) 12; the rule depends on it.
        let usnat = GPPUSSection.catalog[7]
        #expect(usnat?.layouts.map(\.bitCount) == [60, 70])
    }

    /// Padding into a later layout never has to cut: every later layout has each earlier field, in the same order and
    /// kind, with lists at least as long.
    @Test func laterLayoutsExtendEarlierOnes() {
        for section in GPPUSSection.all {
            for (earlier, later) in zip(section.layouts, section.layouts.dropFirst()) {
                #expect(earlier.version < later.version, "\(section.apiName)")
                #expect(earlier.fields.map(\.name) == later.fields.map(\.name), "\(section.apiName)")
                for (old, new) in zip(earlier.fields, later.fields) {
                    switch (old.kind, new.kind) {
                    case let (.intList(oldCount, oldBits), .intList(newCount, newBits)):
                        #expect(oldBits == newBits && oldCount <= newCount, "\(section.apiName) \(old.name)")
                    default:
                        #expect(old.kind == new.kind, "\(section.apiName) \(old.name)")
                    }
                }
            }
        }
    }

    // MARK: Untrusted input

    /// Malformed strings of each shape are typed errors that name the field, read in the widths the rule chose; the
    /// mapping then fails as a whole (no key is produced, so nothing is written).
    @Test(arguments: [
        // Version 1 with version 2's length: 3 in the 16th entry (read, not cut).
        ("BAAAAAAAAwBA.QA", GPPUSSectionError.invalidValue(section: 7, field: "SensitiveDataProcessing[16]", value: 3)),
        // Version 1 with version 2's length: 3 in the third child entry.
        ("BAAAAAAAAAxA.QA", .invalidValue(section: 7, field: "KnownChildSensitiveDataConsents[3]", value: 3)),
        // Version 2 with version 1's length: 3 in the 12th entry, read with version 1's widths.
        ("CAAAAAADAQA.QA", .invalidValue(section: 7, field: "SensitiveDataProcessing[12]", value: 3)),
        // Shorter than either layout: truncated in the declared version's widths.
        ("BAAAAAAAA", .truncated(section: 7, field: "MspaCoveredTransaction")),
        ("CAAAAAAAA", .truncated(section: 7, field: "SensitiveDataProcessing[16]")),
        // Version 1 with version 2's length but a GPC sub-section of another type.
        ("BAAAAAAAAABA.AA", .unknownSubsectionType(section: 7, type: 0)),
    ] as [(String, GPPUSSectionError)])
    func malformedStringsOfEitherShapeAreTypedErrors(string: String, error: GPPUSSectionError) throws {
        let usnat = try #require(GPPUSSection.catalog[7])
        #expect(throws: error) { try usnat.decode(string) }
        #expect(throws: IABMappingError.invalidGPPUSSection(error)) {
            try IABKeySet(mapping: ConsentStrings(gppString: GPPUSSectionTests.header(for: 7) + "~" + string))
        }
    }

    /// A store holding earlier keys keeps them when a malformed string of the long shape is offered.
    @Test func malformedLongStringLeavesTheStoreAsItWas() throws {
        let store = ConsentStore.inMemory()
        let before = try IABKeySet(mapping: ConsentStrings(gppString: "DBABLA~BAAAAAAAAQRA.QA"))
        try store.apply(before, record: nil)
        #expect(throws: IABMappingError.self) {
            try store.apply(IABKeySet(mapping: ConsentStrings(gppString: "DBABLA~BAAAAAAAAwBA.QA")), record: nil)
        }
        #expect(store.iabKeys() == before)
        #expect(store.iabKeys()["IABGPP_USNAT_SensitiveDataProcessing"] == .string("0_0_0_0_0_0_0_0_0_0_0_0_0_0_0_1"))
    }
}
