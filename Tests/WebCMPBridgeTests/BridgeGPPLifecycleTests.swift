import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The generic dialect with GPP-only (US) CMPs, US Privacy from `__uspapi`, readiness from a CMP that answers, and
/// the page's own `gdprApplies`.
@MainActor
@Suite struct BridgeGPPLifecycleTests {
    /// usnat v2 from the IAB reference encoder (iabgpp-es, see GPPUSSectionTests): SaleOptOut 1, GPC 1.
    static let usnat = "DBABLA~CVVVkkkkkpFY.YA"

    static func gpp(
        _ event: String, signal: String? = nil, display: String? = nil, string: String? = nil, sections: [Int]? = [7]
    ) -> JSONValue {
        .object([
            "type": .string("gpp"), "eventName": .string(event),
            "signalStatus": signal.map(JSONValue.string) ?? .null,
            "cmpDisplayStatus": display.map(JSONValue.string) ?? .null,
            "gppString": string.map(JSONValue.string) ?? .null,
            "applicableSections": sections.map { .array($0.map { .number(Double($0)) }) } ?? .null,
        ])
    }

    static func tcf(_ status: String, _ tcString: String, gdprApplies: Bool? = nil) -> JSONValue {
        .object([
            "type": .string("tcf"), "eventStatus": .string(status), "tcString": .string(tcString),
            "gdprApplies": gdprApplies.map(JSONValue.bool) ?? .null,
        ])
    }

