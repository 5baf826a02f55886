import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Privacy settings are open only on evidence; an opener is called again until the CMP shows
/// its UI or its window ends (late openers), never a second one while the first may still work; refusals and missing
/// functions move on; when nothing is left the run ends with a typed error and consent unchanged.
@Suite struct SettingsOpeningTests {
    static let a = PrivacySettingsCall("A.show", name: "A")
    static let b = PrivacySettingsCall("B.show", name: "B")
    static let c = PrivacySettingsCall("C.show", name: "C")

    typealias Effect = SettingsOpening.Effect
    typealias Step = (input: String, expected: [Effect])

    /// Feeds `steps` ("start", "ui", "retry", "window", or a call result and its attempt: "called 0") to an opening
    /// of `candidates` and checks each step's effects.
    static func run(_ name: String, candidates: [PrivacySettingsCall] = [a, b, c], _ steps: [Step]) {
        var opening = SettingsOpening()
        for (input, expected) in steps {
            let parts = input.split(separator: " ")
            let effects: [Effect]
            switch parts[0] {
            case "start": effects = opening.handle(.start(candidates: candidates))
            case "ui": effects = opening.handle(.uiShown)
            case "retry": effects = opening.handle(.retryIntervalPassed)
            case "window": effects = opening.handle(.attemptWindowEnded(after: 3))
            default:
                let result = SettingsOpening.CallResult(rawValue: String(parts[0]))
                #expect(result != nil, "\(name): \(input)")
                effects = result.map { opening.handle(.callReported($0, attempt: Int(parts[1]) ?? -1)) } ?? []
            }
            #expect(effects == expected, "\(name): \(input)")
        }
    }

