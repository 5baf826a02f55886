import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// TCF 2.3 requires the DisclosedVendors segment in TC strings created on or after 2026-02-28. Strings are
/// built with the package's own encoder (``TCString/encoded()``), at the policy versions CMPs write (4: TCF 2.2's;
/// 5: current vendor lists', before and after TCF 2.3), or are the IAB specification's example string.
@Suite struct DisclosedVendorsTests {
    /// 2026-02-28T00:00:00Z in epoch deciseconds: the cut-over.
    static let cutOver: Int64 = 17_722_368_000
    static let day: Int64 = 864_000
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    /// A TC string created (and last updated) at `created` deciseconds, with or without the DisclosedVendors segment.
    static func string(created: Int64, policyVersion: Int = 5, disclosed: IDSet? = [1, 2, 755]) throws -> String {
        try TCString(
            createdDeciseconds: created, lastUpdatedDeciseconds: created, cmpID: 300, cmpVersion: 2, consentScreen: 1,
            vendorListVersion: 150, policyVersion: policyVersion, purposeConsents: [1, 2], vendorConsents: [2, 755],
            disclosedVendors: disclosed
        ).encoded()
    }

    static func commit(_ tcString: String, policy: MissingDisclosedVendorsPolicy = .warn) throws(ConsentCommitError)
        -> ConsentCommit
    {
        try ConsentCommit(
            strings: ConsentStrings(tcString: tcString), gdprApplies: true, previous: nil,
            rules: ConsentCommit.Rules(cmpSDKID: 300, cmpSDKVersion: 1, missingDisclosedVendors: policy), now: now)
    }

    static func ruleDiagnostics(_ commit: ConsentCommit) -> [String] {
        commit.diagnostics.filter { $0.contains("DisclosedVendors") }
    }

