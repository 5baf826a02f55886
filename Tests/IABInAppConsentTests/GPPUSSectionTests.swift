import Testing
@testable import IABInAppConsent

/// The GPP US section decoder (ids 7–27) against strings written by an independent encoder.
///
/// Every vector below is an encoder output that the IAB reference library IABTechLab/iabgpp-es (commit `fd0546e`,
/// v3.2.0) asserts in its own tests (`expect(x.encode()).to.eql("…")` after the listed `setFieldValue` calls), cited
/// by file and line. Fields not set keep the encoder's defaults: `Version` 1 (usnat 2), `MspaVersion` 1,
/// `MspaCoveredTransaction` 1, every other field 0.
@Suite struct GPPUSSectionTests {
    struct Vector: Sendable, CustomStringConvertible {
        var id: Int
        var string: String
        var values: [String: GPPUSValue]
        var gpc: Bool?
        var source: String
        var description: String { "\(id) \(string) (\(source))" }
    }

    static let alternating8: GPPUSValue = .list([2, 1, 0, 2, 1, 0, 2, 1])
    static let mspa: [String: GPPUSValue] = [
        "MspaCoveredTransaction": .int(1), "MspaOptOutOptionMode": .int(1), "MspaServiceProviderMode": .int(2),
    ]

    /// `[name: 1]` for each name.
    static func ones(_ names: String...) -> [String: GPPUSValue] {
        Dictionary(uniqueKeysWithValues: names.map { ($0, GPPUSValue.int(1)) })
    }

    static func merged(_ parts: [String: GPPUSValue]...) -> [String: GPPUSValue] {
        parts.reduce(into: [:]) { $0.merge($1) { _, new in new } }
    }

    /// The state shape "ProcessingNotice …, SensitiveDataProcessing, KnownChildSensitiveDataConsents,
    /// AdditionalDataProcessingConsent" as the reference tests fill it.
    static func processingState(sensitive: GPPUSValue, knownChild: GPPUSValue) -> [String: GPPUSValue] {
        merged(
            ones("ProcessingNotice", "SaleOptOutNotice", "TargetedAdvertisingOptOutNotice", "SaleOptOut",
                 "TargetedAdvertisingOptOut", "AdditionalDataProcessingConsent"),
            ["SensitiveDataProcessing": sensitive, "KnownChildSensitiveDataConsents": knownChild], mspa)
    }

    static let sharingNotices = ones(
        "SharingNotice", "SaleOptOutNotice", "TargetedAdvertisingOptOutNotice", "SaleOptOut",
        "TargetedAdvertisingOptOut")

