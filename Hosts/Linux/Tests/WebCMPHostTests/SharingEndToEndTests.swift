import Foundation
import Testing
import WebCMPBridge
import WebCMPToolSupport

/// Consent sharing into content pages in real WebKit (`webcmp-host share`): pages that run their own TCF (and GPP)
/// CMP adopt the seeded consent and show no banner; other origins get nothing; pages without a CMP get the
/// native-backed APIs, in the main frame, and their iframes reach them through the locator frames; the cookie manager
/// sets the cookies before the first request.
@Suite(.serialized, .needsDisplay) struct SharingEndToEndTests {
    typealias E2E = EndToEndTests

    static var page: String { E2E.servers.0 + "/" + E2E.pages }
    /// The second server under another host name: another origin, and another cookie host (cookies ignore ports).
    static var otherPage: String { E2E.servers.1.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/" + E2E.pages }

    /// A content page without a CMP that embeds `ad-frame.html` from the other origin.
    static var adFramePage: String {
        let frame = otherPage + "/ad-frame.html"
        return page + "/content-with-ad-frame.html?frame=" + frame.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }
    /// How many frames named `__tcfapiLocator`, `__gppLocator` and `__uspapiLocator` the top document has.
    static let locatorCounts =
        "['__tcfapiLocator', '__gppLocator', '__uspapiLocator'].map(function (n) { return document.getElementsByName(n).length; })"

    static func share(_ arguments: [String]) async throws -> JSONValue {
        let (status, stdout) = try await E2E.host(["share"] + arguments + ["--json"])
        #expect(status == 0)
        return try E2E.json(stdout)
    }

    /// A state with accepted consent from the sample CMP page; returns (state, stored TC string).
    static func acceptedState() async throws -> (String, String) {
        let state = E2E.newState()
        let run = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state, "--click", "accept-all"])
        return (state, try #require(run.keys["IABTCF_TCString"]?.stringValue))
    }

    @Test func pageCMPReadingACookieAdoptsTheSharedConsent() async throws {
        let (state, stored) = try await Self.acceptedState()
        let output = try await Self.share([Self.page + "/cmp-cookie.html", "--state", state])
        // The page's own CMP (cmpId 999) answers, with the stored string, and showed no banner.
        #expect(output["tcData"]?["tcString"] == .string(stored))
        #expect(output["tcData"]?["cmpId"] == .number(999))
        #expect(output["tcData"]?["eventStatus"] == .string("tcloaded"))
        #expect(output["ui"]?["shown"] == .bool(false))
        #expect(output["ui"]?["displayStatus"] == .string("hidden"))
        #expect(output["nativeBacked"]?["tcfapi"] == .bool(false))
        #expect(output["storage"]?["cookie"]?["euconsent-v2"] == .string(stored))

        // Control: the same page without stored consent shows its banner and has no string.
        let empty = try await Self.share([Self.page + "/cmp-cookie.html", "--state", E2E.newState(),
                                    "--eval", "!!document.getElementById('page-cmp-banner')"])
        #expect(empty["tcData"]?["tcString"] == .string(""))
        #expect(empty["ui"]?["shown"] == .bool(true))
        #expect(empty["ui"]?["eventStatus"] == .string("cmpuishown"))
        #expect(empty["eval"] == .array([.bool(true)]))
    }

    @Test func pageCMPReadingLocalStorageAdoptsTheSharedConsentAndGPP() async throws {
        let state = E2E.newState()
        let hosted = try await E2E.run([Self.page + "/gpp-host.html", "--dialect", "tcf", "--state", state, "--click", "accept"])
        let stored = try #require(hosted.keys["IABTCF_TCString"]?.stringValue)
        let gpp = try #require(hosted.keys["IABGPP_HDR_GppString"]?.stringValue)
        #expect(gpp.hasSuffix(stored))
        let output = try await Self.share([Self.page + "/cmp-localstorage.html", "--state", state,
                                     "--preset", "euconsent-v2", "--seed", "localStorage:gpp-string:gppString",
                                     "--eval", "!!document.getElementById('page-cmp-banner')"])
        #expect(output["tcData"]?["tcString"] == .string(stored))
        #expect(output["tcData"]?["cmpId"] == .number(999))
        #expect(output["ui"]?["shown"] == .bool(false))
        #expect(output["eval"] == .array([.bool(false)]))
        #expect(output["storage"]?["localStorage"]?["euconsent-v2"] == .string(stored))
        // The page's own GPP CMP reads the seeded GPP string.
        #expect(output["gpp"]?["gppString"] == .string(gpp))
        #expect(output["gpp"]?["cmpId"] == .number(999))
        #expect(output["gpp"]?["cmpDisplayStatus"] == .string("hidden"))
        #expect(output["nativeBacked"] == .object(["tcfapi": .bool(false), "gpp": .bool(false)]))
    }

    @Test func aPageOnAnOriginNotListedGetsNothingWritten() async throws {
        let (state, _) = try await Self.acceptedState()
        let output = try await Self.share([Self.otherPage + "/cmp-cookie.html", "--state", state,
                                     "--content-origin", E2E.servers.0, "--preset", "euconsent-v2",
                                     "--eval", "document.cookie", "--eval", "localStorage.length"])
        #expect(output["contentOrigins"] == .array([.string(E2E.servers.0)]))
        #expect(output["eval"] == .array([.string(""), .number(0)]))
        #expect(output["storage"] == .object(["cookie": .object([:]), "localStorage": .object([:])]))
        #expect(output["tcData"]?["tcString"] == .string(""))
        #expect(output["ui"]?["shown"] == .bool(true))
    }

