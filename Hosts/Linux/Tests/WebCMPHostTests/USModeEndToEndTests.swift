import Foundation
import Testing
import WebCMPBridge

/// SampleHost's US/GPP mode (`?mode=us`: a GPP-only US CMP with `__gpp` and `__uspapi`, no `__tcfapi`, the GPP string
/// encoded in the page), the `check` rows about a user's lifetime, and the native-backed `__uspapi` of a content page,
/// in real WebKit through `webcmp-host`.
@Suite(.serialized, .needsDisplay) struct USModeEndToEndTests {
    typealias E2E = EndToEndTests
    static var usPage: String { E2E.sample + "?mode=us" }

    /// The row of a `check` report whose name starts with `name`.
    static func row(_ report: String, _ name: String) -> String? {
        report.split(separator: "\n").map(String.init).first { $0.dropFirst(8).hasPrefix(name) }
    }

    /// Without a configured dialect: ready through `__gpp`, the opt-out stored as GPP-only consent (header, usnat
    /// string, per-field keys), US Privacy from the page's `__uspapi`, no TCF key; the UI ends when the CMP hides it.
    @Test func sampleHostUSModeStoresGPPOnlyConsent() async throws {
        let run = try await E2E.run([Self.usPage, "--click", "us-opt-out", "--click", "us-save"])
        #expect(run.errorCodes == [])
        #expect(run.events("uiReady").first?["dialect"] == .string("tcf"))
        let gpp = try #require(run.keys["IABGPP_HDR_GppString"]?.stringValue)
        #expect(gpp.hasPrefix("DBABLA~"))
        #expect(run.keys["IABGPP_7_String"] == .string(String(gpp.dropFirst("DBABLA~".count))))
        #expect(run.keys["IABGPP_GppSID"] == .string("7"))
        #expect(run.keys["IABGPP_USNAT_SaleOptOut"] == .number(1))
        #expect(run.keys["IABGPP_USNAT_SharingOptOut"] == .number(1))
        #expect(run.keys["IABGPP_USNAT_Version"] == .number(2))
        #expect(run.keys["IABUSPrivacy_String"] == .string("1YYN"))
        #expect(run.keys.keys.filter { $0.hasPrefix("IABTCF_") } == [])
        #expect(run.events("uiFinished").first?["reason"] == .string("consentSaved"))

        // "Accept" (no opt-out): 2 = did not opt out.
        let accepted = try await E2E.run([Self.usPage, "--click", "us-accept"])
        #expect(accepted.errorCodes == [])
        #expect(accepted.keys["IABGPP_USNAT_SaleOptOut"] == .number(2))
        #expect(accepted.keys["IABUSPrivacy_String"] == .string("1YNN"))
    }

    /// `check` reports what the lifecycle issue asks for: on SampleHost (Gravito) settings on demand works and the
    /// page reports gdprApplies; on SampleHost's US mode GPP-only consent is captured.
    @Test func checkReportsSettingsGDPRAppliesAndGPPOnly() async throws {
        let (status, report) = try await E2E.host(["check", E2E.sample + "?dialect=gravito", "--dialect", "gravito",
                                             "--click", "accept-all", "--timeout", "5"])
        #expect(status == 0, "\(report)")
        #expect(Self.row(report, "privacy settings on demand")?.hasPrefix("  PASS") == true, "\(report)")
        #expect(Self.row(report, "page reports gdprApplies")?.hasSuffix("gdprApplies: true") == true, "\(report)")
        #expect(Self.row(report, "GPP-only consent captured")?.hasPrefix("  PASS") == false, "\(report)")

        let (usStatus, usReport) = try await E2E.host(["check", Self.usPage, "--click", "us-opt-out", "--click", "us-save",
                                                 "--timeout", "5"])
        #expect(Self.row(usReport, "GPP-only consent captured")?.hasPrefix("  PASS") == true, "\(usReport)")
        #expect(Self.row(usReport, "page reports gdprApplies")?.hasSuffix("not reported (the configured value is used)") == true,
                "\(usReport)")
        // A GPP-only CMP has no __tcfapi and no TC string: neither is a failure.
        #expect(Self.row(usReport, "__tcfapi answers ping")?.hasPrefix("  ----") == true, "\(usReport)")
        #expect(Self.row(usReport, "save produces a decodable TC string")?.hasSuffix("GPP-only save (no TC string)") == true,
                "\(usReport)")
        // A spec-conformant GPP CMP keeps `signalStatus: not ready` while its UI is shown ("Event Order Example 1"):
        // its `cmpDisplayStatus: visible` is what makes the reopened page ready in automatic detection.
        #expect(Self.row(usReport, "privacy settings on demand")?.hasPrefix("  PASS") == true, "\(usReport)")
        #expect(usStatus == 0, "\(usReport)")
    }

    /// A content page without a CMP gets the native-backed `__uspapi` with the stored US Privacy string; a page
    /// whose own CMP defines `__uspapi` answers itself.
    @Test func contentPageGetsTheNativeBackedUSPAPI() async throws {
        let state = E2E.newState()
        let hosted = try await E2E.run([Self.usPage, "--state", state, "--click", "us-opt-out", "--click", "us-save"])
        #expect(hosted.keys["IABUSPrivacy_String"] == .string("1YYN"))
        let probe = "new Promise(function (r) { __uspapi('getUSPData', 1, function (d, ok) { r([d, ok]); }); })"
        let (status, stdout) = try await E2E.host(["share", E2E.servers.0 + "/\(E2E.pages)/content.html", "--state", state,
                                             "--eval", probe, "--eval", "typeof __tcfapi", "--json"])
        #expect(status == 0)
        let output = try E2E.json(stdout)
        #expect(output["eval"] == .array([
            .array([.object(["version": .number(1), "uspString": .string("1YYN")]), .bool(true)]),
            .string("function"),
        ]))

        // Nothing stored: no uspData object (success false).
        let (_, emptyOut) = try await E2E.host(["share", E2E.servers.0 + "/\(E2E.pages)/content.html",
                                          "--state", E2E.newState(), "--eval", probe, "--json"])
        let empty = try E2E.json(emptyOut)
        #expect(empty["eval"] == .array([.array([.null, .bool(false)])]))

        // The page's own __uspapi (gpp-us-cmp.html answers "1---" before a choice) is the one that answers.
        let (_, ownOut) = try await E2E.host(["share", E2E.servers.0 + "/\(E2E.pages)/gpp-us-cmp.html", "--state", state,
                                        "--eval", probe, "--json"])
        let own = try E2E.json(ownOut)
        #expect(own["eval"] == .array([.array([.object(["version": .number(1), "uspString": .string("1---")]), .bool(true)])]))
    }
}
