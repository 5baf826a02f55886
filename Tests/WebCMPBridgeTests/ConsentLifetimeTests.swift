import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Privacy settings on demand, programmatic reject-all/withdraw, QA reset, migration and the summary's US signals
/// (the change listener: ConsentStoreChangesTests).
@MainActor
@Suite struct PrivacySettingsModeTests {
    static func gravitoSave(_ tc: String) -> JSONValue {
        .object(["type": .string("save"), "tcstring": .string(tc), "nontcfdata": .string("")])
    }

    @Test func consentModeURLIsUnchanged() {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html?x=1")!)
        #expect(configuration.resolvedURL.absoluteString == "https://cmp.example.com/app.html?x=1")
        configuration.mode = .settings
        #expect(configuration.resolvedURL.absoluteString == "https://cmp.example.com/app.html?x=1&layer=settings")
    }

    @Test func settingsOpenerURLAndItemsApplyOnlyInSettingsMode() {
        var configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .onesecondbefore, language: "de")
        configuration.privacySettings = PrivacySettingsOpener(
            url: URL(string: "https://cmp.example.com/prefs.html")!, queryItems: [URLQueryItem(name: "view", value: "2")])
        #expect(configuration.resolvedURL.absoluteString == "https://cmp.example.com/app.html?lang=de")
        configuration.mode = .settings
        #expect(configuration.resolvedURL.absoluteString == "https://cmp.example.com/prefs.html?lang=de&view=2")
    }

    @Test func gravitoSettingsInjectsTheStoredRecordAndStaysOpenUntilClose() throws {
        let store = ConsentStore.inMemory()
        let first = BridgeHarness(store: store)
        first.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        first.webView.post("jsHandler", Self.gravitoSave(TestStrings.acceptAll))
        first.webView.post("jsHandler", .object(["type": .string("close")]))

        let harness = BridgeHarness(store: store) { $0.mode = .settings }
        #expect(harness.webView.loadedURLs.last?.query?.contains("layer=settings") == true)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(try harness.lastInjection()["tcstring"] == .string(TestStrings.acceptAll))
        // Gravito's default opener is a query item: no script besides the injection. Its TCF API shows the UI.
        #expect(harness.webView.evaluated.count == 1)
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        #expect(harness.bridge.privacySettingsOpenedBy == "the page itself")
        harness.webView.post("jsHandler", Self.gravitoSave(TestStrings.analyticsOnly))
        harness.clock.advance(by: 5)
        #expect(!harness.events.contains { if case .uiFinished = $0 { return true } else { return false } })
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        #expect(harness.events.last == .uiFinished(.closed))
        #expect(harness.storedTCString() == TestStrings.analyticsOnly)
    }

    @Test func tcfSettingsCallsDisplayConsentUIOnceAfterReadyAndTCLoadedDoesNotFinish() throws {
        let harness = BridgeHarness(dialect: .tcf) { $0.mode = .settings }
        #expect(harness.webView.evaluated.isEmpty)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        #expect(harness.webView.evaluated == [
            PrivacySettingsCall.tcfDisplayConsentUI.script(reportingTo: "webcmpTCF", attempt: 0),
        ])
        // The CMP shows its UI: the settings are open (evidence), by the standard call.
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        #expect(harness.bridge.privacySettingsOpenedBy == "__tcfapi('displayConsentUi')")
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string(TestStrings.acceptAll),
        ]))
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        harness.clock.advance(by: 5)
        #expect(harness.webView.evaluated.count == 1)
        #expect(harness.bridge.state == .ready)
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.rejectAll),
        ]))
        harness.clock.advance(by: 1)
        #expect(harness.events.last == .uiFinished(.consentSaved))
        #expect(harness.storedTCString() == TestStrings.rejectAll)
    }

    @Test func consentModeMakesNoSettingsCall() {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        #expect(harness.webView.evaluated.isEmpty)
    }

    @Test func customCallIsAJSONArgumentOfTheResource() throws {
        let call = PrivacySettingsCall("Didomi.preferences.show", arguments: [.string("purposes\"); alert(1); //")])
        #expect(call.path == ["Didomi", "preferences", "show"])
        let script = call.script
        #expect(script.hasSuffix("(" + JavaScriptLiteral.expression(.object([
            "path": .array([.string("Didomi"), .string("preferences"), .string("show")]),
            "arguments": .array([.string("purposes\"); alert(1); //")]), "callback": .bool(false),
            "handler": .null, "attempt": .number(0),
        ])) + ");"))
    }

    @Test func settingsScriptCallsThePageFunctionInARealEngine() throws {
        guard NodeRunner.executable != nil else { return }
        let tcf = PrivacySettingsCall.tcfDisplayConsentUI.script
        let didomi = PrivacySettingsCall("Didomi.preferences.show", arguments: [.string("vendors")]).script
        let missing = PrivacySettingsCall("Nope.show").script
        let output = try NodeRunner.run("""
            const window = globalThis; const calls = [];
            window.__tcfapi = function (command, version, callback) { calls.push([command, version, typeof callback]); };
            window.Didomi = { preferences: { owner: 'prefs', show: function (what) { calls.push([this.owner, what]); } } };
            \(tcf)
            \(didomi)
            \(missing)
            process.stdout.write(JSON.stringify(calls));
            """)
        #expect(try JSONValue(parsing: output) == .array([
            .array([.string("displayConsentUi"), .number(2), .string("function")]),
            .array([.string("prefs"), .string("vendors")]),
        ]))
    }
}