    @Test func theCutOverIsTheStartOf28February2026UTC() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let expected = calendar.date(from: DateComponents(year: 2026, month: 2, day: 28))
        #expect(TCString.disclosedVendorsRequiredSince == expected)
        #expect(Int64(TCString.disclosedVendorsRequiredSince.timeIntervalSince1970 * 10) == Self.cutOver)
    }

    /// Created before / on / after the cut-over × with / without the segment × policy versions 4 and 5: only a string
    /// created on or after the cut-over without the segment breaks the rule, whatever its policy version.
    @Test(arguments: [
        // (created, policy version, has segment, breaks the rule)
        (cutOver - 400 * day, 4, false, false),  // a TCF 2.2 string of January 2025
        (cutOver - day, 5, false, false),  // the day before: exempt
        (cutOver - 1, 5, false, false),  // a decisecond before: exempt
        (cutOver, 5, false, true),  // the day of the cut-over
        (cutOver, 4, false, true),  // an old policy version does not exempt a new string
        (cutOver + 2 * day, 5, false, true),
        (cutOver + 2 * day, 4, false, true),
        (cutOver - day, 5, true, false),
        (cutOver, 5, true, false),
        (cutOver + 2 * day, 4, true, false),
        (cutOver + 2 * day, 5, true, false),
    ])
    func onlyStringsCreatedOnOrAfterTheCutOverWithoutTheSegmentBreakTheRule(
        created: Int64, policyVersion: Int, hasSegment: Bool, breaksRule: Bool
    ) throws {
        let raw = try Self.string(created: created, policyVersion: policyVersion, disclosed: hasSegment ? [1, 2, 755] : nil)
        let decoded = try TCString(decoding: raw)
        #expect((decoded.disclosedVendors != nil) == hasSegment)
        #expect(decoded.isMissingRequiredDisclosedVendors == breaksRule)

        let warned = try Self.commit(raw)
        #expect(Self.ruleDiagnostics(warned).count == (breaksRule ? 1 : 0))
        // The consent is stored either way under the default policy.
        #expect(warned.keys[.tcString] == .string(raw))

        do {
            let refused = try Self.commit(raw, policy: .refuse)
            #expect(!breaksRule, "a string that breaks the rule was not refused")
            #expect(Self.ruleDiagnostics(refused).isEmpty)
        } catch {
            #expect(breaksRule, "refused: \(error)")
            #expect(error == .missingDisclosedVendors(created: decoded.created))
        }
    }

    @Test func theDiagnosticNamesTheRuleTheDateAndThatTheConsentWasStored() throws {
        let raw = try Self.string(created: Self.cutOver + 2 * Self.day, disclosed: nil)
        let commit = try Self.commit(raw)
        let message = try #require(Self.ruleDiagnostics(commit).first)
        #expect(message.contains("created 2026-03-02"))
        #expect(message.contains("TCF 2.3 requires the DisclosedVendors segment"))
        #expect(message.contains("on or after 2026-02-28"))
        #expect(message.contains("\"TC String Format\""))
        #expect(message.contains("the consent was stored"))
        #expect(commit.keys[.disclosedVendors] == nil)
        #expect(commit.keys[.vendorConsents] != nil)
    }

    /// A segment that is present but lists no vendor is present: the kit cannot tell which vendors were shown.
    @Test func anEmptySegmentCountsAsPresent() throws {
        let raw = try Self.string(created: Self.cutOver + Self.day, disclosed: [])
        #expect(raw.split(separator: ".").count == 2)
        #expect(try TCString(decoding: raw).disclosedVendors == [])
        #expect(Self.ruleDiagnostics(try Self.commit(raw, policy: .refuse)).isEmpty)
    }

    /// The IAB specification's example string (created 2025-06-03) with and without its DisclosedVendors segment: a
    /// real string from before the cut-over is exempt either way.
    @Test func theSpecificationsExampleFromBeforeTheCutOverIsExemptWithOrWithoutTheSegment() throws {
        let example = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"
        let coreOnly = String(example.split(separator: ".")[0])
        #expect(try TCString(decoding: coreOnly).disclosedVendors == nil)
        #expect(try TCString(decoding: example).disclosedVendors == [1, 2, 3, 4, 5, 100, 404])
        for raw in [example, coreOnly] {
            #expect(try TCString(decoding: raw).requiresDisclosedVendors == false)
            #expect(Self.ruleDiagnostics(try Self.commit(raw, policy: .refuse)).isEmpty)
        }
    }

    /// A stored 2.2-style string is withdrawn without refusal: reject all keeps `Created` and never applies the
    /// refusal policy.
    @Test func rejectAllOfAStoredStringWithoutTheSegmentIsNeverRefused() throws {
        let created = Self.cutOver - Self.day
        let raw = try Self.string(created: created, disclosed: nil)
        let store = ConsentStore.inMemory()
        let commit = try Self.commit(raw)
        try store.apply(commit.keys, record: commit.record)
        let summary = try store.rejectAll(now: Self.now)
        let rejected = try TCString(decoding: try #require(summary.tcString))
        #expect(rejected.createdDeciseconds == created)
        #expect(rejected.lastUpdatedDeciseconds > created)
        #expect(rejected.vendorConsents.isEmpty)

        let late = try Self.string(created: Self.cutOver + Self.day, disclosed: nil)
        let lateStore = ConsentStore.inMemory()
        let lateCommit = try Self.commit(late)
        try lateStore.apply(lateCommit.keys, record: lateCommit.record)
        #expect(try TCString(decoding: try #require(try lateStore.rejectAll(now: Self.now).tcString)).vendorConsents.isEmpty)
    }

    @Test func aRefusalIsARefusedConsentWithItsOwnConsentCodeAndUserFacingMessage() {
        let created = Date(timeIntervalSince1970: 1_772_409_600)  // 2026-03-02
        let error = ConsentBridgeError(ConsentCommitError.missingDisclosedVendors(created: created))
        #expect(error.code == .invalidConsent)
        #expect(error.consentError?.code == .missingDisclosedVendors)
        #expect(error.consentError?.code.rawValue == "missingDisclosedVendors")
        #expect(error.userFacingText == .errorPageOutdated)
        #expect(error.consentError?.underlying as? ConsentCommitError == .missingDisclosedVendors(created: created))
        #expect(!error.isSecurityEvent)
        #expect(error.description.contains("created 2026-03-02"))
        #expect(error.description.contains("TCF 2.3"))
        #expect(!error.userFacingMessage.contains("TCF"))
        // Other refusals: the same bridge code, their own consent code, the generic message.
        for (refusal, code) in [(ConsentCommitError.notServiceSpecific, IABConsentError.Code.notServiceSpecific),
                                (.invalidMapping(.invalidTCString(.empty)), .invalidTCString),
                                (.invalidMapping(.invalidUSPrivacy("1ZZZ")), .invalidUSPrivacy)] {
            let other = ConsentBridgeError(refusal)
            #expect(other.code == .invalidConsent && other.consentError?.code == code)
            #expect(other.userFacingText == .errorNotSaved)
        }
    }
}

