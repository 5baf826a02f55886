import Foundation
import Testing
import WebCMPBridge

/// Consent over a user's lifetime against pages that behave like the CMPs publishers run (Pages/tcf-cmp.html: the IAB
/// reference CMP API behaviour; Pages/gpp-us-cmp.html: a GPP-only US CMP; Pages/cmp-never-starts.html: a stub whose
/// CMP never loads), in real WebKit through `webcmp-host run --json`.
@Suite(.serialized, .needsDisplay) struct LifecycleEndToEndTests {
    typealias E2E = EndToEndTests
    static var tcfPage: String { E2E.servers.0 + "/\(E2E.pages)/tcf-cmp.html" }
    static var gppPage: String { E2E.servers.0 + "/\(E2E.pages)/gpp-us-cmp.html" }
    static let accept = "COwAdDhOwAdDhN4ABAENAPCgAAQAAv___wAAAFP_AAp_4AI6ACACAA"
    static let reject = "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA.IDKQA4AAgAKAGQAygAAA.YAAAAAAAAAAA"
    static let stored = "CLcVDxRMWfGmWAVAHCENAXCkAKDAADnAABRgA5mdfCKZuYJez-NQm0TBMYA4oCAAGQYIAAAAAAEAIAEgAA.YAAAAAAAAXA"

    static func index(_ run: E2E.Run, _ type: String) -> Int? { run.events.firstIndex { $0["type"] == .string(type) } }

    /// A page that loads (HTTP 200) but whose CMP script never starts: automatic mode times out; stored consent stays.
    @Test func cmpThatNeverStartsTimesOutAndKeepsConsent() async throws {
        let state = E2E.newState()
        let first = try await E2E.run([Self.tcfPage, "--state", state, "--click", "accept-all"])
        #expect(first.errorCodes == [])
        #expect(first.keys["IABTCF_TCString"] == .string(Self.accept))
        let stuck = try await E2E.run([E2E.servers.0 + "/\(E2E.pages)/cmp-never-starts.html", "--state", state, "--timeout", "3"])
        #expect(stuck.errorCodes == ["timeout"])
        #expect(stuck.events("uiReady").isEmpty)
        #expect(stuck.events("uiFinished").first?["reason"] == .string("timedOut"))
        #expect(stuck.keys == first.keys)
    }

    /// A CMP URL answering HTTP 500 is a load failure carrying the status, not a page that loaded.
    @Test func httpErrorCMPURLIsALoadFailure() async throws {
        let run = try await E2E.run([E2E.servers.0 + "/status/500", "--dialect", "tcf", "--timeout", "10"])
        #expect(run.errorCodes == ["loadFailed"])
        #expect(run.events("error").first?["message"]?.stringValue?.contains("500") == true)
        #expect(run.events("error").first?["endsUI"] == .bool(true), "the failure that ended the UI")
        #expect(run.events("uiFinished").first?["reason"] == .string("failed"))
        #expect(run.keys.isEmpty)
    }

    /// A CMP URL that redirects to another origin is a load failure naming that origin: nothing is opened outside,
    /// nothing stored. One that redirects within its origin loads and saves as usual.
    @Test func aCMPURLRedirectedElsewhereIsALoadFailureAndWithinItsOriginLoads() async throws {
        func redirect(to target: String) -> String {
            let query = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
            return E2E.servers.0 + "/redirect?to=" + query
        }
        let elsewhere = E2E.sample.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "?dialect=gravito"
        let moved = try await E2E.run([redirect(to: elsewhere), "--dialect", "gravito", "--timeout", "10"])
        #expect(moved.errorCodes == ["loadFailed"])
        #expect(moved.events("error").first?["message"]?.stringValue?.contains("localhost") == true)
        #expect(moved.events("openedExternally").isEmpty)
        #expect(moved.events("uiFinished").first?["reason"] == .string("failed"))
        #expect(moved.keys.isEmpty)

        let within = try await E2E.run([redirect(to: "/SampleHost/index.html?dialect=gravito"), "--dialect", "gravito",
                                  "--click", "accept-all"])
        #expect(within.errorCodes == [])
        #expect(within.events("openedExternally").isEmpty)
        #expect(within.keys["IABTCF_TCString"] != nil)
    }