    /// Fully set vectors: every field of the section has a non-default value, so a wrong order, width or name fails.
    static let fullVectors: [Vector] = [
        Vector(
            id: 7, string: "CVVVkkkkkpFY.YA",
            values: merged(
                ones("SharingNotice", "SaleOptOutNotice", "SharingOptOutNotice", "TargetedAdvertisingOptOutNotice",
                     "SensitiveDataProcessingOptOutNotice", "SensitiveDataLimitUseNotice", "SaleOptOut",
                     "SharingOptOut", "TargetedAdvertisingOptOut", "PersonalDataConsents"),
                ["SensitiveDataProcessing": .list([2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 0, 2]),
                 "KnownChildSensitiveDataConsents": .list([2, 1, 0]), "Version": .int(2)], mspa),
            gpc: true, source: "test/encoder/section/UsNat.test.ts:11"),
        Vector(
            id: 8, string: "BVWSSSVY.YA",
            values: merged(
                ones("SaleOptOutNotice", "SharingOptOutNotice", "SensitiveDataLimitUseNotice", "SaleOptOut",
                     "SharingOptOut", "PersonalDataConsents"),
                ["SensitiveDataProcessing": .list([2, 1, 0, 2, 1, 0, 2, 1, 0]),
                 "KnownChildSensitiveDataConsents": .list([2, 1])], mspa),
            gpc: true, source: "UsCa.test.ts:11"),
        Vector(
            id: 9, string: "BVWSSVY",
            values: merged(sharingNotices, ["SensitiveDataProcessing": alternating8,
                "KnownChildSensitiveDataConsents": .int(1)], mspa),
            gpc: nil, source: "UsVa.test.ts:11"),
        Vector(
            id: 10, string: "BVWSSVg.YA",
            values: merged(sharingNotices, ["SensitiveDataProcessing": .list([2, 1, 0, 2, 1, 0, 2]),
                "KnownChildSensitiveDataConsents": .int(1)], mspa),
            gpc: true, source: "UsCo.test.ts:11"),
        Vector(
            id: 11, string: "BVVkklWA",
            values: merged(sharingNotices, ones("SensitiveDataProcessingOptOutNotice"),
                ["SensitiveDataProcessing": alternating8, "KnownChildSensitiveDataConsents": .int(1)], mspa),
            gpc: nil, source: "UsUt.test.ts:11"),
        Vector(
            id: 12, string: "BVWSSZFg.YA",
            values: merged(sharingNotices, ["SensitiveDataProcessing": alternating8,
                "KnownChildSensitiveDataConsents": .list([2, 1, 0])], mspa),
            gpc: true, source: "UsCt.test.ts:11"),
        Vector(
            id: 13, string: "BVWSSZlY",
            values: processingState(sensitive: alternating8, knownChild: .list([2, 1, 2])),
            gpc: nil, source: "UsFl.test.ts:11"),
        Vector(
            id: 14, string: "BVWSSZFY.YA",
            values: merged(sharingNotices, ones("AdditionalDataProcessingConsent"),
                ["SensitiveDataProcessing": alternating8, "KnownChildSensitiveDataConsents": .list([2, 1, 0])], mspa),
            gpc: true, source: "UsMt.test.ts:11"),
        Vector(
            id: 15, string: "BVWSSRpFYA.YA",
            values: processingState(
                sensitive: .list([2, 1, 0, 2, 1, 0, 2, 1, 0, 1, 2]), knownChild: .list([2, 1, 0])),
            gpc: true, source: "UsOr.test.ts:11"),
        Vector(
            id: 16, string: "BVWSSVWA.YA", values: processingState(sensitive: alternating8, knownChild: .int(1)),
            gpc: true, source: "UsTx.test.ts:11"),
        Vector(
            id: 17, string: "BVWSSSSVYA.YA",
            values: processingState(
                sensitive: .list([2, 1, 0, 2, 1, 0, 2, 1, 0]), knownChild: .list([2, 1, 0, 2, 1])),
            gpc: true, source: "UsDe.test.ts:11"),
        Vector(
            id: 18, string: "BVVkklWA.YA",
            values: merged(
                ones("ProcessingNotice", "SaleOptOutNotice", "TargetedAdvertisingOptOutNotice",
                     "SensitiveDataOptOutNotice", "SaleOptOut", "TargetedAdvertisingOptOut"),
                ["SensitiveDataProcessing": alternating8, "KnownChildSensitiveDataConsents": .int(1)], mspa),
            gpc: true, source: "UsIa.test.ts:11"),
        Vector(
            id: 19, string: "BVWSSVWA.YA", values: processingState(sensitive: alternating8, knownChild: .int(1)),
            gpc: true, source: "UsNe.test.ts:11"),
        Vector(
            id: 20, string: "BVWSSZFY.YA",
            values: processingState(sensitive: alternating8, knownChild: .list([2, 1, 0])),
            gpc: true, source: "UsNh.test.ts:11"),
        Vector(
            id: 21, string: "BVWSSRklWA.YA",
            values: processingState(
                sensitive: .list([2, 1, 0, 2, 1, 0, 2, 1, 0, 1]), knownChild: .list([2, 1, 0, 2, 1])),
            gpc: true, source: "UsNj.test.ts:11"),
        Vector(
            id: 22, string: "BVWSSVWA.YA", values: processingState(sensitive: alternating8, knownChild: .int(1)),
            gpc: true, source: "UsTn.test.ts:11"),
        Vector(
            id: 23, string: "BVWSSVWA.YA", values: processingState(sensitive: alternating8, knownChild: .int(1)),
            gpc: true, source: "UsMn.test.ts:11"),
        Vector(
            id: 24, string: "BVVU.YA",
            values: ones("MspaCoveredTransaction", "MspaMode", "ProcessingNotice", "SaleOptOutNotice",
                         "TargetedAdvertisingOptOutNotice", "SaleOptOut", "TargetedAdvertisingOptOut",
                         "AdditionalDataProcessingConsent"),
            gpc: true, source: "UsMd.test.ts:11"),
    ] + [(25, "UsIn"), (26, "UsKy"), (27, "UsRi")].map { id, file in
        Vector(
            id: id, string: "BVVV.kkk",
            values: merged(
                ones("MspaCoveredTransaction", "MspaMode", "ProcessingNotice", "SaleOptOutNotice",
                     "TargetedAdvertisingOptOutNotice", "SaleOptOut", "TargetedAdvertisingOptOut",
                     "KnownChildSensitiveDataConsents", "AdditionalDataProcessingConsent"),
                ["SensitiveDataProcessing": alternating8]),
            gpc: nil, source: "\(file).test.ts:11")
    }

