import Foundation
import Testing
import WebCMPBridge

/// Consent sharing into content pages in real WebKit (`webcmp-host share`): pages that run their own TCF (and GPP)
/// CMP adopt the seeded consent and show no banner; other origins get nothing; pages without a CMP get the
/// native-backed APIs; the cookie manager sets the cookies before the first request.
@Suite(.serialized) struct SharingEndToEndTests {
    typealias E2E = EndToEndTests

    static var page: String { E2E.servers.0 + "/" + E2E.pages }
    /// The second server under another host name: another origin, and another cookie host (cookies ignore ports).
    static var otherPage: String { E2E.servers.1.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/" + E2E.pages }

    static func share(_ arguments: [String]) throws -> JSONValue {
        let (status, stdout) = try E2E.host(["share"] + arguments + ["--json"])
        #expect(status == 0)
        return try JSONValue(parsing: stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                             limits: JSONLimits(maximumBytes: 16 << 20, maximumDepth: 64))
    }

    /// A state with accepted consent from the sample CMP page; returns (state, stored TC string).
    static func acceptedState() throws -> (String, String) {
        let state = E2E.newState()
        let run = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state, "--click", "accept-all"])
        return (state, try #require(run.keys["IABTCF_TCString"]?.stringValue))
    }

    @Test func pageCMPReadingACookieAdoptsTheSharedConsent() throws {
        let (state, stored) = try Self.acceptedState()
        let output = try Self.share([Self.page + "/cmp-cookie.html", "--state", state])
        // The page's own CMP (cmpId 999) answers, with the stored string, and showed no banner.
        #expect(output["tcData"]?["tcString"] == .string(stored))
        #expect(output["tcData"]?["cmpId"] == .number(999))
        #expect(output["tcData"]?["eventStatus"] == .string("tcloaded"))
        #expect(output["ui"]?["shown"] == .bool(false))
        #expect(output["ui"]?["displayStatus"] == .string("hidden"))
        #expect(output["nativeBacked"]?["tcfapi"] == .bool(false))
        #expect(output["storage"]?["cookie"]?["euconsent-v2"] == .string(stored))

        // Control: the same page without stored consent shows its banner and has no string.
        let empty = try Self.share([Self.page + "/cmp-cookie.html", "--state", E2E.newState(),
                                    "--eval", "!!document.getElementById('page-cmp-banner')"])
        #expect(empty["tcData"]?["tcString"] == .string(""))
        #expect(empty["ui"]?["shown"] == .bool(true))
        #expect(empty["ui"]?["eventStatus"] == .string("cmpuishown"))
        #expect(empty["eval"] == .array([.bool(true)]))
    }

    @Test func pageCMPReadingLocalStorageAdoptsTheSharedConsentAndGPP() throws {
        let state = E2E.newState()
        let hosted = try E2E.run([Self.page + "/gpp-host.html", "--dialect", "tcf", "--state", state, "--click", "accept"])
        let stored = try #require(hosted.keys["IABTCF_TCString"]?.stringValue)
        let gpp = try #require(hosted.keys["IABGPP_HDR_GppString"]?.stringValue)
        #expect(gpp.hasSuffix(stored))
        let output = try Self.share([Self.page + "/cmp-localstorage.html", "--state", state,
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

    @Test func aPageOnAnOriginNotListedGetsNothingWritten() throws {
        let (state, _) = try Self.acceptedState()
        let output = try Self.share([Self.otherPage + "/cmp-cookie.html", "--state", state,
                                     "--content-origin", E2E.servers.0, "--preset", "euconsent-v2",
                                     "--eval", "document.cookie", "--eval", "localStorage.length"])
        #expect(output["contentOrigins"] == .array([.string(E2E.servers.0)]))
        #expect(output["eval"] == .array([.string(""), .number(0)]))
        #expect(output["storage"] == .object(["cookie": .object([:]), "localStorage": .object([:])]))
        #expect(output["tcData"]?["tcString"] == .string(""))
        #expect(output["ui"]?["shown"] == .bool(true))
    }

    @Test func cookieManagerSetsTheCookieBeforeTheFirstRequest() throws {
        let (state, stored) = try Self.acceptedState()
        let output = try Self.share([E2E.servers.0 + "/echo-cookies", "--state", state,
                                     "--eval", "document.body.textContent"])
        #expect(output["cookiesSet"] == .number(1))
        #expect(output["eval"] == .array([.string("euconsent-v2=" + stored)]))
    }

    @Test func unknownPresetIsAUsageError() throws {
        let (status, _) = try E2E.host(["share", Self.page + "/content.html", "--state", E2E.newState(), "--preset", "nope"])
        #expect(status == 2)
        let (origin, _) = try E2E.host(["share", Self.page + "/content.html", "--state", E2E.newState(),
                                        "--content-origin", "news.example"])
        #expect(origin == 2)
    }
}
