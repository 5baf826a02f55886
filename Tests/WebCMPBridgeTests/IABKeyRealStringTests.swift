import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Mapping of real TC/GPP strings (fixture `keys-real-strings.json`) through the public API and the decoder.
@Suite struct IABKeyRealStringTests {
    struct Fixture: Decodable {
        var cases: [Case]
    }

    struct Case: Decodable, CustomTestStringConvertible {
        var name: String
        var source: String
        var input: Input
        var keys: [String: FixtureValue]
        var testDescription: String { name }
    }

    struct Input: Decodable {
        var tcString: String?
        var gdprApplies: Bool?
        var cmpSDKID: Int?
        var cmpSDKVersion: Int?
        var additionalConsent: String?
        var gppString: String?
        var gppApplicableSections: [Int]?
        var usPrivacy: String?

        /// The key set this input maps to.
        func mapped() throws -> IABKeySet {
            try IABKeySet(
                mapping: ConsentStrings(
                    tcString: tcString, additionalConsent: additionalConsent, gppString: gppString,
                    gppApplicableSections: gppApplicableSections, usPrivacy: usPrivacy),
                gdprApplies: gdprApplies, identity: CMPIdentity(id: cmpSDKID, version: cmpSDKVersion))
        }

        /// The `webcmp inspect --json` arguments for this input.
        var inspectArguments: [String] {
            var arguments = ["inspect", "--json"]
            if let gdprApplies { arguments += ["--gdpr-applies", gdprApplies ? "1" : "0"] }
            if let cmpSDKID { arguments += ["--cmp-sdk-id", String(cmpSDKID)] }
            if let cmpSDKVersion { arguments += ["--cmp-sdk-version", String(cmpSDKVersion)] }
            if let additionalConsent { arguments += ["--ac", additionalConsent] }
            if let gppString { arguments += ["--gpp", gppString] }
            if let gppApplicableSections {
                arguments += ["--gpp-sid", gppApplicableSections.map(String.init).joined(separator: "_")]
            }
            if let usPrivacy { arguments += ["--usp", usPrivacy] }
            if let tcString { arguments.append(tcString) }
            return arguments
        }
    }

    /// A fixture value: a JSON number is a Number key, a JSON string a String key.
    typealias FixtureValue = TestFixtures.KeyValue

    static let cases: [Case] = TestFixtures.decode("keys-real-strings", as: Fixture.self)?.cases ?? []

    static func expected(_ fixture: Case) -> [IABKey: IABValue] {
        Dictionary(uniqueKeysWithValues: fixture.keys.map { (IABKey(rawValue: $0.key), $0.value.value) })
    }

    @Test func fixtureLoads() {
        #expect(Self.cases.count >= 10)
    }

    @Test(arguments: cases)
    func mappingMatchesFixture(_ fixture: Case) throws {
        let keys = try fixture.input.mapped()
        let expected = Self.expected(fixture)
        #expect(keys.values == expected)
        for key in Set(keys.values.keys).symmetricDifference(expected.keys) {
            Issue.record("key \(key) differs: got \(String(describing: keys[key])), expected \(String(describing: expected[key]))")
        }
    }

    /// Whether the bridge would refuse the fixture's TC string (IsServiceSpecific = 0 is invalid in an app).
    static func bridgeRefuses(_ fixture: Case) -> Bool {
        guard let raw = fixture.input.tcString, let model = try? TCString(decoding: raw) else { return false }
        return !model.isServiceSpecific
    }

    @Test(arguments: cases)
    func inspectJSONMatchesFixture(_ fixture: Case) throws {
        let result = try InspectTests.run(fixture.input.inspectArguments)
        if Self.bridgeRefuses(fixture) {
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("IsServiceSpecific is 0"))
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let keys = try InspectTests.keys(fromJSON: result.stdout)
        #expect(keys == Dictionary(uniqueKeysWithValues: Self.expected(fixture).map { ($0.key.rawValue, $0.value) }))
        #expect(result.stdout.filter { $0 == "\n" }.count == 1)
    }

    /// `webcmp inspect --json` and the bridge agree on every fixture: the same keys, or both refuse.
    @MainActor @Test(arguments: cases)
    func inspectAndTheBridgeAgree(_ fixture: Case) throws {
        let input = fixture.input
        let harness = BridgeHarness(dialect: .gravito) { configuration in
            configuration.cmpSDKID = input.cmpSDKID
            configuration.cmpSDKVersion = input.cmpSDKVersion
            configuration.gdprApplies = input.gdprApplies
        }
        var body: [String: JSONValue] = ["type": .string("save")]
        if let tcString = input.tcString { body["tcstring"] = .string(tcString) }
        if let ac = input.additionalConsent { body["acstring"] = .string(ac) }
        if let gpp = input.gppString { body["gppstring"] = .string(gpp) }
        if let usp = input.usPrivacy { body["uspstring"] = .string(usp) }
        if let sections = input.gppApplicableSections {
            body["applicableSections"] = .array(sections.map { .number(Double($0)) })
        }
        if input.tcString == nil && input.gppString == nil { return }  // a Gravito save needs one of them
        if input.gppApplicableSections?.contains(where: { $0 < 1 }) == true { return }  // not expressible as ids
        harness.webView.post("jsHandler", .object(body))
        let result = try InspectTests.run(input.inspectArguments)
        if Self.bridgeRefuses(fixture) {
            #expect(harness.errorCodes == ["invalidConsent"])
            #expect(harness.store.iabKeys().values.isEmpty)
            #expect(result.status == 2)
            return
        }
        #expect(harness.errorCodes == [])
        let stored = Dictionary(uniqueKeysWithValues: harness.store.iabKeys().values.map { ($0.key.rawValue, $0.value) })
        #expect(try InspectTests.keys(fromJSON: result.stdout) == stored)
    }