    @Test func cookieManagerSetsTheCookieBeforeTheFirstRequest() async throws {
        let (state, stored) = try await Self.acceptedState()
        let output = try await Self.share([E2E.servers.0 + "/echo-cookies", "--state", state,
                                     "--eval", "document.body.textContent"])
        #expect(output["cookiesSet"] == .number(1))
        #expect(output["eval"] == .array([.string("euconsent-v2=" + stored)]))
    }

    /// A content page without a CMP embeds an ad frame of another origin. The native-backed APIs live in the main frame
    /// only: the frame has no `__tcfapi` of its own, finds the `__tcfapiLocator` frame in the top window and gets the
    /// stored consent through `postMessage` (TCF CMP API v2.2, "How can vendors that use iframes call the CMP API from
    /// an iframe?"); when the app hands the page a new consent (`--update-from`, the update script in the main frame),
    /// the frame's listener gets it, with the same callId.
    @Test func crossOriginAdFrameGetsTheConsentThroughTheLocatorFrameAndItsUpdates() async throws {
        let (state, stored) = try await Self.acceptedState()
        let changed = E2E.newState()
        let rejected = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", changed,
                                    "--click", "reject-all"])
        let newString = try #require(rejected.keys["IABTCF_TCString"]?.stringValue)
        #expect(newString != stored)
        let frameOrigin = E2E.servers.1.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        let output = try await Self.share([
            Self.adFramePage, "--state", state, "--update-from", changed, "--eval", "window.__frameReports",
            "--eval", Self.locatorCounts,
        ])
        let evaluated = try #require(output["eval"]?.arrayValue)
        let reports = try #require(evaluated.first?.arrayValue)
        // The frame started with no API of its own and found the locators in the top window.
        let start = try #require(reports.first { $0["type"] == .string("start") })
        #expect(start["origin"] == .string(frameOrigin))
        #expect(start["ownTcfapi"] == .string("undefined"))
        #expect(start["ownGpp"] == .string("undefined"))
        #expect(start["ownUspapi"] == .string("undefined"))
        #expect(start["ownSharing"] == .string("undefined"))
        // The stored consent has a TC string only (Gravito's sample): the __tcfapi locator, and none for __gpp and
        // __uspapi, which have nothing to tell a frame.
        #expect(start["tcfapiLocator"] == .string("top"))
        #expect(start["gppLocator"] == .string("none"))
        #expect(start["uspapiLocator"] == .string("none"))
        #expect(evaluated.last == .array([.number(1), .number(0), .number(0)]))

        let answers = reports.filter { $0["type"] == .string("answer") }
        func answered(_ callId: String) -> [JSONValue] { answers.filter { $0["callId"] == .string(callId) } }
        #expect(answers.allSatisfy { $0["fromTop"] == .bool(true) })
        let get = answered("get")
        #expect(get.count == 1)
        #expect(get.first?["tcString"] == .string(stored))
        #expect(get.first?["success"] == .bool(true))
        #expect(get.first?["eventStatus"] == .string("tcloaded"))
        #expect(get.first?["text"] == .bool(false))
        // The listener: the stored consent, then the new one after the update, same callId and listenerId.
        let listen = answered("listen")
        #expect(listen.count == 2, "\(reports)")
        guard listen.count == 2 else { return }
        #expect(listen[0]["tcString"] == .string(stored))
        #expect(listen[0]["eventStatus"] == .string("tcloaded"))
        #expect(listen[1]["tcString"] == .string(newString))
        #expect(listen[1]["eventStatus"] == .string("useractioncomplete"))
        #expect(listen[0]["listenerId"] != .null)
        #expect(listen[0]["listenerId"] == listen[1]["listenerId"])
        // A request sent as JSON text is answered as text.
        let ping = answered("ping-text")
        #expect(ping.count == 1)
        #expect(ping.first?["text"] == .bool(true))
        #expect(ping.first?["cmpLoaded"] == .bool(true))
        // The main frame itself answers with the new consent too.
        #expect(output["nativeBacked"]?["tcfapi"] == .bool(true))
        #expect(output["tcData"]?["tcString"] == .string(newString))
    }

    /// The page showed its frame with a TC string only stored (one locator); the app then hands it a US consent (a
    /// GPP and a US Privacy string, from the US-mode sample): the update adds `__gppLocator` and `__uspapiLocator`,
    /// one each, in real WebKit.
    @Test func anUpdateThatBringsAGPPAndAUSPrivacyStringAddsTheirLocatorFrames() async throws {
        let (state, _) = try await Self.acceptedState()
        let us = try await GPCEndToEndTests.usState(optedOut: true)
        let output = try await Self.share([
            Self.adFramePage, "--state", state, "--update-from", us,
            "--eval", Self.locatorCounts,
            "--eval", "(function () { var r; window.__uspapi('getUSPData', 1, function (d, ok) { r = [d && d.uspString, ok]; }); return r; })()",
        ])
        let evaluated = try #require(output["eval"]?.arrayValue)
        #expect(evaluated.first == .array([.number(1), .number(1), .number(1)]), "\(output)")
        #expect(evaluated.last == .array([.string("1YYN"), .bool(true)]))
    }

    @Test func updateFromAMissingStateIsAUsageError() async throws {
        let (status, _) = try await E2E.host(["share", Self.page + "/content.html", "--state", E2E.newState(),
                                        "--update-from", E2E.newState()])
        #expect(status == 2)
    }

    @Test func unknownPresetIsAUsageError() async throws {
        let (status, _) = try await E2E.host(["share", Self.page + "/content.html", "--state", E2E.newState(), "--preset", "nope"])
        #expect(status == 2)
        let (origin, _) = try await E2E.host(["share", Self.page + "/content.html", "--state", E2E.newState(),
                                        "--content-origin", "news.example"])
        #expect(origin == 2)
    }
}
