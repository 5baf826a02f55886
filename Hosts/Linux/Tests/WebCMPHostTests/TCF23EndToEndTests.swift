import Foundation
import Testing
import WebCMPBridge

/// TCF 2.3's DisclosedVendors segment in real WebKit: SampleHost writes TCF 2.3 strings (with the DisclosedVendors segment) and, with
/// `?tcf=2.2`, 2.2-style strings without it. `webcmp-host check` shows the row "TCF 2.3: disclosed vendors present"
/// (PASS, then FAIL with exit status 1), and `run` stores the 2.2-style consent with a diagnostic naming the rule.
@Suite(.serialized, .needsDisplay) struct TCF23EndToEndTests {
    typealias E2E = EndToEndTests
    static let rowName = "TCF 2.3: disclosed vendors present"

    @Test func checkPassesForTCF23StringsAndFailsForTwoPointTwoStyleStrings() async throws {
        let (status, report) = try await E2E.host(["check", E2E.sample + "?dialect=gravito", "--dialect", "gravito",
                                             "--click", "accept-all", "--timeout", "5"])
        let row = try #require(USModeEndToEndTests.row(report, Self.rowName), "\(report)")
        #expect(row.hasPrefix("  PASS"), "\(report)")
        #expect(row.contains("DisclosedVendors segment with 7 vendors"), "\(report)")
        #expect(status == 0, "\(report)")
        #expect(report.contains("Result: conforms"))

        let (oldStatus, oldReport) = try await E2E.host(["check", E2E.sample + "?dialect=gravito&tcf=2.2", "--dialect", "gravito",
                                                   "--click", "accept-all", "--timeout", "5"])
        let oldRow = try #require(USModeEndToEndTests.row(oldReport, Self.rowName), "\(oldReport)")
        #expect(oldRow.hasPrefix("  FAIL"), "\(oldReport)")
        #expect(oldRow.contains("TCF 2.3 requires it from 2026-02-28"), "\(oldReport)")
        #expect(oldStatus == 1, "\(oldReport)")
        #expect(oldReport.contains("Result: does not conform"))
        // Only this row fails: the consent was stored and the page otherwise conforms.
        let failures = oldReport.split(separator: "\n").filter { $0.hasPrefix("  FAIL") }
        #expect(failures.count == 1, "\(oldReport)")
        #expect(USModeEndToEndTests.row(oldReport, "IAB keys written")?.hasPrefix("  PASS") == true, "\(oldReport)")
    }

    /// `run` on the 2.2-style page: the consent is stored (no error), without `IABTCF_DisclosedVendors`, and a
    /// diagnostic event names the rule; the default page's consent has the key and no such diagnostic.
    @Test func runStoresTwoPointTwoStyleConsentWithADiagnostic() async throws {
        let old = try await E2E.run([E2E.sample + "?dialect=gravito&tcf=2.2", "--dialect", "gravito", "--click", "accept-all"])
        #expect(old.errorCodes == [])
        let stored = try #require(old.keys["IABTCF_TCString"]?.stringValue)
        #expect(!stored.contains("."))
        #expect(old.keys["IABTCF_DisclosedVendors"] == nil)
        #expect(E2E.ids(old.keys["IABTCF_VendorConsents"]) == [1, 2, 21, 28, 755, 1001, 1126])
        let diagnostics = old.events("diagnostic").compactMap { $0["message"]?.stringValue }
        #expect(diagnostics.filter { $0.contains("TCF 2.3 requires the DisclosedVendors segment") }.count == 1,
                "\(diagnostics)")

        let current = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--click", "accept-all"])
        #expect(current.errorCodes == [])
        #expect(E2E.ids(current.keys["IABTCF_DisclosedVendors"]) == [1, 2, 21, 28, 755, 1001, 1126])
        #expect(!current.events("diagnostic").contains { $0["message"]?.stringValue?.contains("DisclosedVendors") == true })
    }
}