@MainActor
@Suite struct ProgrammaticRejectTests {
    static let now = Date(timeIntervalSince1970: 1_760_000_000.7)

    static func storeWith(_ strings: ConsentStrings, nonTCF: JSONValue? = nil) throws -> ConsentStore {
        let store = ConsentStore.inMemory()
        let commit = try ConsentCommit(
            payload: ConsentPayload(
                strings: strings, gdprApplies: true, extras: nonTCF.map { GravitoDialect.Extras(nonTCFData: $0) }),
            previous: nil,
            rules: ConsentCommit.Rules(cmpSDKID: 300, cmpSDKVersion: 7), now: now - 1_000)
        try store.apply(commit.keys, record: commit.record)
        return store
    }

    @Test func rejectAllClearsEveryChoiceAndKeepsTheCMPFacts() throws {
        let store = try Self.storeWith(ConsentStrings(tcString: TestStrings.acceptAll), nonTCF: .string("{\"x\":1}"))
        let summary = try store.rejectAll(now: Self.now)
        let before = try TCString(decoding: TestStrings.acceptAll)
        let after = try TCString(decoding: try #require(summary.tcString))
        #expect(after.purposeConsents.isEmpty && after.purposeLegitimateInterests.isEmpty)
        #expect(after.vendorConsents.isEmpty && after.vendorLegitimateInterests.isEmpty)
        #expect(after.specialFeatureOptIns.isEmpty)
        #expect(after.cmpID == before.cmpID && after.cmpVersion == before.cmpVersion)
        #expect(after.vendorListVersion == before.vendorListVersion && after.policyVersion == before.policyVersion)
        #expect(after.createdDeciseconds == before.createdDeciseconds)
        #expect(after.disclosedVendors == before.disclosedVendors)
        #expect(after.lastUpdatedDeciseconds == 17_599_680_000)   // 2025-10-09 00:00 UTC
        let record = try #require(store.record())
        #expect(record.provenance == ConsentProvenance(.app, .rejectAll) && record.savedAt == Self.now && record.nonTCFData == nil)
        let keys = store.iabKeys()
        #expect(keys[.tcString] == .string(after.encodedOrEmpty))
        #expect(keys[IABKey(rawValue: "IABTCF_PurposeConsents")] == .string(""))
        #expect(keys[.cmpSDKID] == .int(300) && keys[.cmpSDKVersion] == .int(7))
        #expect(keys[.gdprApplies] == .int(1))
        #expect(ConsentBridge.needsConsentUI(store: store, now: Self.now) == nil)
    }

    @Test func rejectAllOnARealStringWithPublisherTC() throws {
        // Real string (keys-real-strings.json, "publisher-tc-custom-purposes").
        let real = "CLcVDxRMWfGmWAVAHCENAXCkAKDAADnAABRgA5mdfCKZuYJez-NQm0TBMYA4oCAAGQYIAAAAAAEAIAEgAA.YAAAAAAAAXA"
        let before = try TCString(decoding: real)
        #expect(before.publisherTC?.numberOfCustomPurposes ?? 0 > 0)
        let store = try Self.storeWith(ConsentStrings(tcString: real))
        let after = try TCString(decoding: try #require(try store.withdrawConsent(now: Self.now).tcString))
        let publisher = try #require(after.publisherTC)
        #expect(publisher.purposeConsents.isEmpty && publisher.purposeLegitimateInterests.isEmpty)
        #expect(publisher.customPurposeConsents.isEmpty && publisher.customPurposeLegitimateInterests.isEmpty)
        #expect(publisher.numberOfCustomPurposes == before.publisherTC?.numberOfCustomPurposes)
        #expect(after.publisherRestrictions == before.publisherRestrictions)
        #expect(after.vendorConsents.isEmpty && after.purposeConsents.isEmpty)
    }

    @Test func additionalConsentUSPrivacyAndGPP() throws {
        let store = try Self.storeWith(ConsentStrings(
            tcString: TestStrings.acceptAll, additionalConsent: "2~89.1301~dv.2677",
            gppString: "DBABLA~BVQqAAAAAgA.QA", usPrivacy: "1YNN"))
        #expect(store.iabKeys()[.gppString] != nil)
        let summary = try store.rejectAll(now: Self.now)
        #expect(summary.strings.additionalConsent == "2~~dv.89.1301.2677")
        #expect(summary.strings.usPrivacy == "1YYN")
        #expect(summary.gppString == nil)
        #expect(store.iabKeys().values.keys.contains { $0.rawValue.hasPrefix("IABGPP_") } == false)
        #expect(ConsentStore.optedOutOfSale("1Y-N") == "1Y-N")
        #expect(ConsentStore.optedOutOfSale("1---") == "1---")
    }

    @Test func nothingStoredIsAnError() {
        let error = #expect(throws: IABConsentError.self) { try ConsentStore.inMemory().rejectAll() }
        #expect(error?.code == .noStoredTCString)
        #expect(error?.underlying as? ProgrammaticConsentError == .noStoredTCString)
        let gppOnly = ConsentStore.inMemory()
        #expect(throws: ProgrammaticConsentError.noStoredTCString) { try gppOnly.reject(now: Date(), cause: .withdrawal) }
    }

    @Test func theNextPageReceivesTheRejectedString() throws {
        let store = try Self.storeWith(ConsentStrings(tcString: TestStrings.acceptAll))
        let rejected = try #require(try store.rejectAll(now: Self.now).tcString)
        let harness = BridgeHarness(store: store) { $0.mode = .settings }
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(try harness.lastInjection()["tcstring"] == .string(rejected))
    }
}

extension TCString {
    fileprivate var encodedOrEmpty: String { (try? encoded()) ?? "" }
}

@Suite struct MigrationTests {
    // Real strings (keys-real-strings.json): "publisher-restriction-purpose-7" (CMP 300) and
    // "spec-example-disclosed-vendors-publisher-tc".
    static let sourcepointLike = "COwAdDhOwAdDhN4ABAENAPCgAAQAAv___wAAAFP_AAp_4AI6ACACAA"
    static let gravitoLike = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"

    static func shortlyAfter(_ tc: String) throws -> Date {
        try TCString(decoding: tc).lastUpdated.addingTimeInterval(86_400)
    }

    static let lenient = ConsentExpiryPolicy(minimumPolicyVersion: nil)

    @Test func adoptsAPreviousSDKsIABKeys() throws {
        let storage = KeyValueStorage.inMemory([
            "IABTCF_TCString": .string(Self.sourcepointLike), "IABTCF_gdprApplies": .int(1),
            "IABTCF_CmpSdkID": .int(6), "IABTCF_PurposeConsents": .string("1"), "IABTCF_PublisherRestrictions99": .string("x"),
        ])
        let store = ConsentStore(storage: storage)
        let now = try Self.shortlyAfter(Self.sourcepointLike)
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: Self.lenient, now: now) == nil)
        let record = try #require(store.record())
        #expect(record.provenance == ConsentProvenance(.previousSDK, .adopted) && record.tcString == Self.sourcepointLike)
        #expect(record.savedAt == (try TCString(decoding: Self.sourcepointLike)).lastUpdated)
        let keys = store.iabKeys()
        #expect(keys[IABKey(rawValue: "IABTCF_PublisherRestrictions99")] == nil)   // rewritten by the transaction
        #expect(keys[IABKey(rawValue: "IABTCF_PurposeConsents")] == .string("00000100000000000000001"))
        #expect(keys[.gdprApplies] == .int(1))
    }