    /// A link to another origin, a `target=_blank` link and `window.open`: each is handed out (logged), the CMP page
    /// stays, and it still saves.
    @Test func linksAwayLeaveTheCMPPageInPlaceAndItStillSaves() async throws {
        let other = E2E.servers.1
        let run = try await E2E.run([Self.tcfPage + "?other=" + other, "--click", "privacy-link", "--click", "vendor-blank",
                               "--click", "open-window", "--click", "accept-all", "--eval", "location.pathname"])
        #expect(run.errorCodes == [])
        let opened = run.events("openedExternally").compactMap { $0["url"]?.stringValue }
        // The new windows are decided at once, the main-frame link when its response arrives: compare as a set.
        #expect(opened.sorted() == [other + "/partner.html", other + "/privacy.html", other + "/vendors.html"])
        #expect(run.keys["IABTCF_TCString"] == .string(Self.accept))
        #expect(run.events("uiFinished").first?["reason"] == .string("consentSaved"))
        #expect(run.output["eval"]?.arrayValue?.first == .string("/\(E2E.pages)/tcf-cmp.html"))
    }

    /// A CMP that saves 3 s after it became ready: a run without clicks keeps going and stores it.
    @Test func lateSaveWithoutClicksIsStored() async throws {
        let run = try await E2E.run([Self.tcfPage + "?autosave=3000", "--timeout", "15"])
        #expect(run.errorCodes == [])
        #expect(run.events("uiReady").first?["dialect"] == .string("tcf"))
        #expect(run.keys["IABTCF_TCString"] == .string(Self.accept))
        #expect(run.events("uiFinished").first?["reason"] == .string("consentSaved"))
    }

    /// A reopened TCF CMP ("Privacy settings"): `tcloaded` first is stored but the UI stays until the user acts.
    @Test func reopenedTCFCMPStaysOpenUntilTheUserActs() async throws {
        let waiting = try await E2E.run([Self.tcfPage + "?stored=1", "--dialect", "tcf", "--timeout", "3"])
        #expect(waiting.errorCodes == [])
        #expect(waiting.keys["IABTCF_TCString"] == .string(Self.stored))
        #expect(waiting.events("uiFinished").isEmpty)

        let changed = try await E2E.run([Self.tcfPage + "?stored=1", "--dialect", "tcf", "--click", "reject-all"])
        #expect(changed.errorCodes == [])
        let tcStrings = changed.events("consentReady").compactMap { $0["tcString"]?.stringValue }
        #expect(tcStrings == [Self.stored, Self.reject])
        let click = try #require(Self.index(changed, "click"))
        let finished = try #require(Self.index(changed, "uiFinished"))
        #expect(click < finished)
        #expect(changed.events("uiFinished").first?["reason"] == .string("consentSaved"))
        #expect(changed.keys["IABTCF_TCString"] == .string(Self.reject))
        #expect(changed.keys["IABTCF_PurposeConsents"] == .string(""))
    }

    /// Onesecondbefore has no close message: its consent ends the UI.
    @Test func onesecondbeforeFinishesAfterConsent() async throws {
        let run = try await E2E.run([E2E.sample + "?dialect=osb", "--dialect", "onesecondbefore", "--click", "accept-all"])
        #expect(run.errorCodes == [])
        #expect(run.events("uiFinished").first?["reason"] == .string("consentSaved"))
        #expect(E2E.ids(run.keys["IABTCF_PurposeConsents"]) == Array(1...11))
    }

