import Foundation
import Testing
import WebCMPBridge
import WebCMPToolSupport

/// Global Privacy Control in a content page in real WebKit (`webcmp-host share`): with the stored consent opted out
/// of sale/sharing, the loopback server receives `Sec-GPC: 1` on the document request and the first script of the
/// page and of its cross-origin iframe sees `navigator.globalPrivacyControl === true`; without an opt-out, or with
/// `--gpc never`, neither.
@Suite(.serialized, .needsDisplay) struct GPCEndToEndTests {
    typealias E2E = EndToEndTests

    /// The echo page on the first server with the echo page of the second server (another origin: localhost and
    /// another port) as its iframe.
    static var page: String {
        let frame = E2E.servers.1.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/gpc-echo"
        let encoded = frame.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? frame
        return E2E.servers.0 + "/gpc-echo?frame=" + encoded
    }

    static func share(state: String, _ extra: [String] = []) async throws -> JSONValue {
        let (status, stdout) = try await E2E.host(["share", Self.page, "--state", state, "--eval", "window.__gpcReport",
                                             "--eval", "window.__gpcFrame", "--json"] + extra)
        #expect(status == 0, "\(stdout)")
        return try E2E.json(stdout)
    }

    /// A state whose consent the US-mode sample page stored: opted out (`1YYN`, usnat SaleOptOut = 1) or not.
    static func usState(optedOut: Bool) async throws -> String {
        let state = E2E.newState()
        let clicks = optedOut ? ["--click", "us-opt-out", "--click", "us-save"] : ["--click", "us-accept"]
        let run = try await E2E.run([E2E.sample + "?mode=us", "--state", state] + clicks)
        #expect(run.keys["IABUSPrivacy_String"] == .string(optedOut ? "1YYN" : "1YNN"))
        return state
    }

    @Test func anOptedOutUserSendsGPCToThePageAndItsCrossOriginFrame() async throws {
        let output = try await Self.share(state: try Self.usState(optedOut: true))
        #expect(output["globalPrivacyControl"] == .object([
            "setting": .string("automatic"), "enabled": .bool(true),
            "requestHeaders": .object(["Sec-GPC": .string("1")]),
        ]))
        let evaluated = try #require(output["eval"]?.arrayValue)
        try #require(evaluated.count == 2)
        // The server received the header on the document request; the page's first script saw the property.
        #expect(evaluated[0] == .object(["secGPC": .string("1"), "navigatorGPC": .bool(true), "accessor": .bool(true)]))
        // The cross-origin iframe's first script sees it too. Its request carries no header: WebKit has no way to
        // add one to the requests of a page's frames (only to the document request the app starts).
        #expect(evaluated[1] == .object(["secGPC": .null, "navigatorGPC": .bool(true), "accessor": .bool(true)]))
        #expect(output["navigatorGPC"] == .bool(true))
    }

    @Test func aUserWhoDidNotOptOutSendsNothingUnlessTheAppSaysSo() async throws {
        let state = try await Self.usState(optedOut: false)
        let output = try await Self.share(state: state)
        #expect(output["globalPrivacyControl"]?["enabled"] == .bool(false))
        #expect(output["eval"] == .array([
            .object(["secGPC": .null, "navigatorGPC": .string("absent"), "accessor": .bool(false)]),
            .object(["secGPC": .null, "navigatorGPC": .string("absent"), "accessor": .bool(false)]),
        ]))
        #expect(output["navigatorGPC"] == .string("absent"))

        // The app's override: always on.
        let always = try await Self.share(state: state, ["--gpc", "always"])
        let evaluated = try #require(always["eval"]?.arrayValue)
        try #require(evaluated.count == 2)
        #expect(evaluated[0] == .object(["secGPC": .string("1"), "navigatorGPC": .bool(true), "accessor": .bool(true)]))
        #expect(evaluated[1]["navigatorGPC"] == .bool(true))
    }

    @Test func theAppCanSwitchItOffForAnOptedOutUser() async throws {
        let output = try await Self.share(state: try Self.usState(optedOut: true), ["--gpc", "never"])
        #expect(output["globalPrivacyControl"]?["setting"] == .string("never"))
        #expect(output["eval"] == .array([
            .object(["secGPC": .null, "navigatorGPC": .string("absent"), "accessor": .bool(false)]),
            .object(["secGPC": .null, "navigatorGPC": .string("absent"), "accessor": .bool(false)]),
        ]))
    }
}
