import Foundation
import Testing
import WebCMPBridge

/// The bench and soak commands run end to end (shape and completion only; timings are not asserted).
@Suite(.serialized) struct MeasureTests {
    @Test func soakAndBenchComplete() throws {
        let page = EndToEndTests.repository.appendingPathComponent("SampleHost/index.html").absoluteString + "?dialect=gravito"
        let (soakStatus, soakOutput) = try EndToEndTests.host(["soak", page, "--saves", "300", "--cycles", "5", "--json"])
        #expect(soakStatus == 0)
        let soak = try JSONValue(parsing: soakOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(soak["saves"] == .number(300))
        #expect(soak["errors"] == .array([]))
        #expect((soak["samples"]?.arrayValue?.count ?? 0) > 10)
        let (benchStatus, benchOutput) = try EndToEndTests.host(["bench", page, "--saves", "50", "--json"])
        #expect(benchStatus == 0)
        let bench = try JSONValue(parsing: benchOutput.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(bench["saves"] == .number(50))
        #expect(bench["errors"] == .array([]))
    }
}
