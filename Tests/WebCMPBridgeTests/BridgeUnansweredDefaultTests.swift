import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Issue 37 §3 and issue 36 promise 5 through the bridge: a CMP's default signal while its UI is up is stored but is
/// not the user's answer (`needsConsentUI` asks again with `.notAnswered`); a CMP that never shows its UI is answered
/// by its signal; a TCF re-report is logged as one.
@MainActor @Suite struct BridgeUnansweredDefaultTests {
    static let usDefault = "DBABLA~CAAAAAAAAABA.QA"

    static func gpp(_ event: String, display: String) -> JSONValue {
        .object([
            "type": .string("gpp"), "eventName": .string(event), "signalStatus": .string("ready"),
            "cmpDisplayStatus": .string(display), "gppString": .string(usDefault),
            "applicableSections": .array([.number(7)]),
        ])
    }

    @Test func aDefaultSignalledWhileTheBannerIsUpIsAskedAgainAtTheNextLaunch() throws {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", display: "hidden"))
        harness.webView.post("webcmpTCF", Self.gpp("cmpDisplayStatus", display: "visible"))
        // The app is ended with the banner up: the signal is in force for the ad SDKs …
        harness.bridge.invalidate()
        #expect(harness.store.iabKeys()["IABGPP_HDR_GppString"] == .string(Self.usDefault))
        // … but it is nobody's answer.
        let record = try #require(harness.store.record())
        #expect(record.provenance == ConsentProvenance(.cmpPage, .noChoiceWhileUIShown))
        #expect(harness.store.consentHistory().last?.provenance.action == .noChoiceWhileUIShown)
        #expect(ConsentBridge.needsConsentUI(store: harness.store, now: harness.clock.now) == .notAnswered)
        #expect(!harness.events.contains(.userAction(isRejectAll: nil)))
    }

    @Test func aCMPThatNeverShowsItsUIIsAnsweredByItsSignal() throws {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", Self.gpp("signalStatus", display: "hidden"))
        harness.bridge.invalidate()
        #expect(harness.store.record()?.provenance == ConsentProvenance(.cmpPage, .signalUpdate))
        #expect(ConsentBridge.needsConsentUI(store: harness.store, now: harness.clock.now) == nil)
    }

    @Test func theConsentSummarySaysWhetherTheUserChose() throws {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", Self.gpp("cmpDisplayStatus", display: "visible"))
        let summaries = harness.events.compactMap { event -> ConsentSummary? in
            if case .consentReady(let summary) = event { return summary }
            return nil
        }
        #expect(summaries.last?.provenance.action == .noChoiceWhileUIShown)
    }

    @Test func aTCFReReportIsLoggedAsOneAndARepeatedOneNotAtAll() throws {
        let harness = BridgeHarness(dialect: .tcf)
        let loaded: JSONValue = .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string(TestStrings.acceptAll),
        ])
        harness.webView.post("webcmpTCF", loaded)
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.rejectAll),
        ]))
        harness.bridge.invalidate()
        let next = BridgeHarness(dialect: .tcf, store: harness.store)
        next.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string(TestStrings.rejectAll),
        ]))
        next.bridge.invalidate()
        #expect(harness.store.consentHistory().map(\.provenance) == [
            ConsentProvenance(.cmpPage, .reReport), ConsentProvenance(.cmpPage, .userChoice),
        ])
        #expect(harness.store.record()?.provenance == ConsentProvenance(.cmpPage, .userChoice))
    }
}