    /// A GPP-only US CMP (no `__tcfapi`): ready through `__gpp`, the user's opt-out stored as the IABGPP keys (with the
    /// per-field usnat keys) and US Privacy from `__uspapi`, no `IABTCF_gdprApplies`, and the UI ends when the CMP
    /// hides it after the choice. Without a click it is ready and stores nothing.
    @Test func gppOnlyUSCMP() async throws {
        let run = try await E2E.run([Self.gppPage, "--click", "opt-out"])
        #expect(run.errorCodes == [])
        #expect(run.events("uiReady").first?["dialect"] == .string("tcf"))
        #expect(run.keys["IABGPP_HDR_GppString"] == .string("DBABLA~CVVVkkkkkpFY.YA"))
        #expect(run.keys["IABGPP_GppSID"] == .string("7"))
        #expect(run.keys["IABGPP_7_String"] == .string("CVVVkkkkkpFY.YA"))
        #expect(run.keys["IABGPP_USNAT_SaleOptOut"] == .number(1))
        #expect(run.keys["IABGPP_USNAT_Gpc"] == .number(1))
        #expect(run.keys["IABUSPrivacy_String"] == .string("1YYN"))
        #expect(run.keys["IABTCF_gdprApplies"] == nil)
        #expect(run.keys["IABTCF_TCString"] == nil)
        #expect(run.events("uiFinished").first?["reason"] == .string("consentSaved"))

        let idle = try await E2E.run([Self.gppPage, "--timeout", "3"])
        #expect(idle.errorCodes == [])
        #expect(idle.events("consentReady").isEmpty)
        #expect(idle.keys.isEmpty)
    }

    /// Proof of consent (promise 5): a CMP that saves on its own while its page is pre-warmed off-screen, before any
    /// UI showed it, is stored but recorded as a report — nobody can have acted on a page no one saw; the same CMP
    /// saving after the page was presented is recorded as the user's choice.
    @Test func aPrewarmedCMPThatSavesBeforeAnyUIShowsItIsRecordedAsAReportNotAChoice() async throws {
        func prewarm(autosaveAfter milliseconds: Int) async throws -> JSONValue {
            // --settle 8: after presenting, wait for the later save (the run ends when the page finishes).
            let (_, stdout) = try await E2E.host(["prewarm", Self.tcfPage + "?autosave=\(milliseconds)",
                                                  "--state", E2E.newState(), "--timeout", "15", "--settle", "8"])
            return try E2E.json(stdout)
        }
        // Saves 1 ms after its UI came up off-screen; the host presents 0.5 s after the page was ready.
        let unseen = try await prewarm(autosaveAfter: 1)
        #expect(unseen["keys"]?["IABTCF_TCString"] == .string(Self.accept))
        #expect(unseen["history"] == .array([.string("cmpPage/reReport")]))
        // Saves 3 s after its UI came up: the page was presented by then.
        let seen = try await prewarm(autosaveAfter: 3000)
        #expect(seen["error"] == nil)
        #expect(seen["loadsAfterPresent"] == .number(1))
        #expect(seen["keys"]?["IABTCF_TCString"] == .string(Self.accept))
        #expect(seen["history"] == .array([.string("cmpPage/userChoice")]))
    }
}

/// Real CMPs replace the IAB stub late, and some answer that GDPR does not apply.
@Suite(.serialized, .needsDisplay) struct StubReplacementEndToEndTests {
    typealias E2E = EndToEndTests
    static var tcfPage: String { LifecycleEndToEndTests.tcfPage }

    /// The CMP replaces the stub without replaying the listener the forwarder added to the stub: the forwarder sees
    /// the new function, registers again, and the user's choice is stored.
    @Test func aStubReplacedWithoutReplayingItsQueueIsReadyAndSaves() async throws {
        let run = try await E2E.run([Self.tcfPage + "?drain=0", "--click", "accept-all"])
        #expect(run.errorCodes == [])
        #expect(run.events("uiReady").first?["dialect"] == .string("tcf"))
        #expect(run.keys["IABTCF_TCString"] == .string(LifecycleEndToEndTests.accept))
        #expect(run.events("uiFinished").first?["reason"] == .string("consentSaved"))
        #expect(run.events("consentReady").count == 1)
    }

    /// TCData `gdprApplies: false` with an empty TC string: ready, stored as "GDPR does not apply", and the UI ends.
    @Test func gdprDoesNotApplyIsStoredAsNotApplying() async throws {
        let run = try await E2E.run([Self.tcfPage + "?gdpr=0", "--timeout", "10"])
        #expect(run.errorCodes == [])
        #expect(run.keys["IABTCF_gdprApplies"] == .number(0))
        #expect(run.keys["IABTCF_TCString"] == nil)
        #expect(run.keys["IABTCF_CmpSdkID"] == .number(300))
        #expect(run.events("uiFinished").first?["reason"] == .string("consentSaved"))
    }
}
