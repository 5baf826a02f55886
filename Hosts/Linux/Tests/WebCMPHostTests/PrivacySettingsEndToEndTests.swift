import Foundation
import Testing
import WebCMPBridge

/// Consent over a user's lifetime in real WebKit: "Privacy settings" (Gravito SampleHost, a TCF CMP opened with
/// `displayConsentUi`), the QA reset (consent and the page's own website data), reject-all then reopen.
@Suite(.serialized, .needsDisplay) struct PrivacySettingsEndToEndTests {
    typealias E2E = EndToEndTests

    static let checked = "Array.from(document.querySelectorAll('input:checked')).map(e => e.id).filter(id => !id.includes('-li-'))"
    static let secondLayerShown = "!document.getElementById('layer2').hidden"

    static func acceptAll(state: String) throws -> String {
        let first = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                 "--click", "accept-all"])
        #expect(first.errorCodes == [])
        return try #require(first.keys["IABTCF_TCString"]?.stringValue)
    }

    @Test func gravitoPrivacySettingsOpensTheSecondLayerWithTheStoredConsent() throws {
        let state = E2E.newState()
        _ = try Self.acceptAll(state: state)
        let settings = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                    "--settings", "--timeout", "8",
                                    "--eval", Self.secondLayerShown, "--eval", Self.checked])
        #expect(settings.errorCodes == [])
        #expect(settings.events("uiFinished").isEmpty)   // open until the user acts
        let evaluated = settings.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first == .bool(true))
        #expect(evaluated.last?.arrayValue?.contains(.string("purpose-consent-1")) == true)

        let changed = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
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
    @Test func settingsPageOnAnotherOriginIsPartOfTheConfiguration() throws {
        let state = E2E.newState()
        _ = try Self.acceptAll(state: state)
        let settingsPage = E2E.sample.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            + "?dialect=gravito&layer=settings"
        #expect(settingsPage.hasPrefix("http://localhost:"))
        let opened = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                  "--settings", "--settings-url", settingsPage, "--timeout", "8",
                                  "--eval", "location.host", "--eval", Self.secondLayerShown, "--eval", Self.checked])
        #expect(opened.errorCodes == [])
        #expect(opened.events("openedExternally").isEmpty)
        let evaluated = opened.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first?.stringValue?.hasPrefix("localhost:") == true)
        #expect(evaluated.dropFirst().first == .bool(true))
        #expect(evaluated.last?.arrayValue?.contains(.string("purpose-consent-1")) == true)

        let changed = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                   "--settings", "--settings-url", settingsPage,
                                   "--click", "back", "--click", "manage",
                                   "--click", "purpose-consent-1", "--click", "save", "--click", "close"])
        #expect(changed.errorCodes == [])
        #expect(changed.events("uiFinished").first?["reason"] == .string("closed"))
        #expect(!E2E.ids(changed.keys["IABTCF_PurposeConsents"]).contains(1))
    }

    @Test func tcfPrivacySettingsCallsDisplayConsentUIAndStaysOpenAfterTCLoaded() throws {
        let stored = try Self.acceptAll(state: E2E.newState())
        let page = E2E.sample + "?dialect=tcf&tc=" + stored
        let opened = try E2E.run([page, "--dialect", "tcf", "--settings", "--timeout", "8",
                                  "--eval", Self.secondLayerShown])
        #expect(opened.errorCodes == [])
        #expect(opened.events("consentReady").first?["tcString"] == .string(stored))   // tcloaded was stored …
        #expect(opened.events("uiFinished").isEmpty)                                  // … and did not end the UI
        #expect(opened.output["eval"]?.arrayValue?.first == .bool(true))              // displayConsentUi opened layer 2

        let consentMode = try E2E.run([page, "--dialect", "tcf", "--timeout", "8", "--eval", Self.secondLayerShown])
        #expect(consentMode.output["eval"]?.arrayValue?.first == .bool(false))

        let saved = try E2E.run([page, "--dialect", "tcf", "--settings", "--click", "purpose-consent-1", "--click", "save"])
        #expect(saved.errorCodes == [])
        #expect(saved.events("uiFinished").first?["reason"] == .string("consentSaved"))
        #expect(!E2E.ids(saved.keys["IABTCF_PurposeConsents"]).contains(1))
    }

    @Test func resetRemovesConsentAndThePagesWebsiteDataThenSampleHostIsAFirstRun() throws {
        let state = E2E.newState()
        _ = try Self.acceptAll(state: state)
        let (status, stdout) = try E2E.host([
            "reset", E2E.servers.0 + "/" + E2E.pages + "/site-data.html", "--state", state])
        #expect(status == 0)
        let output = try JSONValue(parsing: stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(output["websiteDataBefore"]?.arrayValue?.contains(.string("127.0.0.1")) == true)
        #expect(output["websiteDataAfter"]?.arrayValue?.contains(.string("127.0.0.1")) == false)
        #expect(output["after"] == .object(["localStorage": .null, "cookie": .bool(false)]))
        #expect(output["keys"] == .object([:]))

        let next = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                "--timeout", "8", "--eval", "document.getElementById('log').textContent",
                                "--eval", Self.checked])
        let evaluated = next.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first?.stringValue?.contains("cookieData (first run)") == true)
        #expect(evaluated.last == .array([]))
    }

    /// A page's own website data belongs to the `--state` directory it was stored under, as an app's web data
    /// belongs to its sandbox: another state directory, or a run without one, starts empty. (The suites run host
    /// processes in parallel: with one shared store a page on the same loopback host would see another test's data.)
    @Test func websiteDataBelongsToTheStateDirectory() throws {
        let page = E2E.servers.0 + "/" + E2E.pages + "/site-data.html"
        func found(_ state: String?) throws -> JSONValue? {
            let run = try E2E.run([page, "--timeout", "2", "--eval", "JSON.stringify(window.__siteData)"]
                                  + (state.map { ["--state", $0] } ?? []))
            return try (run.output["eval"]?.arrayValue?.first?.stringValue).map { try JSONValue(parsing: $0) }
        }
        let empty = JSONValue.object(["localStorage": .null, "cookie": .bool(false)])
        let state = E2E.newState()
        #expect(try found(state) == empty)
        #expect(try found(state) == .object(["localStorage": .string("stored"), "cookie": .bool(true)]))
        #expect(try found(E2E.newState()) == empty)
        #expect(try found(nil) == empty)
    }

    @Test func rejectAllThenReopenGivesThePageTheRejectedString() throws {
        let state = E2E.newState()
        let accepted = try Self.acceptAll(state: state)
        let (status, stdout) = try E2E.host(["reject-all", "--state", state])
        #expect(status == 0)
        let keys = try JSONValue(parsing: stdout.trimmingCharacters(in: .whitespacesAndNewlines))["keys"]
        let rejected = try #require(keys?["IABTCF_TCString"]?.stringValue)
        #expect(rejected != accepted)
        #expect(keys?["IABTCF_PurposeConsents"] == .string(""))
        #expect(keys?["IABTCF_VendorConsents"] == .string(""))

        let reopened = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                    "--settings", "--timeout", "8",
                                    "--eval", "window.__tcfapi && new Promise(r => __tcfapi('getTCData', 2, d => r(d.tcString)))",
                                    "--eval", Self.checked])
        let evaluated = reopened.output["eval"]?.arrayValue ?? []
        #expect(evaluated.first == .string(rejected))
        #expect(evaluated.last == .array([]))
    }
}