    @Test func expiryCountsFromWhenTheUserChose() throws {
        let store = ConsentStore(storage: .inMemory(["IABTCF_TCString": .string(Self.sourcepointLike)]))
        // A 2020 string adopted today is older than 390 days: adopted, and renewal is due.
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: Self.lenient, now: Date()) == .tooOld)
        #expect(store.record()?.source == .previousSDK)
    }

    @Test func adoptsGravitoSampleKeys() throws {
        let store = ConsentStore(storage: .inMemory([
            "tcstring": .string(Self.gravitoLike), "nontcfdata": .string("{\"consents\":[1,2]}"),
            "acstring": .string("2~89~dv.1301"),
        ]))
        let now = try Self.shortlyAfter(Self.gravitoLike)
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: Self.lenient, now: now) == nil)
        let record = try #require(store.record())
        #expect(record.tcString == Self.gravitoLike && record.source == .previousSDK)
        #expect(record.nonTCFData == .object(["consents": .array([.number(1), .number(2)])]))
        #expect(store.iabKeys()[.additionalConsent] == .string("2~89~dv.1301"))
        #expect(store.iabKeys()[.tcString] == .string(Self.gravitoLike))
    }

    @Test func invalidOrDisabledIsNotAdoptedAndTheCheckRunsOnce() throws {
        let invalid = ConsentStore(storage: .inMemory(["IABTCF_TCString": .string("not a tc string")]))
        #expect(ConsentBridge.needsConsentUI(store: invalid) == .noConsent)
        #expect(invalid.record() == nil)
        #expect(invalid.storage.load([ConsentStore.migrationCheckedKey])[ConsentStore.migrationCheckedKey] == .int(1))

        let disabled = ConsentStore(storage: .inMemory(["IABTCF_TCString": .string(Self.sourcepointLike)]))
        #expect(ConsentBridge.needsConsentUI(store: disabled, migration: .disabled) == .noConsent)
        #expect(disabled.record() == nil)

        let once = ConsentStore(storage: .inMemory(["tcstring": .string(Self.gravitoLike)]))
        #expect(once.migrateIfNeeded(defaultSources: ConsentMigration.Source.bridgeDefaults) != nil)
        once.clearAll()
        #expect(once.migrateIfNeeded(defaultSources: ConsentMigration.Source.bridgeDefaults) == nil)   // a cleared store does not adopt the leftovers again
        #expect(ConsentBridge.needsConsentUI(store: once) == .noConsent)
    }

    @Test func aStoredRecordCostsOneRead() throws {
        let reads = ReadCounter()
        let inner = KeyValueStorage.inMemory()
        let counting = KeyValueStorage(
            load: { keys in reads.add(keys.count); return inner.load(keys) }, keys: inner.keys, write: inner.write)
        let store = ConsentStore(storage: counting)
        let commit = try ConsentCommit(
            strings: ConsentStrings(tcString: TestStrings.acceptAll), previous: nil,
            rules: ConsentCommit.Rules(), now: Date())
        try store.apply(commit.keys, record: commit.record)
        reads.reset()
        #expect(ConsentBridge.needsConsentUI(store: store) == nil)
        #expect(reads.count == 1)
    }
}

