import Foundation
import Testing
import WebCMPBridge

/// Consent over a user's lifetime in real WebKit: "Privacy settings" (Gravito SampleHost, a TCF CMP opened with
/// `displayConsentUi`), the QA reset (consent and the page's own website data), reject-all then reopen.
@Suite(.serialized, .needsDisplay) struct PrivacySettingsEndToEndTests {
    typealias E2E = EndToEndTests

    static let checked = "Array.from(document.querySelectorAll('input:checked')).map(e => e.id).filter(id => !id.includes('-li-'))"
    static let secondLayerShown = "!document.getElementById('layer2').hidden"

    static func acceptAll(state: String) async throws -> String {
        let first = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                 "--click", "accept-all"])
        #expect(first.errorCodes == [])
        return try #require(first.keys["IABTCF_TCString"]?.stringValue)
    }

    @Test func gravitoPrivacySettingsOpensTheSecondLayerWithTheStoredConsent() async throws {
        let state = E2E.newState()
        _ = try await Self.acceptAll(state: state)
        let settings = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                    "--settings", "--timeout", "8",
                                    "--eval", Self.secondLayerShown, "--eval", Self.checked])
        #expect(settings.errorCodes == [])
        #expect(settings.events("uiFinished").isEmpty)   // open until the user acts
        let evaluated = settings.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first == .bool(true))
        #expect(evaluated.last?.arrayValue?.contains(.string("purpose-consent-1")) == true)

        let changed = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                   // back/manage first: the page restores the injected consent asynchronously
                                   // (a posted message), a toggle clicked before that would be overwritten.
                                   "--settings", "--click", "back", "--click", "manage",
                                   "--click", "purpose-consent-1", "--click", "save", "--click", "close"])
        #expect(changed.errorCodes == [])
        #expect(changed.events("uiFinished").first?["reason"] == .string("closed"))
        #expect(!E2E.ids(changed.keys["IABTCF_PurposeConsents"]).contains(1))
        #expect(E2E.ids(changed.keys["IABTCF_PurposeConsents"]).contains(2))
    }

    /// A "Privacy settings" page on another origin (`localhost` instead of `127.0.0.1`) that the app configured loads
    /// in the UI, receives the stored consent and saves a change; an unconfigured origin would be opened externally.
    @Test func settingsPageOnAnotherOriginIsPartOfTheConfiguration() async throws {
        let state = E2E.newState()
        _ = try await Self.acceptAll(state: state)
        let settingsPage = E2E.sample.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            + "?dialect=gravito&layer=settings"
        #expect(settingsPage.hasPrefix("http://localhost:"))
        let opened = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                  "--settings", "--settings-url", settingsPage, "--timeout", "8",
                                  "--eval", "location.host", "--eval", Self.secondLayerShown, "--eval", Self.checked])
        #expect(opened.errorCodes == [])
        #expect(opened.events("openedExternally").isEmpty)
        let evaluated = opened.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first?.stringValue?.hasPrefix("localhost:") == true)
        #expect(evaluated.dropFirst().first == .bool(true))
        #expect(evaluated.last?.arrayValue?.contains(.string("purpose-consent-1")) == true)

        let changed = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                   "--settings", "--settings-url", settingsPage,
                                   "--click", "back", "--click", "manage",
                                   "--click", "purpose-consent-1", "--click", "save", "--click", "close"])
        #expect(changed.errorCodes == [])
        #expect(changed.events("uiFinished").first?["reason"] == .string("closed"))
        #expect(!E2E.ids(changed.keys["IABTCF_PurposeConsents"]).contains(1))
    }

    @Test func tcfPrivacySettingsCallsDisplayConsentUIAndStaysOpenAfterTCLoaded() async throws {
        let stored = try await Self.acceptAll(state: E2E.newState())
        let page = E2E.sample + "?dialect=tcf&tc=" + stored
        let opened = try await E2E.run([page, "--dialect", "tcf", "--settings", "--timeout", "8",
                                  "--eval", Self.secondLayerShown])
        #expect(opened.errorCodes == [])
        #expect(opened.events("consentReady").first?["tcString"] == .string(stored))   // tcloaded was stored …
        #expect(opened.events("uiFinished").isEmpty)                                  // … and did not end the UI
        #expect(opened.output["eval"]?.arrayValue?.first == .bool(true))              // displayConsentUi opened layer 2

        let consentMode = try await E2E.run([page, "--dialect", "tcf", "--timeout", "8", "--eval", Self.secondLayerShown])
        #expect(consentMode.output["eval"]?.arrayValue?.first == .bool(false))

        let saved = try await E2E.run([page, "--dialect", "tcf", "--settings", "--click", "purpose-consent-1", "--click", "save"])
        #expect(saved.errorCodes == [])
        #expect(saved.events("uiFinished").first?["reason"] == .string("consentSaved"))
        #expect(!E2E.ids(saved.keys["IABTCF_PurposeConsents"]).contains(1))
    }

    @Test func resetRemovesConsentAndThePagesWebsiteDataThenSampleHostIsAFirstRun() async throws {
        let state = E2E.newState()
        _ = try await Self.acceptAll(state: state)
        let (status, stdout) = try await E2E.host([
            "reset", E2E.servers.0 + "/" + E2E.pages + "/site-data.html", "--state", state])
        #expect(status == 0)
        let output = try E2E.json(stdout)
        #expect(output["websiteDataBefore"]?.arrayValue?.contains(.string("127.0.0.1")) == true)
        #expect(output["websiteDataAfter"]?.arrayValue?.contains(.string("127.0.0.1")) == false)
        #expect(output["after"] == .object(["localStorage": .null, "cookie": .bool(false)]))
        #expect(output["keys"] == .object([:]))

        let next = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                "--timeout", "8", "--eval", "document.getElementById('log').textContent",
                                "--eval", Self.checked])
        let evaluated = next.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first?.stringValue?.contains("cookieData (first run)") == true)
        #expect(evaluated.last == .array([]))
    }

    /// A page's own website data belongs to the `--state` directory it was stored under, as an app's web data
    /// belongs to its sandbox: another state directory, or a run without one, starts empty. (The suites run host
    /// processes in parallel: with one shared store a page on the same loopback host would see another test's data.)
    @Test func websiteDataBelongsToTheStateDirectory() async throws {
        let page = E2E.servers.0 + "/" + E2E.pages + "/site-data.html"
        func found(_ state: String?) async throws -> JSONValue? {
            let run = try await E2E.run([page, "--timeout", "2", "--eval", "JSON.stringify(window.__siteData)"]
                                  + (state.map { ["--state", $0] } ?? []))
            return try (run.output["eval"]?.arrayValue?.first?.stringValue).map { try JSONValue(parsing: $0) }
        }
        let empty = JSONValue.object(["localStorage": .null, "cookie": .bool(false)])
        let state = E2E.newState()
        #expect(try await found(state) == empty)
        #expect(try await found(state) == .object(["localStorage": .string("stored"), "cookie": .bool(true)]))
        #expect(try await found(E2E.newState()) == empty)
        #expect(try await found(nil) == empty)
    }

    @Test func rejectAllThenReopenGivesThePageTheRejectedString() async throws {
        let state = E2E.newState()
        let accepted = try await Self.acceptAll(state: state)
        let (status, stdout) = try await E2E.host(["reject-all", "--state", state])
        #expect(status == 0)
        let keys = try E2E.json(stdout)["keys"]
        let rejected = try #require(keys?["IABTCF_TCString"]?.stringValue)
        #expect(rejected != accepted)
        #expect(keys?["IABTCF_PurposeConsents"] == .string(""))
        #expect(keys?["IABTCF_VendorConsents"] == .string(""))

        let reopened = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                    "--settings", "--timeout", "8",
                                    "--eval", "window.__tcfapi && new Promise(r => __tcfapi('getTCData', 2, d => r(d.tcString)))",
                                    "--eval", Self.checked])
        let evaluated = reopened.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first == .string(rejected))
        #expect(evaluated.last == .array([]))
    }
}

