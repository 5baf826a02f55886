import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The presets of the CMPs with most of the market: each one's function, arguments and own "UI shown" event, the
/// order ``PrivacySettingsOpener/automatic`` tries them in (Sourcepoint's, with the configured id, first), and their
/// scripts: every value reaches the page as a JSON argument of `open-settings.js`, and a real engine calls exactly
/// the function at the path with those arguments.
@Suite struct PrivacySettingsPresetsTests {
    /// A preset's expected call: path, arguments, own event, name.
    struct Expected: Sendable, CustomTestStringConvertible {
        var call: PrivacySettingsCall
        var path: String
        var arguments: [JSONValue] = []
        var shownEvent: String?
        var name: String
        var testDescription: String { name }
    }

    static let table: [Expected] = [
        Expected(call: .didomi, path: "Didomi.preferences.show", name: "Didomi"),
        Expected(call: .cookiebot, path: "Cookiebot.renew", name: "Cookiebot"),
        Expected(call: .osano, path: "Osano.cm.showDrawer", name: "Osano"),
        Expected(call: .complianz, path: "cmplz_set_banner_status", arguments: [.string("show")], name: "Complianz"),
        Expected(call: .cookieYes, path: "revisitCkyConsent", name: "CookieYes"),
        Expected(call: .klaro, path: "klaro.show", name: "Klaro"),
        Expected(call: .cookieConsent, path: "CookieConsent.showPreferences", name: "CookieConsent"),
        Expected(call: .tarteaucitron, path: "tarteaucitron.userInterface.openPanel", name: "tarteaucitron"),
        Expected(call: .oneTrust, path: "OneTrust.ToggleInfoDisplay", shownEvent: "OneTrustPCLoaded", name: "OneTrust"),
        Expected(call: .usercentrics, path: "UC_UI.showSecondLayer", name: "Usercentrics"),
        Expected(call: .trustArc, path: "truste.eu.clickListener", name: "TrustArc"),
        Expected(call: .iubenda, path: "_iub.cs.api.openPreferences", name: "iubenda"),
        Expected(call: .axeptio, path: "openAxeptioCookies", name: "Axeptio"),
        Expected(call: .ketch, path: "ketch", arguments: [.string("showPreferences")], name: "Ketch"),
        Expected(call: .fides, path: "Fides.showModal", shownEvent: "FidesUIShown", name: "Fides"),
        Expected(call: .sirdata, path: "Sddan.cmp.displayUI", name: "Sirdata"),
        Expected(call: .consentmanager, path: "__cmp", arguments: [.string("showScreen")], name: "consentmanager"),
        Expected(call: .termly, path: "displayPreferenceModal", name: "Termly"),
    ]

    static let sourcepoint: [Expected] = [
        Expected(call: .sourcepoint(privacyManagerID: 488_393), path: "_sp_.gdpr.loadPrivacyManagerModal",
                 arguments: [.number(488_393)], name: "Sourcepoint"),
        Expected(call: .sourcepointUSNat(privacyManagerID: 1_234_567), path: "_sp_.usnat.loadPrivacyManagerModal",
                 arguments: [.number(1_234_567)], name: "Sourcepoint U.S."),
    ]

