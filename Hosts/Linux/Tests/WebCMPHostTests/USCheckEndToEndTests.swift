import Foundation
import Testing

/// `webcmp-host check` on US-only CMPs (`Pages/us-cmps.html`: a GPP-only CMP with `__uspapi`, one that drops the
/// user's opt-out on the return visit, and a US Privacy-only CMP) and on SampleHost's US mode, in real WebKit: every
/// row compares something the page reported, or is not checked; none passes on nothing.
@Suite(.serialized, .needsDisplay) struct USCheckEndToEndTests {
    typealias E2E = EndToEndTests

    static func page(_ query: String) -> String { E2E.servers.0 + "/\(E2E.pages)/us-cmps.html?" + query }

    /// The rows of a `check` report: name (padding and detail included) by mark.
    static func rows(_ report: String) -> [(mark: String, text: String)] {
        report.split(separator: "\n").compactMap { line in
            let line = String(line)
            guard line.count > 8, ["  PASS  ", "  FAIL  ", "  ----  "].contains(String(line.prefix(8))) else { return nil }
            return (String(line.dropFirst(2).prefix(4)), String(line.dropFirst(8)))
        }
    }

    /// The mark of the row whose name starts with `name`, and its text.
    static func row(_ report: String, _ name: String) -> (mark: String, text: String)? {
        rows(report).first { $0.text.hasPrefix(name) }
    }

    /// The marks of the GPP-only CMP's rows: the TCF rows are not checked (no `__tcfapi`, no TC string), the GPP and
    /// US Privacy strings it reports on the return visit are compared with the stored ones.
    static let gppOnlyMarks: [String: String] = [
        "ready message within": "PASS",
        "messages valid": "PASS",
        "save produces a decodable TC string": "----",
        "TCF 2.3: disclosed vendors present": "----",
        "__tcfapi answers ping": "----",
        "__gpp answers ping": "PASS",
        "__uspapi answers getUSPData": "----",
        "page reports gdprApplies": "----",
        "GPP-only consent captured": "PASS",
        "accepts the injected record": "PASS",
        "privacy settings on demand": "PASS",
        "IAB keys written": "PASS",
    ]

    @Test func checkComparesTheGPPAndUSPrivacyStringsAGPPOnlyCMPReportsOnItsReturnVisit() async throws {
        let (status, report) = try await E2E.host(["check", Self.page("api=gpp"), "--click", "opt-out", "--timeout", "5"])
        let rows = Self.rows(report)
        #expect(rows.count == Self.gppOnlyMarks.count, "\(report)")
        for (name, mark) in Self.gppOnlyMarks {
            #expect(Self.row(report, name)?.mark == mark, "\(name)\n\(report)")
        }
        #expect(Self.row(report, "accepts the injected record")?.text.hasSuffix("restored the stored GPP string, US Privacy string") == true,
                "\(report)")
        #expect(Self.row(report, "__uspapi answers getUSPData")?.text.hasSuffix("uspString \"1YYN\"") == true, "\(report)")
        #expect(status == 0, "\(report)")
    }

    @Test func checkFailsAGPPOnlyCMPThatDropsTheUsersOptOutOnTheReturnVisit() async throws {
        let (status, report) = try await E2E.host(["check", Self.page("api=gpp&drop=1"), "--click", "opt-out", "--timeout", "5"])
        let injected = Self.row(report, "accepts the injected record")
        #expect(injected?.mark == "FAIL", "\(report)")
        #expect(injected?.text.contains("GPP string: the page reports \"DBABLA~CAAAAAAAAABA.QA\", stored \"DBABLA~CVVVkkkkkpFY.YA\"") == true,
                "\(report)")
        #expect(injected?.text.contains("US Privacy string: the page reports \"1YNN\", stored \"1YYN\"") == true, "\(report)")
        // Every other row is as for the CMP that keeps the choice.
        for (name, mark) in Self.gppOnlyMarks where name != "accepts the injected record" {
            #expect(Self.row(report, name)?.mark == mark, "\(name)\n\(report)")
        }
        #expect(report.contains("Result: does not conform"), "\(report)")
        #expect(status == 1, "\(report)")
    }

    /// A CMP with `__uspapi` alone: the generic dialect never takes US Privacy as consent on its own, so the bridge
    /// gets no ready message and no save. Every row fails or is not checked; none passes on nothing. (The kit cannot
    /// take consent from such a CMP; `check` says so at "ready".)
    @Test func checkOnAUSPrivacyOnlyCMPPassesNoRowOnNothing() async throws {
        let (status, report) = try await E2E.host(["check", Self.page("api=usp"), "--click", "opt-out", "--timeout", "3"])
        let rows = Self.rows(report)
        #expect(!rows.isEmpty, "\(report)")
        #expect(rows.filter { $0.mark == "PASS" }.map(\.text) == [], "\(report)")
        #expect(Self.row(report, "ready message within")?.mark == "FAIL", "\(report)")
        // The bridge's ready timeout is the run's error.
        #expect(Self.row(report, "messages valid")?.mark == "FAIL", "\(report)")
        #expect(Self.row(report, "messages valid")?.text.hasSuffix("timeout") == true, "\(report)")
        #expect(Self.row(report, "__tcfapi answers ping")?.mark == "FAIL", "\(report)")
        #expect(Self.row(report, "__gpp answers ping")?.mark == "----", "\(report)")
        #expect(Self.row(report, "__uspapi answers getUSPData")?.text.contains("uspString \"1") == true, "\(report)")
        #expect(Self.row(report, "IAB keys written")?.mark == "FAIL", "\(report)")
        // No save: no return visit and no settings run to judge.
        #expect(Self.row(report, "accepts the injected record") == nil, "\(report)")
        #expect(status == 1, "\(report)")
    }

    /// SampleHost's US mode keeps the choice in localStorage: the return visit reports the stored GPP and US Privacy
    /// strings.
    @Test func checkComparesTheStringsOfSampleHostsUSMode() async throws {
        let (status, report) = try await E2E.host(["check", E2E.sample + "?mode=us", "--click", "us-opt-out", "--click", "us-save",
                                             "--timeout", "5"])
        for (name, mark) in Self.gppOnlyMarks {
            #expect(Self.row(report, name)?.mark == mark, "\(name)\n\(report)")
        }
        #expect(Self.row(report, "accepts the injected record")?.text.hasSuffix("restored the stored GPP string, US Privacy string") == true,
                "\(report)")
        #expect(status == 0, "\(report)")
    }
}