/// Privacy settings on CMPs that open them with their own functions, judged by evidence.
@Suite(.needsDisplay) struct SettingsOpenersEndToEndTests {
    typealias E2E = EndToEndTests
    static func page(_ cmp: String) -> String { E2E.servers.0 + "/\(E2E.pages)/settings-cmps.html?cmp=" + cmp }

    static func opened(_ run: E2E.Run) -> String? {
        run.events("diagnostic").compactMap { $0["message"]?.stringValue }
            .first { $0.hasPrefix("privacy settings opened by ") }.map { String($0.dropFirst("privacy settings opened by ".count)) }
    }

    /// Each preset's page mimics the vendor's documented global (some defined or made real late, a queue stub that
    /// the tag drains, one answering `displayConsentUi`); in the default configuration (no `--dialect`, the dialect
    /// detected) the automatic opener finds it, and the UI it shows is the evidence.
    @Test(arguments: [
        ("didomi", "Didomi"), ("cookiebot", "Cookiebot"), ("osano", "Osano"), ("complianz", "Complianz"),
        ("cookieyes", "CookieYes"), ("klaro", "Klaro"), ("cookieconsent", "CookieConsent"),
        ("tarteaucitron", "tarteaucitron"), ("inmobi", "__tcfapi('displayConsentUi')"), ("onetrust", "OneTrust"),
        ("usercentrics", "Usercentrics"), ("trustarc", "TrustArc"), ("iubenda", "iubenda"), ("axeptio", "Axeptio"),
        ("ketch", "Ketch"), ("fides", "Fides"), ("sirdata", "Sirdata"), ("consentmanager", "consentmanager"),
        ("termly", "Termly"),
    ])
    func automaticFindsThePresetOfTheCMPOnThePage(cmp: String, name: String) async throws {
        let run = try await E2E.run([Self.page(cmp), "--settings", "--timeout", "4", "--eval", "window.__shownBy",
                               "--eval", Self.uiShown])
        #expect(run.errorCodes == [])
        #expect(Self.opened(run) == name)
        #expect(run.output["eval"]?.arrayValue == [.string(name), .bool(true)])
        #expect(run.events("uiFinished").isEmpty)
    }