    @Test(arguments: table + sourcepoint)
    func eachPresetCallsItsCMPsFunction(_ expected: Expected) {
        let call = expected.call
        #expect(call.path == expected.path.split(separator: ".").map(String.init))
        #expect(call.arguments == expected.arguments)
        #expect(call.shownEvent == expected.shownEvent)
        #expect(call.name == expected.name)
        #expect(!call.appendsCallback)
        // The whole call is one JSON argument of the resource; nothing else is appended or interpolated.
        var config: [String: JSONValue] = [
            "path": .array(call.path.map(JSONValue.string)), "arguments": .array(expected.arguments),
            "callback": .bool(false), "handler": .string("webcmpTCF"), "attempt": .number(3),
        ]
        if let event = expected.shownEvent { config["shownEvent"] = .string(event) }
        #expect(call.script(reportingTo: "webcmpTCF", attempt: 3)
            == ScriptResource.openSettings.source(config: .object(config)))
        #expect(PrivacySettingsCall.preset(named: expected.name) == (Self.table.contains { $0.name == expected.name }
            ? call : nil))
    }

    @Test func automaticTriesTheCMPsWithMostOfTheMarketAfterTheStandardCall() {
        #expect(PrivacySettingsCall.presets == Self.table.map(\.call))
        #expect(PrivacySettingsOpener.automatic.candidates.map(\.name)
            == ["__tcfapi('displayConsentUi')"] + Self.table.map(\.name))
        #expect(!PrivacySettingsCall.presets.contains(.googleFundingChoices))
    }

    /// The app's Sourcepoint ids come first (the app said which CMP it runs), the GDPR one before the U.S. one; an
    /// opener without presets tries only them and its call.
    @Test func sourcepointsPrivacyManagerIDFromTheConfigurationIsTriedFirst() {
        var opener = PrivacySettingsOpener.automatic
        opener.sourcepointPrivacyManagerID = 488_393
        #expect(opener.candidates.prefix(2).map(\.name) == ["Sourcepoint", "__tcfapi('displayConsentUi')"])
        #expect(opener.candidates.first?.arguments == [.number(488_393)])
        opener.sourcepointUSNatPrivacyManagerID = 7
        #expect(opener.candidates.prefix(3).map(\.name)
            == ["Sourcepoint", "Sourcepoint U.S.", "__tcfapi('displayConsentUi')"])
        #expect(opener.candidates.count == 2 + 1 + PrivacySettingsCall.presets.count)
        var own = PrivacySettingsOpener(call: .didomi)
        own.sourcepointUSNatPrivacyManagerID = 7
        #expect(own.candidates.map(\.name) == ["Sourcepoint U.S.", "Didomi"])
        // A call that is also a preset is tried once.
        let didomiFirst = PrivacySettingsOpener(call: .didomi, triesPresets: true)
        #expect(didomiFirst.candidates.filter { $0 == .didomi }.count == 1)
    }

    /// The call's own "UI shown" event is evidence: it opens, named by the call, whenever it arrives.
    @Test func aCallsOwnShownEventOpensTheSettings() {
        typealias Run = SettingsOpeningTests
        let a = SettingsOpeningTests.a, b = SettingsOpeningTests.b
        Run.run("shown during the call, before its report", [
            ("start", [.startWindow, .call(a, attempt: 0)]),
            ("shown 0", [.opened(by: "A")]),
            ("called 0", []), ("retry", []), ("window", []),
        ])
        Run.run("shown later, after the opener was called again", [
            ("start", [.startWindow, .call(a, attempt: 0)]),
            ("called 0", [.startWindow, .retryLater]),
            ("retry", [.call(a, attempt: 1)]),
            ("called 1", [.retryLater]),
            ("shown 0", [.opened(by: "A")]),
            ("retry", []),
        ])
        Run.run("shown by the second candidate", [
            ("start", [.startWindow, .call(a, attempt: 0)]),
            ("missing 0", [.call(b, attempt: 1)]),
            ("shown 1", [.opened(by: "B")]),
        ])
        Run.run("an unknown attempt is no evidence", [
            ("start", [.startWindow, .call(a, attempt: 0)]),
            ("shown 5", []),
        ])
    }

    /// In a real engine every preset's script calls exactly its function, with `this` its owner and its arguments,
    /// and one the page lacks is reported missing; a call whose CMP fires its own event while opening reports
    /// `shown` before `called`.
    @Test func presetScriptsCallTheirFunctionsInARealEngine() throws {
        guard NodeRunner.executable != nil else { return }
        let calls = (Self.table + Self.sourcepoint).map(\.call)
        var script = """
            const window = globalThis; const calls = []; const posted = [];
            const target = new EventTarget();
            window.addEventListener = target.addEventListener.bind(target);
            window.webkit = { messageHandlers: { webcmpTCF: { postMessage(m) { posted.push([m.attempt, m.result]); } } } };
            const define = (path, fire) => {
              const names = path.split('.'); let owner = window;
              for (const name of names.slice(0, -1)) { owner = owner[name] = owner[name] || { owner: name }; }
              owner[names[names.length - 1]] = function (...args) {
                calls.push([path, this === owner, args]);
                if (fire) { target.dispatchEvent(new Event(fire)); }
              };
            };

            """
        for expected in Self.table + Self.sourcepoint {
            let fire = expected.shownEvent.map { "'\($0)'" } ?? "null"
            script += "define('\(expected.path)', \(fire));\n"
        }
        for (attempt, call) in calls.enumerated() {
            script += call.script(reportingTo: "webcmpTCF", attempt: attempt) + "\n"
        }
        script += PrivacySettingsCall("Absent.show").script(reportingTo: "webcmpTCF", attempt: calls.count) + "\n"
        script += "process.stdout.write(JSON.stringify({ calls, posted }));\n"
        let output = try JSONValue(parsing: NodeRunner.run(script))
        let expectedCalls = (Self.table + Self.sourcepoint).map {
            JSONValue.array([.string($0.path), .bool(true), .array($0.arguments)])
        }
        #expect(output["calls"] == .array(expectedCalls))
        var expectedPosts: [JSONValue] = []
        for (attempt, expected) in (Self.table + Self.sourcepoint).enumerated() {
            if expected.shownEvent != nil { expectedPosts.append(.array([.number(Double(attempt)), .string("shown")])) }
            expectedPosts.append(.array([.number(Double(attempt)), .string("called")]))
        }
        expectedPosts.append(.array([.number(Double(calls.count)), .string("missing")]))
        #expect(output["posted"] == .array(expectedPosts))
    }

    /// ScriptEscapingTests' hostile strings as a call's event name, path and argument reach the page unchanged.
    @Test func hostileStringsReachTheOpenerScriptUnchanged() throws {
        guard NodeRunner.executable != nil else { return }
        var generator = SplitMix64(state: 37)
        let strings = (0..<60).map { _ in ScriptEscapingTests.randomString(&generator) } + ScriptEscapingTests.tricky
        var script = """
            const window = globalThis; const seen = [];
            window.addEventListener = (name) => { seen.push(['event', Array.from(name).map((c) => c.codePointAt(0))]); };
            const cps = (s) => Array.from(s).map((c) => c.codePointAt(0));
            window.open = function (text) { seen.push(['argument', cps(text)]); };

            """
        for string in strings {
            script += PrivacySettingsCall("open", arguments: [.string(string)]).shown(on: string).script + "\n"
        }
        script += "process.stdout.write(JSON.stringify(seen));\n"
        let output = try JSONValue(parsing: NodeRunner.run(script))
        let points = { (string: String) in JSONValue.array(string.unicodeScalars.map { .number(Double($0.value)) }) }
        let expected = strings.flatMap { string in
            [JSONValue.array([.string("event"), points(string)]), .array([.string("argument"), points(string)])]
        }
        #expect(output == .array(expected))
    }
}

/// The bridge side: a `shown` report of the generic listener is evidence through the machine.
@MainActor
@Suite struct PrivacySettingsShownEventTests {
    @Test func aPresetsOwnEventOpensTheSettingsNamedByIt() {
        let harness = BridgeHarness(dialect: .tcf) {
            $0.mode = .settings
            $0.privacySettings = PrivacySettingsOpener(call: .oneTrust)
        }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        #expect(harness.webView.evaluated.count == 1)
        PrivacySettingsEvidenceTests.report(harness, "shown", attempt: 0)
        PrivacySettingsEvidenceTests.report(harness, "called", attempt: 0)
        #expect(harness.bridge.privacySettingsOpenedBy == "OneTrust")
        #expect(harness.errorCodes == [])
        harness.clock.advance(by: 10)
        #expect(harness.webView.evaluated.count == 1)   // a toggle: never called again once its UI shows
        #expect(harness.errorCodes == [])
    }
}