    /// A CMP with TCF and GPP that signals its GPP string on load before re-reporting its TC string: the signal
    /// updates the record in force, it does not drop the TC string the user chose in an earlier session (every
    /// `IABTCF_` key stays), and the user's choice keeps its date and provenance; the CMP's re-report then changes
    /// nothing. Fails when the signal is built on an empty consent: the TC string and its keys are removed until the
    /// re-report, which then stores it as a re-report dated now.
    @Test func aGPPSignalOnLoadKeepsTheTCStringChosenInAnEarlierSession() throws {
        let store = ConsentStore.inMemory()
        let chosen = Date(timeIntervalSince1970: 1_700_000_000)
        try store.apply(
            IABKeySet(mapping: ConsentStrings(tcString: TestStrings.acceptAll), gdprApplies: true),
            record: ConsentRecord(
                strings: ConsentStrings(tcString: TestStrings.acceptAll), gdprApplies: true, savedAt: chosen,
                provenance: ConsentProvenance(.cmpPage, .userChoice)))
        let harness = BridgeHarness(dialect: .tcf, store: store)

        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "ready", string: Self.usnat))

        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(store.iabKeys()["IABTCF_gdprApplies"] == .int(1))
        #expect(store.iabKeys()["IABGPP_HDR_GppString"] == .string(Self.usnat))
        var record = try #require(store.record())
        #expect(record.strings.gppString == Self.usnat)
        #expect(record.savedAt == chosen && record.provenance == ConsentProvenance(.cmpPage, .userChoice))

        harness.webView.post("webcmpTCF", Self.tcf("tcloaded", TestStrings.acceptAll))
        record = try #require(store.record())
        #expect(record.savedAt == chosen && record.provenance == ConsentProvenance(.cmpPage, .userChoice))
        #expect(harness.errorCodes.isEmpty)
    }

    /// A first-run US CMP: loaded (ready through `__gpp` ping), UI visible with a bare header, the user opts out,
    /// the CMP updates its string (not ready → sectionChange → ready) and hides its UI: stored while the UI is up as
    /// not yet the user's answer, then, hidden, as the user's choice, and finished.
    @Test func gppOnlyCMPFirstRunStoresAndFinishesWhenTheUserActed() throws {
        let harness = BridgeHarness(dialect: nil)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready"), "api": .string("gpp")]))
        #expect(harness.bridge.state == .ready)
        harness.clock.advance(by: 60)
        #expect(harness.errorCodes == [])
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "ready", display: "visible", string: "DBAA", sections: []))
        #expect(harness.errorCodes == [])
        #expect(harness.store.record() == nil)
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "not ready", display: "visible", string: "DBAA"))
        harness.webView.post("webcmpTCF", Self.gpp("sectionChange", signal: "not ready", display: "visible", string: Self.usnat))
        #expect(harness.store.record() == nil)
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "ready", display: "visible", string: Self.usnat))
        #expect(harness.bridge.dialect == .tcf)
        #expect(harness.events.contains(.uiReady(.tcf)))
        let keys = harness.store.iabKeys()
        #expect(keys["IABGPP_HDR_GppString"] == .string(Self.usnat))
        #expect(keys["IABGPP_GppSID"] == .string("7"))
        #expect(keys["IABGPP_USNAT_SaleOptOut"] == .int(1))
        #expect(keys["IABGPP_USNAT_Gpc"] == .int(1))
        #expect(keys["IABTCF_gdprApplies"] == nil)
        #expect(keys["IABTCF_TCString"] == nil)
        #expect(harness.store.record()?.provenance == ConsentProvenance(.cmpPage, .noChoiceWhileUIShown))
        #expect(!harness.events.contains(.userAction(isRejectAll: nil)))
        #expect(!harness.events.contains { $0.endsPresentation })
        harness.webView.post("webcmpTCF", Self.gpp("cmpDisplayStatus", signal: "ready", display: "hidden", string: Self.usnat))
        #expect(harness.events.contains(.userAction(isRejectAll: nil)))
        #expect(harness.store.record()?.provenance == ConsentProvenance(.cmpPage, .userChoice))
        #expect(harness.store.consentHistory().map(\.provenance.action) == [.noChoiceWhileUIShown, .userChoice])
        #expect(!harness.events.contains { $0.endsPresentation })
        harness.clock.advance(by: 1)
        #expect(harness.events.last == .uiFinished(.consentSaved))
        #expect(ConsentBridge.needsConsentUI(store: harness.store, now: harness.clock.now) == nil)
    }

    /// A GPP CMP that hides its UI without the user acting does not end the run; one that never showed it neither.
    @Test func hiddenWithoutAnActionDoesNotFinish() {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", Self.gpp("cmpDisplayStatus", signal: "ready", display: "hidden", string: Self.usnat))
        harness.webView.post("webcmpTCF", Self.gpp("sectionChange", signal: "ready", display: "hidden", string: Self.usnat))
        harness.webView.post("webcmpTCF", Self.gpp("cmpDisplayStatus", display: "visible"))
        harness.webView.post("webcmpTCF", Self.gpp("cmpDisplayStatus", display: "hidden"))
        harness.clock.advance(by: 5)
        #expect(harness.errorCodes == [])
        #expect(harness.store.iabKeys()["IABGPP_HDR_GppString"] == .string(Self.usnat))
        #expect(!harness.events.contains { $0.endsPresentation })
        #expect(harness.events.first == .uiReady(.tcf))
    }

    @Test func gppUIProgressNeedsShownActedAndHiddenInAnyOrder() {
        var progress = GPPUIProgress()
        #expect(progress.observe(GPPSignal(eventName: .signalStatus, signalStatus: .ready, displayStatus: .hidden)) == .none)
        #expect(progress.observe(GPPSignal(eventName: .cmpDisplayStatus, displayStatus: .visible)) == .shown)
        #expect(progress.observe(GPPSignal(eventName: .cmpDisplayStatus, displayStatus: .visible)) == .none)
        #expect(!progress.userActed)
        // Hidden first, then the section change.
        #expect(progress.observe(GPPSignal(eventName: .cmpDisplayStatus, displayStatus: .hidden)) == .none)
        #expect(progress.observe(GPPSignal(eventName: .sectionChange, displayStatus: .hidden)) == .finishedByUser)
        #expect(progress.observe(GPPSignal(eventName: .cmpDisplayStatus, displayStatus: .visible)) == .none)

        var notReady = GPPUIProgress()
        _ = notReady.observe(GPPSignal(eventName: .cmpDisplayStatus, displayStatus: .visible))
        #expect(notReady.observe(GPPSignal(eventName: .signalStatus, signalStatus: .notReady, displayStatus: .hidden)) == .none)
        #expect(notReady.observe(GPPSignal(eventName: .signalStatus, signalStatus: .ready, displayStatus: .hidden)) == .finishedByUser)
    }

    /// Readiness is the forwarder's `ready` (a CMP answered ping as loaded) or an event, never a bare load.
    @Test func automaticModeIsReadyThroughTheGPPForwarderOnly() {
        let harness = BridgeHarness(dialect: nil)
        harness.webView.finishLoading()
        harness.clock.advance(by: 29)
        #expect(harness.bridge.state == .loading)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready"), "api": .string("gpp")]))
        harness.clock.advance(by: 60)
        #expect(harness.bridge.state == .ready)
        #expect(harness.errorCodes == [])
    }

    @Test func invalidGPPAndUSPFieldsAreTypedErrors() {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "done", string: Self.usnat))
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "ready", display: "open", string: Self.usnat))
        harness.webView.post("webcmpTCF", Self.gpp("somethingElse", signal: "ready", string: Self.usnat))
        harness.webView.post("webcmpTCF", .object(["type": .string("gpp"), "eventName": .string("signalStatus")]))
        harness.webView.post("webcmpTCF", .object(["type": .string("gpp"), "signalStatus": .number(1), "gppString": .string(Self.usnat)]))
        harness.webView.post("webcmpTCF", .object(["type": .string("usp"), "uspString": .string("1YYY;")]))
        harness.webView.post("webcmpTCF", .object(["type": .string("usp"), "uspString": .number(1)]))
        harness.webView.post("webcmpTCF", .object(["type": .string("usp")]))
        #expect(harness.errorCodes == Array(repeating: "invalidMessage", count: 8))
        #expect(harness.store.record() == nil)
        #expect(harness.store.iabKeys().values.isEmpty)
    }

    /// `__uspapi`: never consent on its own, stored with the next save and updated after it, in one transaction.
    @Test func usPrivacyIsStoredWithTheConsentOfTheRun() throws {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready"), "api": .string("tcf")]))
        harness.webView.post("webcmpTCF", .object(["type": .string("usp"), "uspString": .string("1YNN")]))
        #expect(harness.store.record() == nil)
        harness.webView.post("webcmpTCF", Self.tcf("useractioncomplete", TestStrings.acceptAll))
        #expect(harness.store.iabKeys()["IABUSPrivacy_String"] == .string("1YNN"))
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        harness.webView.post("webcmpTCF", .object(["type": .string("usp"), "uspString": .string("1YYN")]))
        #expect(harness.store.iabKeys()["IABUSPrivacy_String"] == .string("1YYN"))
        #expect(try #require(harness.store.record()).usPrivacy == "1YYN")
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(harness.errorCodes == [])
    }

    // MARK: gdprApplies

    @Test func thePagesGDPRAppliesWinsOverTheConfiguredOne() {
        let harness = BridgeHarness(dialect: .tcf) { $0.gdprApplies = true }
        harness.webView.post("webcmpTCF", Self.tcf("useractioncomplete", TestStrings.acceptAll, gdprApplies: false))
        #expect(harness.store.iabKeys()["IABTCF_gdprApplies"] == .int(0))
        #expect(harness.store.record()?.gdprApplies == false)

        let fallback = BridgeHarness(dialect: .tcf) { $0.gdprApplies = false }
        fallback.webView.post("webcmpTCF", Self.tcf("useractioncomplete", TestStrings.acceptAll))
        #expect(fallback.store.iabKeys()["IABTCF_gdprApplies"] == .int(0))
    }

    /// Without TCData's `gdprApplies`, the GPP applicable sections decide: section 2 in force → 1, only US → 0.
    @Test func gppApplicableSectionsDecideGDPRWhenTCDataDoesNotSay() {
        let eu = BridgeHarness(dialect: .tcf) { $0.gdprApplies = false }
        eu.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "ready", string: "DBABMA~" + TestStrings.acceptAll, sections: [2]))
        eu.webView.post("webcmpTCF", Self.tcf("useractioncomplete", TestStrings.acceptAll))
        #expect(eu.store.iabKeys()["IABTCF_gdprApplies"] == .int(1))

        let us = BridgeHarness(dialect: .tcf) { $0.gdprApplies = true }
        us.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "ready", string: Self.usnat, sections: [7]))
        us.webView.post("webcmpTCF", Self.tcf("useractioncomplete", TestStrings.acceptAll))
        #expect(us.store.iabKeys()["IABTCF_gdprApplies"] == .int(0))
        #expect(eu.errorCodes == [] && us.errorCodes == [])
    }

    /// A GPP-only consent never writes `IABTCF_gdprApplies`, whatever the configuration or the sections say.
    @Test(arguments: [[7], [2, 7], []])
    func gppOnlyConsentNeverWritesGDPRApplies(sections: [Int]) throws {
        let harness = BridgeHarness(dialect: .tcf) { $0.gdprApplies = true }
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", signal: "ready", string: Self.usnat, sections: sections))
        #expect(harness.store.iabKeys()["IABGPP_HDR_GppString"] == .string(Self.usnat))
        #expect(harness.store.iabKeys()["IABTCF_gdprApplies"] == nil)
        #expect(try #require(harness.store.record()).gdprApplies == nil)
    }

    @Test func commitReadsGDPRFromApplicableSections() {
        #expect(ConsentCommit.gdprApplies(gppApplicableSections: nil) == nil)
        #expect(ConsentCommit.gdprApplies(gppApplicableSections: []) == nil)
        #expect(ConsentCommit.gdprApplies(gppApplicableSections: [-1]) == nil)
        #expect(ConsentCommit.gdprApplies(gppApplicableSections: [2]) == true)
        #expect(ConsentCommit.gdprApplies(gppApplicableSections: [7, 8]) == false)
        #expect(ConsentCommit.gdprApplies(gppApplicableSections: [2, 6]) == true)
    }
}