    static let uiShown = "!document.getElementById('ui').hidden"

    /// OneTrust's and Fides' pages signal their UI only with their own documented `window` event (no TCF signal):
    /// that event is the evidence, and OneTrust's toggle is never called again, so its preference center stays open.
    @Test(arguments: [("onetrust", "OneTrust"), ("fides", "Fides")])
    func aCMPsOwnShownEventIsTheEvidence(cmp: String, name: String) async throws {
        let run = try await E2E.run([Self.page(cmp), "--settings", "--timeout", "4", "--eval", "window.__tcfShown",
                               "--eval", "window.__callsAfterShown", "--eval", Self.uiShown])
        #expect(run.errorCodes == [])
        #expect(Self.opened(run) == name)
        #expect(run.output["eval"]?.arrayValue == [.bool(false), .number(0), .bool(true)])
    }

    /// Sourcepoint's opener needs the privacy manager id from the configuration (`--sourcepoint-pm`, as an app sets
    /// `PrivacySettingsOpener.sourcepointPrivacyManagerID`): with it the automatic opener opens the page's privacy
    /// manager; without it, or with another id, nothing opens and the run ends with the typed error.
    @Test(arguments: [
        ("sourcepoint", "--sourcepoint-pm", "Sourcepoint"), ("sourcepoint-us", "--sourcepoint-usnat-pm", "Sourcepoint U.S."),
    ])
    func sourcepointOpensWithThePrivacyManagerIDFromTheConfiguration(cmp: String, option: String, name: String) async throws {
        let page = Self.page(cmp) + "&pm=488393"
        let opened = try await E2E.run([page, "--settings", "--timeout", "4", option, "488393", "--eval", "window.__shownBy"])
        #expect(opened.errorCodes == [])
        #expect(Self.opened(opened) == name)
        #expect(opened.output["eval"]?.arrayValue?.first == .string(name))
        let wrongID = try await E2E.run([page, "--settings", "--timeout", "10", option, "1"])
        #expect(wrongID.errorCodes == ["privacySettingsNotOpened"])
        let message = wrongID.events("error").first?["message"]?.stringValue ?? ""
        #expect(message.contains("\(name) showed no UI"), "\(message)")
        let withoutID = try await E2E.run([page, "--settings", "--timeout", "10"])
        #expect(withoutID.errorCodes == ["privacySettingsNotOpened"])
        #expect(Self.opened(withoutID) == nil)
    }