    @Test(arguments: fullVectors)
    func decodesFullySetReferenceStrings(vector: Vector) throws {
        let section = try #require(GPPUSSection.catalog[vector.id])
        let data = try section.decode(vector.string)
        var expected = vector.values
        if section.hasVersionField, expected["Version"] == nil { expected["Version"] = .int(1) }
        if !section.hasVersionField { expected["MspaVersion"] = .int(1) }
        #expect(Set(data.fields.map(\.name)) == Set(expected.keys), "field names")
        #expect(data.fields.count == expected.count, "no field twice")
        for field in data.fields {
            #expect(field.value == expected[field.name], "\(field.name)")
        }
        #expect(data.gpc == vector.gpc)
    }

    /// `GppModel.test.ts:125`: the reference encoder's defaults for every section, asserted as one GPP string
    /// (usnat encoded as version 1, the other sections as version 1; 24–27 with `MspaVersion` 1).
    static let allSectionsDefaults =
        "DBACOcGA~CPSG_8APSG_8ANwAAAENAAFgAAAAAAAAAAAAAAAAAAAA.IAAA.YAAAAAAAAAAA~BPSG_8APSG_8AAAAAAENAACAAAAAAAAAAAAAAAAAAA"
        + ".YAAAAAAAAAA~1---~BAAAAAAAAQA.QA~BAAAAABA.QA~BAAAABA~BAAAAEA.QA~BAAAAAQA~BAAAAAEA.QA~BAAAAABA~BAAAAABA.QA"
        + "~BAAAAAABAA.QA~BAAAAAQA.QA~BAAAAAABAA.QA~BAAAAAQA.QA~BAAAAAQA.QA~BAAAAABA.QA~BAAAAAAAQA.QA~BAAAAAQA.QA"
        + "~BAAAAAQA.QA~BQAA.QA~BQAA.AAA~BQAA.AAA~BQAA.AAA"

    @Test func everySectionIDOfTheSpecDecodesFromOneReferenceString() throws {
        let input = try GPPString(validatingForMapping: Self.allSectionsDefaults)
        let decoded = try input.usSections()
        #expect(decoded.map(\.section.id) == Array(7...27))
        #expect(GPPUSSection.all.map(\.id) == Array(7...27))
        let names = "usnat usca usva usco usut usct usfl usmt usor ustx usde usia usne usnh usnj ustn usmn usmd usin usky usri"
        #expect(GPPUSSection.all.map(\.apiName) == names.split(separator: " ").map(String.init))
        for data in decoded {
            #expect(data.version == 1, "\(data.section.apiName)")
            for field in data.fields {
                switch (field.name, field.value) {
                case ("Version", .int(let value)), ("MspaVersion", .int(let value)), ("MspaCoveredTransaction", .int(let value)):
                    #expect(value == 1, "\(data.section.apiName) \(field.name)")
                case (_, .int(let value)): #expect(value == 0, "\(data.section.apiName) \(field.name)")
                case (_, .list(let values)): #expect(values.allSatisfy { $0 == 0 }, "\(data.section.apiName) \(field.name)")
                case (_, .bool): Issue.record("no core field is a Boolean")
                }
            }
            // usva, usut, usfl have no GPC sub-section; usin, usky, usri have the sensitive-data one instead.
            let hasGPC = ![9, 11, 13, 25, 26, 27].contains(data.section.id)
            #expect(data.gpc == (hasGPC ? false : nil), "\(data.section.apiName)")
        }
        let usin = try #require(decoded.first { $0.section.id == 25 })
        #expect(usin["SensitiveDataProcessing"] == .list([0, 0, 0, 0, 0, 0, 0, 0]))
    }

