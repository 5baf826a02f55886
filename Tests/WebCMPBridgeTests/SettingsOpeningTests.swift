import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Issue 22, items 1 and 2: privacy settings are open only on evidence; refusals, exceptions, missing functions and
/// silence move on to the next candidate and, when none is left, end the run with a typed error and consent unchanged.
@Suite struct SettingsOpeningTests {
    static let a = PrivacySettingsCall("A.show", name: "A")
    static let b = PrivacySettingsCall("B.show", name: "B")
    static let c = PrivacySettingsCall("C.show", name: "C")

    typealias Step = (input: String, expected: SettingsOpening.Action)

    /// Table: inputs → actions.
    @Test(arguments: [
        ("the first call shows the UI", [
            ("start", .call(a, attempt: 0)), ("ui", .opened(by: "A")), ("timeout 0", .none), ("ui", .none),
        ]),
        ("refused, missing, then shown", [
            ("start", .call(a, attempt: 0)), ("refused 0", .call(b, attempt: 1)), ("missing 1", .call(c, attempt: 2)),
            ("called 2", .none), ("ui", .opened(by: "C")),
        ]),
        ("a stale result changes nothing", [
            ("start", .call(a, attempt: 0)), ("threw 0", .call(b, attempt: 1)), ("refused 0", .none),
            ("timeout 0", .none), ("timeout 1", .call(c, attempt: 2)),
        ]),
        ("nothing opens", [
            ("start", .call(a, attempt: 0)), ("refused 0", .call(b, attempt: 1)), ("threw 1", .call(c, attempt: 2)),
            ("timeout 2", .failed(reason: "A refused (success: false); B threw; C showed no UI within 3.0 s")),
            ("ui", .none),
        ]),
        ("the page showed its UI before the first call", [("ui", .none), ("start", .opened(by: SettingsOpening.byThePage))]),
    ] as [(String, [Step])])
    func table(_ name: String, steps: [Step]) {
        var opening = SettingsOpening(candidates: [Self.a, Self.b, Self.c])
        for (input, expected) in steps {
            let parts = input.split(separator: " ")
            let attempt = parts.count > 1 ? Int(parts[1]) ?? -1 : -1
            let action: SettingsOpening.Action
            switch parts[0] {
            case "start": action = opening.start()
            case "ui": action = opening.uiShown()
            case "timeout": action = opening.attemptTimedOut(attempt, after: 3)
            default: action = opening.callReported(SettingsOpening.CallResult(rawValue: String(parts[0]))!, attempt: attempt)
            }
            #expect(action == expected, "\(name): \(input)")
        }
    }

    @Test func missingPresetsAreListedTogether() {
        var opening = SettingsOpening(candidates: [Self.a, Self.b])
        _ = opening.start()
        _ = opening.callReported(.missing, attempt: 0)
        #expect(opening.callReported(.missing, attempt: 1) == .failed(reason: "not on the page: A, B"))
        var empty = SettingsOpening(candidates: [])
        #expect(empty.start() == .opened(by: SettingsOpening.byThePage))
    }

    @Test func automaticTriesTheStandardCallThenThePresets() {
        #expect(PrivacySettingsOpener.default(for: .tcf) == .automatic)
        #expect(PrivacySettingsOpener.automatic.candidates.map(\.name)
            == ["__tcfapi('displayConsentUi')", "Didomi", "Cookiebot"])
        #expect(PrivacySettingsOpener(call: .didomi).candidates == [.didomi])
        #expect(PrivacySettingsCall.preset(named: "Cookiebot") == .cookiebot)
        #expect(PrivacySettingsCall.preset(named: "nope") == nil)
        #expect(PrivacySettingsCall.sourcepoint(privacyManagerID: 12).arguments == [.number(12)])
        #expect(PrivacySettingsCall.sourcepoint(privacyManagerID: 12, tab: "vendors").arguments
            == [.number(12), .string("vendors")])
    }
}