/// The bridge applies ``BridgeConfiguration/missingDisclosedVendors``.
@MainActor
@Suite struct BridgeDisclosedVendorsTests {
    private func save(_ tcString: String) -> JSONValue {
        .object(["type": .string("save"), "tcstring": .string(tcString)])
    }

    @Test func byDefaultTheConsentIsStoredAndADiagnosticIsReported() throws {
        let harness = BridgeHarness()
        #expect(BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com")!).missingDisclosedVendors == .warn)
        let raw = try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver + 3, disclosed: nil)
        harness.webView.post("jsHandler", save(raw))
        #expect(harness.errorCodes == [])
        #expect(harness.storedTCString() == raw)
        let diagnostics = harness.events.compactMap { if case .diagnostic(let text) = $0 { return text } else { return nil } }
        #expect(diagnostics.filter { $0.contains("TCF 2.3 requires the DisclosedVendors segment") }.count == 1)
        #expect(harness.savedSummaries.count == 1)
    }

    @Test func withRefuseNothingIsWrittenAndTheErrorHasItsCode() throws {
        let harness = BridgeHarness { $0.missingDisclosedVendors = .refuse }
        let compliant = try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver + 3)
        harness.webView.post("jsHandler", save(compliant))
        #expect(harness.storedTCString() == compliant)
        let keysBefore = harness.store.iabKeys()

        let outdated = try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver + 3, disclosed: nil)
        harness.webView.post("jsHandler", save(outdated))
        #expect(harness.errorCodes == ["invalidConsent"] && harness.consentCodes == ["missingDisclosedVendors"])
        // Nothing is written: the previous consent stays, key for key.
        #expect(harness.storedTCString() == compliant)
        #expect(harness.store.iabKeys() == keysBefore)
        #expect(harness.savedSummaries.count == 1)

        // A string from before the cut-over is still stored under .refuse.
        let old = try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver - 864_000, disclosed: nil)
        harness.webView.post("jsHandler", save(old))
        #expect(harness.errorCodes == ["invalidConsent"] && harness.consentCodes == ["missingDisclosedVendors"])
        #expect(harness.storedTCString() == old)
    }
}

/// `webcmp inspect` prints the rule's warning on stderr and keeps exit 0; `--missing-disclosed-vendors refuse` exits 2.
@Suite struct InspectDisclosedVendorsTests {
    @Test func aStringWithoutTheSegmentIsInspectedWithOneWarningLine() throws {
        let raw = try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver + 864_000, disclosed: nil)
        let result = try InspectTests.run(["inspect", "--json", raw])
        #expect(result.status == 0, "\(result.stderr)")
        let keys = try InspectTests.keys(fromJSON: result.stdout)
        #expect(keys["IABTCF_TCString"] == .string(raw))
        #expect(keys["IABTCF_DisclosedVendors"] == nil)
        #expect(result.stderr.hasPrefix("webcmp: warning: the TC string (created 2026-03-01) has no DisclosedVendors segment"))
        #expect(result.stderr.contains("TCF 2.3 requires the DisclosedVendors segment"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)

        let readable = try InspectTests.run(["inspect", raw])
        #expect(readable.status == 0)
        #expect(readable.stdout.contains("disclosed vendors: segment absent"))
        #expect(readable.stderr == result.stderr)
    }

    @Test func compliantAndOldStringsGiveNoWarning() throws {
        for raw in [
            try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver + 864_000),
            try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver - 864_000, policyVersion: 4, disclosed: nil),
        ] {
            let result = try InspectTests.run(["inspect", "--json", "--missing-disclosed-vendors", "refuse", raw])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }
    }

    @Test func refuseExitsTwoWithNothingOnStdout() throws {
        let raw = try DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver, disclosed: nil)
        let result = try InspectTests.run(["inspect", "--json", "--missing-disclosed-vendors", "refuse", raw])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("webcmp: refused (missingDisclosedVendors), as the bridge would refuse it: the TC string (created 2026-02-28)"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)

        let warned = try InspectTests.run(["inspect", "--json", "--missing-disclosed-vendors", "warn", raw])
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("warning:"))

        let bad = try InspectTests.run(["inspect", "--json", "--missing-disclosed-vendors", "strict", raw])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("needs warn or refuse"))
    }
}