    // MARK: usnat versions

    @Test(arguments: [
        // UsNat.test.ts:40 (v1 with v1 values) and GppModel.test.ts:136.
        ("BAAAVVVVUQA.QA", 1, Array(repeating: 1, count: 12), [1, 1]),
        // UsNat.test.ts:56, version 2 with 12 + 2 entries set (the rest stay 0).
        ("CAAAVVVVAFBA.QA", 2, Array(repeating: 1, count: 12) + [0, 0, 0, 0], [1, 1, 0]),
        // UsNat.test.ts:63, version 2 with 16 + 3 entries.
        ("CAAAVVVVVVRA.QA", 2, Array(repeating: 1, count: 16), [1, 1, 1]),
        // GppModel.test.ts:826/846/856: version 2 strings, two of them in the version 1 length, decoded by the
        // reference with the version 2 lengths (asserted with `.to.eql`).
        ("CAAAAAAAAQA.QA", 2, Array(repeating: 0, count: 16), [0, 0, 0]),
        ("CAAAAAABEQA.QA", 2, Array(repeating: 0, count: 11) + [1, 0, 0, 0, 0], [0, 1, 0]),
        ("CAAAAAAAAQRA.QA", 2, Array(repeating: 0, count: 15) + [1], [0, 0, 1]),
        // GppModel.test.ts:464: version 1 in the version 2 length (iabgpp-es 3.1.x and iabgpp-java 3.2.x wrote it);
        // read as version 2 with 16 + 3 entries, as iabgpp-java 4.0.0-RC1 does (GPPUSLengthRuleTests).
        ("BAAAAAAAAABA.QA", 2, Array(repeating: 0, count: 16), [0, 0, 0]),
    ])
    func usnatVersionsAndLengths(string: String, version: Int, sensitive: [Int], knownChild: [Int]) throws {
        let usnat = try #require(GPPUSSection.catalog[7])
        let data = try usnat.decode(string)
        #expect(data.version == version)
        #expect(data.int("Version") == version)
        #expect(data["SensitiveDataProcessing"] == .list(sensitive))
        #expect(data["KnownChildSensitiveDataConsents"] == .list(knownChild))
        #expect(data.int("MspaCoveredTransaction") == 1)
        #expect(data.gpc == false)
    }

    @Test func gpcPresentAbsent() throws {
        let usnat = try #require(GPPUSSection.catalog[7])
        // UsNat.test.ts:34: defaults with GpcSegmentIncluded = false.
        let absent = try usnat.decode("CAAAAAAAAABA")
        #expect(absent.gpc == nil)
        #expect(absent.keys["IABGPP_USNAT_Gpc"] == nil)
        #expect(try usnat.decode("CAAAAAAAAABA.QA").keys["IABGPP_USNAT_Gpc"] == .int(0))
        #expect(try usnat.decode("CAAAAAAAAABA.YA").keys["IABGPP_USNAT_Gpc"] == .int(1))
        // UsCa.test.ts:30 and UsCo.test.ts:29.
        #expect(try #require(GPPUSSection.catalog[8]).decode("BAAAAABA").gpc == nil)
        #expect(try #require(GPPUSSection.catalog[10]).decode("BAAAAEA").gpc == nil)
        // UsMd.test.ts:27; usin without its sensitive-data sub-section (UsIn.test.ts:28).
        #expect(try #require(GPPUSSection.catalog[24]).decode("BQAA").gpc == nil)
        let usin = try #require(GPPUSSection.catalog[25]).decode("BQAA")
        #expect(usin["SensitiveDataProcessing"] == nil)
        #expect(usin.keys["IABGPP_USIN_SensitiveDataProcessing"] == nil)
    }

    // MARK: Keys

