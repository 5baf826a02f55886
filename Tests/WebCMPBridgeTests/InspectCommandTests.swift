import Foundation
import Testing
@testable import WebCMPBridge

/// Runs the built `webcmp` executable (next to the test bundle in `.build/<config>/`).
struct WebCMPProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: URL {
        Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("webcmp")
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// The `--json` output parsed as one JSON object.
    static func jsonObject(_ result: Result) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any])
    }
}

@Suite struct InspectCommandTests {
    @Test func executableIsBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: WebCMPProcess.executable.path))
    }

    @Test func jsonWithoutTCStringHasOnlyTheGivenKeys() throws {
        let result = try WebCMPProcess.run(["inspect", "--json", "--usp", "1YN-"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let object = try WebCMPProcess.jsonObject(result)
        #expect(object.count == 1)
        #expect(object["IABUSPrivacy_String"] as? String == "1YN-")
    }

    @Test(arguments: [
        (["inspect", "--usp", "2YNN"], "US Privacy"),
        (["inspect", "--json", "--bogus", "x"], "--bogus"),
        (["inspect", "--json"], "missing TC string"),
        (["inspect", "--json", "--gdpr-applies", "2", "--usp", "1YNN"], "--gdpr-applies"),
        (["inspect", "--json", "--cmp-sdk-id", "-4", "--usp", "1YNN"], "--cmp-sdk-id"),
        (["inspect", "--json", "--cmp-sdk-id"], "needs a value"),
        (["inspect", "--json", "A", "B"], "one TC string"),
        (["frobnicate"], "unknown command"),
        ([], "missing command"),
    ])
    func badInputIsOneLineOnStderrAndExitTwo(_ arguments: [String], _ mention: String) throws {
        let result = try WebCMPProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(mention))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(result.stderr.hasSuffix("\n"))
    }

    @Test func helpPrintsUsage() throws {
        let result = try WebCMPProcess.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("webcmp inspect"))
        #expect(result.stdout.contains("webcmp bench"))
        let inspectHelp = try WebCMPProcess.run(["inspect", "--help"])
        #expect(inspectHelp.status == 0)
        #expect(inspectHelp.stdout == result.stdout)
    }

    @Test func readableOutputListsKeys() throws {
        let result = try WebCMPProcess.run(["inspect", "--usp", "1NNN"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("IABUSPrivacy_String = \"1NNN\""))
    }
}