    @Test func aCustomCallAndPresetsFromTheCommandLine() async throws {
        let custom = try await E2E.run([Self.page("custom"), "--dialect", "tcf", "--settings", "--timeout", "4",
                                  "--settings-call", #"myCMP.openSettings("purposes")"#])
        #expect(custom.errorCodes == [])
        #expect(Self.opened(custom) == "myCMP.openSettings")
        let preset = try await E2E.run([Self.page("cookiebot"), "--settings", "--timeout", "4", "--settings-preset", "cookiebot"])
        #expect(Self.opened(preset) == "Cookiebot")
        // Google's opener is not automatic (each call clears the page's consent record): only when asked for.
        let google = try await E2E.run([Self.page("google"), "--settings", "--timeout", "4", "--settings-preset", "google"])
        #expect(Self.opened(google) == "Google Privacy & messaging")
        let (status, _) = try await E2E.host(["run", Self.page("none"), "--settings-preset", "nope"])
        #expect(status == 2)
    }

    /// A CMP that refuses displayConsentUi and has no preset (or whose opener throws) never shows its UI: a typed
    /// error, consent unchanged, and `check` fails with the reasons — in the default configuration (the dialect
    /// detected) as with `--dialect tcf`.
    @Test(arguments: [("none", false), ("throws", false), ("none", true)])
    func aCMPThatCannotBeReopenedIsATypedErrorAndCheckFails(cmp: String, configuresTCF: Bool) async throws {
        let dialect = configuresTCF ? ["--dialect", "tcf"] : []
        let state = E2E.newState()
        let before = try await E2E.run([Self.page(cmp), "--state", state, "--timeout", "3"] + dialect)
        #expect(before.keys["IABTCF_TCString"] != nil)   // tcloaded stored the CMP's consent
        let run = try await E2E.run([Self.page(cmp), "--state", state, "--settings", "--timeout", "15"] + dialect)
        #expect(run.errorCodes == ["privacySettingsNotOpened"])
        #expect(Self.opened(run) == nil)
        let message = run.events("error").first?["message"]?.stringValue ?? ""
        #expect(message.contains("__tcfapi('displayConsentUi') refused"), "\(message)")
        #expect(message.contains(cmp == "throws" ? "Didomi threw" : "not on the page: Didomi, Cookiebot"), "\(message)")
        #expect(run.events("uiFinished").first?["reason"] == .string("failed"))
        #expect(run.keys == before.keys)

        let (status, stdout) = try await E2E.host(["check", Self.page(cmp), "--timeout", "10"] + dialect)
        #expect(status == 1)
        let row = Self.settingsRow(stdout)
        #expect(row.contains("FAIL"), "\(row)")
        #expect(row.contains("refused"), "\(row)")
        #expect(!row.contains("opened by"), "\(row)")
    }

    /// `check`'s privacy-settings row.
    static func settingsRow(_ stdout: String) -> String {
        String(stdout.split(separator: "\n").first { $0.contains("privacy settings on demand") } ?? "")
    }
}

/// Openers that become real late, and a CMP that opens its UI itself, in the default configuration.
@Suite(.needsDisplay) struct LateSettingsOpenersEndToEndTests {
    typealias E2E = EndToEndTests
    typealias Openers = SettingsOpenersEndToEndTests

    static let calls = ["--eval", "window.__shownBy", "--eval", "window.__calls", "--eval", "window.__callsAfterShown"]

    /// A no-op that becomes real 400 ms after `load`, and one that becomes real only after its UI framework rendered:
    /// called again until the UI shows, never after.
    @Test(arguments: [("late", "Didomi"), ("framework", "CookieConsent")])
    func aLateOpenerIsCalledAgainUntilTheUIShows(cmp: String, name: String) async throws {
        let run = try await E2E.run([Openers.page(cmp), "--settings", "--timeout", "4"] + Self.calls)
        #expect(run.errorCodes == [])
        #expect(Openers.opened(run) == name)
        let evaluated = run.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first == .string(name))
        #expect((evaluated.dropFirst().first?.numberValue ?? 0) >= 2, "\(evaluated)")   // the no-op was called too
        #expect(evaluated.last == .number(0), "\(evaluated)")                           // nothing after the UI showed
    }

    /// After retries the late opener's UI is where the user saves: the save replaces the stored keys.
    @Test func aSaveInALateOpenersUIReplacesTheKeys() async throws {
        let state = E2E.newState()
        let before = try await E2E.run([Openers.page("late"), "--state", state, "--timeout", "3"])
        let stored = try #require(before.keys["IABTCF_TCString"]?.stringValue)
        let saved = try await E2E.run([Openers.page("late"), "--state", state, "--settings", "--click", "reject-all"])
        #expect(saved.errorCodes == [])
        #expect(Openers.opened(saved) == "Didomi")
        #expect(saved.events("uiFinished").first?["reason"] == .string("consentSaved"))
        let replaced = try #require(saved.keys["IABTCF_TCString"]?.stringValue)
        #expect(replaced != stored)
        #expect(replaced.hasPrefix("CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA"))
    }

    /// A CMP that opens its preferences on its own (as consentmanager does with `?cmpscreen`): the evidence is its
    /// ping's `displayStatus: "visible"`; no call is made.
    @Test func aCMPThatOpensItsUIItselfIsRecordedAsTheEvidence() async throws {
        let run = try await E2E.run([Openers.page("self"), "--settings", "--timeout", "3"] + Self.calls)
        #expect(run.errorCodes == [])
        #expect(Openers.opened(run) == "the page itself")
        #expect(run.output["eval"]?.arrayValue?.dropFirst().first == .number(0))
    }

    /// `check` in its default configuration: a late opener passes and names the opener that worked.
    @Test func checkNamesTheLateOpenerThatWorked() async throws {
        // (The exit status is every row's verdict; this test judges the settings row.)
        let (_, stdout) = try await E2E.host(["check", Openers.page("late"), "--timeout", "10"])
        let row = Openers.settingsRow(stdout)
        #expect(row.contains("PASS"), "\(row)")
        #expect(row.contains("opened by Didomi"), "\(row)")
    }
}