    @Test func usnatKeysWithExactNamesAndTypes() throws {
        let keys = try #require(GPPUSSection.catalog[7]).decode("CVVVkkkkkpFY.YA").keys
        let expected: [IABKey: IABValue] = [
            "IABGPP_USNAT_Version": .int(2),
            "IABGPP_USNAT_SharingNotice": .int(1),
            "IABGPP_USNAT_SaleOptOutNotice": .int(1),
            "IABGPP_USNAT_SharingOptOutNotice": .int(1),
            "IABGPP_USNAT_TargetedAdvertisingOptOutNotice": .int(1),
            "IABGPP_USNAT_SensitiveDataProcessingOptOutNotice": .int(1),
            "IABGPP_USNAT_SensitiveDataLimitUseNotice": .int(1),
            "IABGPP_USNAT_SaleOptOut": .int(1),
            "IABGPP_USNAT_SharingOptOut": .int(1),
            "IABGPP_USNAT_TargetedAdvertisingOptOut": .int(1),
            "IABGPP_USNAT_SensitiveDataProcessing": .string("2_1_0_2_1_0_2_1_0_2_1_0_2_1_0_2"),
            "IABGPP_USNAT_KnownChildSensitiveDataConsents": .string("2_1_0"),
            "IABGPP_USNAT_PersonalDataConsents": .int(1),
            "IABGPP_USNAT_MspaCoveredTransaction": .int(1),
            "IABGPP_USNAT_MspaOptOutOptionMode": .int(1),
            "IABGPP_USNAT_MspaServiceProviderMode": .int(2),
            "IABGPP_USNAT_Gpc": .int(1),
        ]
        #expect(keys == expected)
    }

    @Test func stateKeyPrefixesAreTheUpperCasedAPINames() throws {
        let input = try GPPString(validatingForMapping: Self.allSectionsDefaults)
        let keys = try input.usSectionKeys()
        for name in ["USCA_SharingOptOut", "USFL_SaleOptOut", "USVA_TargetedAdvertisingOptOut", "USMD_MspaMode",
                     "USRI_SensitiveDataProcessing", "USTN_KnownChildSensitiveDataConsents", "USCA_Gpc", "USMN_Gpc"] {
            #expect(keys[IABKey(rawValue: "IABGPP_" + name)] != nil, "\(name)")
        }
        for name in ["USVA_Gpc", "USUT_Gpc", "USFL_Gpc", "USIN_Gpc", "USNAT_GpcSegmentType", "USNAT_GpcSegmentIncluded",
                     "USNAT_SubsectionType", "USIN_SensitiveDataConsentSegmentIncluded", "USMD_Version"] {
            #expect(keys[IABKey(rawValue: "IABGPP_" + name)] == nil, "\(name)")
        }
        #expect(keys["IABGPP_USCA_SensitiveDataProcessing"] == .string("0_0_0_0_0_0_0_0_0"))
        #expect(keys["IABGPP_USCO_KnownChildSensitiveDataConsents"] == .int(0))
        // Every key's value has the kind IABKey.expectedKind gives it (so the store's type check applies).
        for (key, value) in keys {
            #expect(key.expectedKind == value.kind, "\(key)")
        }
    }

    @Test func storeAcceptsTheMappedKeySet() throws {
        let keys = try IABKeySet(mapping: ConsentStrings(gppString: Self.allSectionsDefaults))
        #expect(keys["IABGPP_USNAT_SaleOptOut"] == .int(0))
        #expect(keys["IABGPP_TCFEU2_CmpSdkID"] != nil, "the TCF EU mirror keys are still produced")
        let store = ConsentStore.inMemory()
        try store.apply(keys, record: nil)
        #expect(store.iabKeys() == keys)
        // A wrong type for a US key is refused.
        var wrong = keys
        wrong["IABGPP_USNAT_SaleOptOut"] = .string("1")
        #expect(throws: ConsentStoreError.self) { try ConsentStore.inMemory().apply(wrong, record: nil) }
    }

    // MARK: Errors