/// Issue 22, items 1 and 2: privacy settings on CMPs that open them with their own functions, judged by evidence.
@Suite(.needsDisplay) struct SettingsOpenersEndToEndTests {
    typealias E2E = EndToEndTests
    static func page(_ cmp: String) -> String { E2E.servers.0 + "/\(E2E.pages)/settings-cmps.html?cmp=" + cmp }

    static func opened(_ run: E2E.Run) -> String? {
        run.events("diagnostic").compactMap { $0["message"]?.stringValue }
            .first { $0.hasPrefix("privacy settings opened by ") }.map { String($0.dropFirst("privacy settings opened by ".count)) }
    }

    @Test(arguments: [("didomi", "Didomi"), ("cookiebot", "Cookiebot")])
    func automaticFindsThePresetOfTheCMPOnThePage(cmp: String, name: String) throws {
        let run = try E2E.run([Self.page(cmp), "--dialect", "tcf", "--settings", "--timeout", "8",
                               "--eval", "window.__shownBy"])
        #expect(run.errorCodes == [])
        #expect(Self.opened(run) == name)
        #expect(run.output["eval"]?.arrayValue?.first == .string(name))
        #expect(run.events("uiFinished").isEmpty)
    }

    @Test func aCustomCallAndAPresetFromTheCommandLine() throws {
        let custom = try E2E.run([Self.page("custom"), "--dialect", "tcf", "--settings", "--timeout", "6",
                                  "--settings-call", #"myCMP.openSettings("purposes")"#])
        #expect(custom.errorCodes == [])
        #expect(Self.opened(custom) == "myCMP.openSettings")
        let preset = try E2E.run([Self.page("cookiebot"), "--dialect", "tcf", "--settings", "--timeout", "6",
                                  "--settings-preset", "cookiebot"])
        #expect(Self.opened(preset) == "Cookiebot")
        let (status, _) = try E2E.host(["run", Self.page("none"), "--settings-preset", "nope"])
        #expect(status == 2)
    }

    /// A CMP that refuses displayConsentUi and has no preset (or whose opener throws) never shows its UI: a typed
    /// error, consent unchanged, and `check` fails with the reasons.
    @Test(arguments: ["none", "throws"])
    func aCMPThatCannotBeReopenedIsATypedErrorAndCheckFails(cmp: String) throws {
        let state = E2E.newState()
        let before = try E2E.run([Self.page(cmp), "--dialect", "tcf", "--state", state, "--timeout", "3"])
        #expect(before.keys["IABTCF_TCString"] != nil)   // tcloaded stored the CMP's consent
        let run = try E2E.run([Self.page(cmp), "--dialect", "tcf", "--state", state, "--settings", "--timeout", "15"])
        #expect(run.errorCodes == ["privacySettingsNotOpened"])
        let message = run.events("error").first?["message"]?.stringValue ?? ""
        #expect(message.contains("__tcfapi('displayConsentUi') refused"), "\(message)")
        #expect(message.contains(cmp == "throws" ? "Didomi threw" : "not on the page: Didomi, Cookiebot"), "\(message)")
        #expect(run.events("uiFinished").first?["reason"] == .string("failed"))
        #expect(run.keys == before.keys)

        let (status, stdout) = try E2E.host(["check", Self.page(cmp), "--dialect", "tcf", "--timeout", "10"])
        #expect(status == 1)
        let row = stdout.split(separator: "\n").first { $0.contains("privacy settings on demand") } ?? ""
        #expect(row.contains("FAIL"), "\(row)")
        #expect(row.contains("refused"), "\(row)")
    }
}