@Suite struct SummaryUSSignalsTests {
    @Test func summaryCarriesUSSignalsFromTheGPPString() throws {
        // IAB reference encoder output (UsNat.test.ts:11): every opt-out = 1, Gpc = true.
        let commit = try ConsentCommit(
            strings: ConsentStrings(gppString: "DBABLA~CVVVkkkkkpFY.YA"), previous: nil,
            rules: ConsentCommit.Rules(gdprApplies: false), now: Date())
        let signals = try #require(commit.summary.usPrivacySignals)
        #expect(signals.isSaleOptedOut && signals.isSharingOptedOut && signals.isTargetedAdvertisingOptedOut)
        #expect(signals.isGPCSet)
        let tcOnly = try ConsentCommit(
            strings: ConsentStrings(tcString: TestStrings.acceptAll), previous: nil, rules: ConsentCommit.Rules(),
            now: Date())
        #expect(tcOnly.summary.usPrivacySignals == nil)
        // Applicable sections restrict the signals (a CMP saying only TCF EU applies).
        var strings = ConsentStrings(gppString: "DBABLA~CVVVkkkkkpFY.YA")
        strings.gppApplicableSections = [2]
        let summary = ConsentSummary(record: ConsentRecord(strings: strings, savedAt: Date()), decoded: nil)
        #expect(summary.usPrivacySignals?.sections.isEmpty == true)
    }
}

@MainActor
@Suite struct ResetForQATests {
    @Test func resetClearsTheStoreAndThePagesOrigins() async throws {
        let store = try ProgrammaticRejectTests.storeWith(ConsentStrings(tcString: TestStrings.acceptAll))
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com:8443/app.html")!)
        configuration.allowedOrigins.insert("https://consent.example.org")
        let cleared = OriginsBox()
        await ConsentBridge.resetForQA(
            store: store, configuration: configuration,
            websiteData: WebsiteDataClearing { origins in cleared.value = origins })
        #expect(store.record() == nil && store.iabKeys().values.isEmpty)
        #expect(cleared.value == ["https://cmp.example.com:8443", "https://consent.example.org"])
        #expect(WebsiteDataClearing.hosts(of: cleared.value) == ["cmp.example.com", "consent.example.org"])
        #expect(ConsentBridge.needsConsentUI(store: store) == .noConsent)
    }
}

@MainActor
final class OriginsBox {
    var value: Set<String> = []
}