    @Test(arguments: [
        (7, "CVVV", GPPUSSectionError.truncated(section: 7, field: "SensitiveDataProcessing[1]")),
        (7, "", .emptySubsection(section: 7, index: 0)),
        (7, "CVV!kkkkkpFY.YA", .invalidCharacter(section: 7, offset: 3)),
        (7, "CVVVkkkkkpFY.Y*", .invalidCharacter(section: 7, offset: 14)),
        (7, "DAAAAAAAAABA.QA", .unsupportedVersion(section: 7, version: 3)),
        (7, "AAAAAAAAAABA.QA", .unsupportedVersion(section: 7, version: 0)),
        (8, "CAAAAABA", .unsupportedVersion(section: 8, version: 2)),
        (7, "CVVVkkkkkpFY.AA", .unknownSubsectionType(section: 7, type: 0)),
        (7, "CVVVkkkkkpFY.", .emptySubsection(section: 7, index: 1)),
        (7, "CVVVkkkkkpFY.YA.YA", .unexpectedSubsection(section: 7, index: 2)),
        (9, "BVWSSVY.YA", .unexpectedSubsection(section: 9, index: 1)),
        (7, "C_", .invalidValue(section: 7, field: "SharingNotice", value: 3)),
        (25, "BVVV.k", .truncated(section: 25, field: "SensitiveDataProcessing[4]")),
        (24, "BVV", .truncated(section: 24, field: "TargetedAdvertisingOptOut")),
    ] as [(Int, String, GPPUSSectionError)])
    func badSectionsThrowTypedErrors(id: Int, string: String, error: GPPUSSectionError) throws {
        let section = try #require(GPPUSSection.catalog[id])
        #expect(throws: error) { try section.decode(string) }
    }

    @Test func undecodableUSSectionFailsTheWholeMapping() {
        #expect(throws: IABMappingError.invalidGPPUSSection(.truncated(section: 7, field: "SensitiveDataProcessing[1]"))) {
            try IABKeySet(mapping: ConsentStrings(tcString: nil, gppString: "DBABLA~CVVV", usPrivacy: "1YNN"))
        }
    }

    /// Random edits of valid strings (replace, drop, insert, cut) never trap: each decodes or throws the typed error.
    @Test func randomMutationsNeverCrash() throws {
        var random = SplitMix64(state: 0x6770_7573)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~!= ")
        var decoded = 0
        var rejected = 0
        for vector in Self.fullVectors {
            let section = try #require(GPPUSSection.catalog[vector.id])
            for _ in 0..<200 {
                var characters = Array(vector.string)
                for _ in 0...(random.next() % 3) {
                    let position = Int(random.next() % UInt64(characters.count + 1))
                    let character = alphabet[Int(random.next() % UInt64(alphabet.count))]
                    switch random.next() % 4 {
                    case 0 where position < characters.count: characters[position] = character
                    case 1 where position < characters.count: characters.remove(at: position)
                    case 2: characters.insert(character, at: position)
                    default: characters = Array(characters.prefix(position))
                    }
                }
                let mutated = String(characters)
                do {
                    _ = try section.decode(mutated)
                    decoded += 1
                } catch {
                    rejected += 1
                }
                // Through the whole mapping as well (header for this one section id).
                _ = try? IABKeySet(mapping: ConsentStrings(gppString: Self.header(for: vector.id) + "~" + mutated))
            }
        }
        #expect(decoded > 0 && rejected > 0, "the mutations exercise both outcomes: \(decoded) / \(rejected)")
    }

    /// A GPP header listing one section id (Type 3, Version 1, one single-id entry, Fibonacci offset), built bit by
    /// bit from the "Header Encoding" rules, independent of the reader.
    static func header(for id: Int) -> String {
        var bits = "000011" + "000001" + "000000000001" + "0" + GPPHeaderEncoding.fibonacci(id)
        // Padded first to a multiple of 8 bits, then of 6, as the reference encoder pads.
        while bits.count % 8 != 0 { bits += "0" }
        while bits.count % 6 != 0 { bits += "0" }
        return GPPHeaderEncoding.base64URL(bits)
    }

    @Test func headerHelperMatchesTheReferenceHeaders() throws {
        // "DBABLA" (usnat) and "DBABTA" (uspv1) are headers of the reference encoder's tests (GppModel.test.ts).
        #expect(Self.header(for: 7) == "DBABLA")
        #expect(Self.header(for: 6) == "DBABTA")
        for id in 7...27 {
            #expect(try GPPString(parsing: Self.header(for: id) + "~x").sectionIDs == [id])
        }
    }
}