    /// Evidence and order: the first candidate that answers is the opener; the UI names it.
    @Test(arguments: [
        ("the first call shows the UI (before its own report)", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("ui", [.opened(by: "A")]), ("called 0", []),
            ("window", []), ("retry", []), ("ui", []),
        ]),
        ("refused and missing move on at once; called waits for the evidence", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("refused 0", [.call(b, attempt: 1)]),
            ("missing 1", [.call(c, attempt: 2)]), ("called 2", [.startWindow, .retryLater]), ("ui", [.opened(by: "C")]),
        ]),
        ("the page showed its UI before the first call: no call", [
            ("ui", []), ("start", [.opened(by: SettingsOpening.byThePage)]), ("retry", []),
        ]),
        ("the UI shows while no call is under way: the page itself", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("missing 0", [.call(b, attempt: 1)]),
            ("missing 1", [.call(c, attempt: 2)]), ("missing 2", [.retryLater]),
            ("ui", [.opened(by: SettingsOpening.byThePage)]),
        ]),
        ("a report of an earlier call changes nothing", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("missing 0", [.call(b, attempt: 1)]),
            ("called 0", []), ("missing 0", []), ("called 1", [.startWindow, .retryLater]), ("called 7", []),
        ]),
    ] as [(String, [Step])])
    func evidence(_ name: String, steps: [Step]) {
        Self.run(name, steps)
    }

    /// Late openers: the opener is called again (looked up afresh by the script) until the UI shows; a function the
    /// page does not have yet is looked for again; no second opener while the first one's window runs.
    @Test(arguments: [
        ("a no-op that becomes real: called again until the UI shows, then never again", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("called 0", [.startWindow, .retryLater]),
            ("retry", [.call(a, attempt: 1)]), ("called 1", [.retryLater]),
            ("retry", [.call(a, attempt: 2)]), ("ui", [.opened(by: "A")]), ("called 2", []), ("retry", []),
        ]),
        ("while the opener's window runs, the next candidates are never called", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("called 0", [.startWindow, .retryLater]),
            ("retry", [.call(a, attempt: 1)]), ("called 1", [.retryLater]), ("retry", [.call(a, attempt: 2)]),
            ("called 2", [.retryLater]),
            ("window", [.startWindow, .call(b, attempt: 3)]), ("missing 3", [.call(c, attempt: 4)]),
            ("called 4", [.startWindow, .retryLater]), ("retry", [.call(c, attempt: 5)]), ("ui", [.opened(by: "C")]),
        ]),
        ("a function defined late: missing, looked for again in the next round, then the opener", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("missing 0", [.call(b, attempt: 1)]),
            ("missing 1", [.call(c, attempt: 2)]), ("missing 2", [.retryLater]),
            ("retry", [.call(a, attempt: 3)]), ("missing 3", [.call(b, attempt: 4)]),
            ("called 4", [.startWindow, .retryLater]), ("retry", [.call(b, attempt: 5)]), ("ui", [.opened(by: "B")]),
        ]),
        ("a retry waits for the report of the call under way", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("retry", []), ("called 0", [.startWindow, .retryLater]),
        ]),
        ("a placeholder that throws may still work: it keeps its window", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("threw 0", [.startWindow, .retryLater]),
            ("retry", [.call(a, attempt: 1)]), ("threw 1", [.retryLater]), ("retry", [.call(a, attempt: 2)]),
            ("ui", [.opened(by: "A")]),
        ]),
        ("a refusal that arrives after later calls still takes the opener out", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("called 0", [.startWindow, .retryLater]),
            ("retry", [.call(a, attempt: 1)]), ("refused 0", []), ("called 1", [.call(b, attempt: 2)]),
            ("called 2", [.startWindow, .retryLater]), ("refused 0", []),
        ]),
    ] as [(String, [Step])])
    func lateOpeners(_ name: String, steps: [Step]) {
        Self.run(name, steps)
    }

    /// Failure, with the reasons in order.
    @Test(arguments: [
        ("every candidate out: the reasons in order", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("refused 0", [.call(b, attempt: 1)]),
            ("threw 1", [.startWindow, .retryLater]), ("window", [.startWindow, .call(c, attempt: 2)]),
            ("called 2", [.startWindow, .retryLater]),
            ("window", [.failed(reason: "A refused (success: false); B threw; C showed no UI within 3.0 s")]),
            ("ui", []), ("retry", []),
        ]),
        ("nothing found within the window: the missing ones are named", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("refused 0", [.call(b, attempt: 1)]),
            ("missing 1", [.call(c, attempt: 2)]), ("missing 2", [.retryLater]),
            ("window", [.failed(reason: "A refused (success: false); not on the page: B, C")]),
        ]),
        ("every candidate refused: no need to wait", [
            ("start", [.startWindow, .call(a, attempt: 0)]), ("refused 0", [.call(b, attempt: 1)]),
            ("refused 1", [.call(c, attempt: 2)]),
            ("refused 2", [.failed(reason: "A refused (success: false); B refused (success: false); C refused (success: false)")]),
        ]),
    ] as [(String, [Step])])
    func failure(_ name: String, steps: [Step]) {
        Self.run(name, steps)
    }

    /// Nothing to call (an opener that is only a URL): the page has one window to show its UI.
    @Test func withNothingToCallOnlyThePagesOwnUICounts() {
        Self.run("shown", candidates: [], [("start", [.startWindow]), ("ui", [.opened(by: SettingsOpening.byThePage)])])
        Self.run("silent", candidates: [], [
            ("start", [.startWindow]), ("retry", []),
            ("window", [.failed(reason: "nothing to call, and the page showed no UI within 3.0 s")]),
        ])
    }

    @Test func automaticTriesTheStandardCallThenThePresets() {
        #expect(PrivacySettingsOpener.default(for: .tcf) == .automatic)
        #expect(PrivacySettingsOpener.automatic.candidates.map(\.name) == [
            "__tcfapi('displayConsentUi')", "Didomi", "Cookiebot", "Osano", "Complianz", "CookieYes", "Klaro",
            "CookieConsent", "tarteaucitron", "OneTrust", "Usercentrics", "TrustArc", "iubenda", "Axeptio", "Ketch",
            "Fides", "Sirdata", "consentmanager", "Termly",
        ])
        #expect(!PrivacySettingsOpener.automatic.candidates.contains(.googleFundingChoices))
        #expect(PrivacySettingsOpener(call: .didomi).candidates == [.didomi])
        #expect(PrivacySettingsOpener.consentmanager.candidates.isEmpty)
        #expect(PrivacySettingsCall.preset(named: "Cookiebot") == .cookiebot)
        #expect(PrivacySettingsCall.preset(named: "cookieyes") == .cookieYes)
        #expect(PrivacySettingsCall.preset(named: "google") == .googleFundingChoices)
        #expect(PrivacySettingsCall.preset(named: "nope") == nil)
        #expect(PrivacySettingsCall.complianz.arguments == [.string("show")])
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

    /// A Gravito page's own protocol has no UI message: its ready message is no evidence. Its TCF API's is, heard
    /// through the forwarder (listened to for evidence only: its consent events store nothing on a Gravito page).
    @Test func aGravitoPageIsOpenedOnlyByItsTCFAPIsUISignal() {
        let harness = BridgeHarness(dialect: .gravito) { $0.mode = .settings }
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.bridge.privacySettingsOpenedBy == nil)
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string(TestStrings.acceptAll),
        ]))
        #expect(harness.events.filter { if case .consentReady = $0 { return true } else { return false } }.isEmpty)
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        #expect(harness.bridge.privacySettingsOpenedBy == SettingsOpening.byThePage)
        #expect(harness.errorCodes == [])
        let consent = BridgeHarness(dialect: .gravito)
        consent.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(consent.bridge.privacySettingsOpenedBy == nil)   // consent mode: no settings to open
    }

    /// Without evidence, a Gravito page fails like any other: a typed error, consent unchanged.
    @Test func aGravitoPageWithoutEvidenceFails() {
        let harness = BridgeHarness(dialect: .gravito) {
            $0.mode = .settings
            $0.settingsAttemptTimeout = 2
        }
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.clock.advance(by: 1.9)
        #expect(harness.errorCodes == [])
        harness.clock.advance(by: 0.2)
        #expect(harness.errorCodes == ["privacySettingsNotOpened"])
        #expect(harness.bridge.privacySettingsOpenedBy == nil)
    }

    /// Automatic detection: the page's ready message (the forwarder's) does not fix the dialect, but the generic
    /// dialect's opener applies: `__tcfapi('displayConsentUi')`, then the presets — not "opened by the page itself".
    @Test func automaticDetectionUsesTheDetectedDialectsOpener() {
        let harness = BridgeHarness(dialect: nil) { $0.mode = .settings }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        #expect(harness.bridge.privacySettingsOpenedBy == nil)
        #expect(harness.webView.evaluated.count == 1)
        Self.report(harness, "refused", attempt: 0)
        Self.report(harness, "called", attempt: 1)   // Didomi
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        #expect(harness.bridge.privacySettingsOpenedBy == "Didomi")
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