/// The bridge side, through the fake web view.
@MainActor
@Suite struct PrivacySettingsEvidenceTests {
    static func report(_ harness: BridgeHarness, _ result: String, attempt: Int) {
        harness.webView.post("webcmpTCF", .object([
            "type": .string("settings"), "attempt": .number(Double(attempt)), "result": .string(result),
        ]))
    }

    @Test func aRefusingCMPWithoutPresetsEndsTheRunWithATypedErrorAndConsentUnchanged() throws {
        let store = ConsentStore.inMemory()
        let keys = try ConsentCommit(
            strings: ConsentStrings(tcString: TestStrings.acceptAll), previous: nil, rules: .init(), now: Date())
        try store.apply(keys.keys, record: keys.record)
        let before = store.iabKeys()
        let harness = BridgeHarness(dialect: .tcf, store: store) {
            $0.mode = .settings
            $0.privacySettings = PrivacySettingsOpener(call: .tcfDisplayConsentUI)
        }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        Self.report(harness, "refused", attempt: 0)
        #expect(harness.errorCodes == ["privacySettingsNotOpened"])
        #expect(harness.events.last == .uiFinished(.failed))
        #expect(harness.store.iabKeys() == before)
        #expect(harness.bridge.privacySettingsOpenedBy == nil)
    }

    @Test func silenceIsAFailureAfterTheAttemptTimeout() {
        let harness = BridgeHarness(dialect: .tcf) {
            $0.mode = .settings
            $0.privacySettings = PrivacySettingsOpener(call: .didomi)
            $0.settingsAttemptTimeout = 2
        }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        Self.report(harness, "called", attempt: 0)
        harness.clock.advance(by: 1.9)
        #expect(harness.errorCodes == [])
        harness.clock.advance(by: 0.2)
        #expect(harness.errorCodes == ["privacySettingsNotOpened"])
    }

    @Test func automaticMovesToThePresetThatShowsTheUI() {
        let harness = BridgeHarness(dialect: .tcf) { $0.mode = .settings }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        Self.report(harness, "refused", attempt: 0)   // displayConsentUi is not a TCF v2.2 command
        Self.report(harness, "missing", attempt: 1)   // no Didomi
        Self.report(harness, "called", attempt: 2)    // Cookiebot.renew()
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        #expect(harness.bridge.privacySettingsOpenedBy == "Cookiebot")
        #expect(harness.errorCodes == [])
        #expect(harness.webView.evaluated.count == 3)
        #expect(harness.bridge.state == .ready)
    }

    @Test func aGPPCMPShowingItsUIIsEvidenceToo() {
        let harness = BridgeHarness(dialect: .tcf) { $0.mode = .settings }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        harness.webView.post("webcmpTCF", .object([
            "type": .string("gpp"), "eventName": .string("cmpDisplayStatus"), "cmpDisplayStatus": .string("visible"),
            "signalStatus": .string("not ready"),
        ]))
        #expect(harness.bridge.privacySettingsOpenedBy == "__tcfapi('displayConsentUi')")
    }

    /// A Gravito page gives no UI signal: in settings mode its ready message is what counts, and the bridge says so.
    @Test func aGravitoPageIsOpenedByItsReadyMessage() {
        let harness = BridgeHarness(dialect: .gravito) { $0.mode = .settings }
        #expect(harness.bridge.privacySettingsOpenedBy == nil)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.bridge.privacySettingsOpenedBy == SettingsOpening.byReadyMessage)
        let consent = BridgeHarness(dialect: .gravito)
        consent.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(consent.bridge.privacySettingsOpenedBy == nil)   // consent mode: no settings to open
    }

    @Test func forgedResultsAreValidated() {
        let harness = BridgeHarness(dialect: .tcf) { $0.mode = .settings }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        harness.webView.post("webcmpTCF", .object([
            "type": .string("settings"), "attempt": .number(0), "result": .string("opened"),
        ]))
        harness.webView.post("webcmpTCF", .object(["type": .string("settings"), "result": .string("refused")]))
        #expect(harness.errorCodes == ["invalidMessage", "invalidMessage"])
        #expect(harness.bridge.state == .ready)
    }
}