    @Test(arguments: cases)
    func storeRoundTripOfRealKeys(_ fixture: Case) throws {
        let store = ConsentStore.inMemory()
        let keys = try fixture.input.mapped()
        try store.apply(keys, record: ConsentRecord(
            strings: ConsentStrings(tcString: fixture.input.tcString), savedAt: Date()))
        #expect(store.iabKeys() == keys)
    }
}

/// Validation of every input through the public mapping API (uses the codec's parsers).
@Suite struct IABKeyValidationTests {
    static let tc = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"

    @Test func additionalConsentIsValidatedAndNeedsATCString() throws {
        for valid in ["1~1.35.41.101", "2~1.35.41.101~dv.9.21.81", "2~~dv.1.2", "2~1.2~dv."] {
            let keys = try IABKeySet(mapping: ConsentStrings(tcString: Self.tc, additionalConsent: valid))
            #expect(keys[.additionalConsent] == .string(valid))
        }
        for invalid in ["3~1", "1~a.b", "2~1.2", "~", "2~1~dv.x", "1~0"] {
            #expect(throws: IABMappingError.self, "\(invalid)") {
                try IABKeySet(mapping: ConsentStrings(tcString: Self.tc, additionalConsent: invalid))
            }
        }
        #expect(try IABKeySet(mapping: ConsentStrings(additionalConsent: "2~1~dv.")).values.isEmpty)
    }

    /// One error says a TC string is invalid: the mapping's, with the decoder's error; the commit (and through it the
    /// bridge and `webcmp inspect`) refuses with that same error.
    @Test func invalidTCStringThrowsTheDecoderError() throws {
        for invalid in ["BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA", "C+++", "not a tc string", String(repeating: "C", count: 1 << 20)] {
            let decoderError = try #require(#expect(throws: TCStringError.self) { try TCString(decodingPrecisely: invalid) })
            #expect(throws: IABMappingError.invalidTCString(decoderError)) {
                try IABKeySet(mapping: ConsentStrings(tcString: invalid))
            }
            #expect(throws: ConsentCommitError.invalidMapping(.invalidTCString(decoderError))) {
                try ConsentCommit(
                    strings: ConsentStrings(tcString: invalid), previous: nil, rules: ConsentCommit.Rules(), now: Date())
            }
            let bridgeError = ConsentBridgeError(ConsentCommitError.invalidMapping(.invalidTCString(decoderError)))
            #expect(bridgeError.code == .invalidConsent && bridgeError.consentError?.code == .invalidTCString)
            #expect(bridgeError.description.hasPrefix("the saved consent was refused: The TC string is invalid: "))
        }
    }

    @Test func invalidGPPStrings() {
        let cases: [(String, (IABMappingError) -> Bool)] = [
            ("XYZ~1YNN", { if case .invalidGPPString = $0 { true } else { false } }),
            ("DBABTA~1YNN~1YNN", { if case .invalidGPPString = $0 { true } else { false } }),
            ("DBABTA~1ZZZ", { $0 == .invalidGPPSection(id: 6, reason: "not a US Privacy string (1 followed by three of Y, N, -)") }),
            ("DBABTA~1<NN", { if case .invalidGPPSection(id: 6, _) = $0 { true } else { false } }),
            ("DBABM~CPXx", { if case .invalidGPPTCFSection = $0 { true } else { false } }),
        ]
        for (gpp, matches) in cases {
            do {
                _ = try IABKeySet(mapping: ConsentStrings(tcString: Self.tc, gppString: gpp))
                Issue.record("\(gpp) was accepted")
            } catch {
                #expect(matches(error), "\(gpp): \(error)")
            }
        }
    }

    @Test func gppTCFSectionDifferentFromTheTCStringIsMirroredFromItsOwnString() throws {
        let section = "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA"
        let keys = try IABKeySet(mapping: ConsentStrings(tcString: Self.tc, gppString: "DBABM~" + section))
        #expect(keys[.tcString] == .string(Self.tc))
        #expect(keys["IABGPP_2_TCString"] == .string(section))
        // One CMP SDK per app: the mirror takes the SDK id from the TC string (880), not from the section (31).
        #expect(keys["IABGPP_TCFEU2_CmpSdkID"] == .int(880))
        #expect(keys[.cmpSDKID] == .int(880))
        let gppOnly = try IABKeySet(mapping: ConsentStrings(gppString: "DBABM~" + section))
        #expect(gppOnly["IABGPP_TCFEU2_CmpSdkID"] == .int(31))
        #expect(gppOnly[.cmpSDKID] == nil)
        #expect(keys["IABGPP_TCFEU2_PublisherCC"] == .string("DE"))
        #expect(keys[.gppSID] == .string("2"))
    }
}
