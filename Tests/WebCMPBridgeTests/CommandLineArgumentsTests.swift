import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge
@testable import WebCMPToolSupport

/// The one command-line parser of `webcmp` and `webcmp-host`: options among positional arguments, both value forms,
/// repeatable options, and one-line usage errors that quote what the command line said.
@Suite struct CommandLineArgumentsTests {
    /// Parses `arguments` with the options of a small tool.
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
        try CommandLineArguments(
            arguments, valueOptions: ["--state", "--timeout", "--count"], repeatableOptions: ["--click"],
            flagOptions: ["--json", "-h"], help: "tool --help")
    }

    /// The message of the usage error parsing `arguments` throws, if any.
    static func failure(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func optionsStandAmongPositionalArguments() throws {
        let parsed = try Self.parse(["run", "--json", "https://a.example", "--state=/tmp/s", "--click", "a", "--click", "b"])
        #expect(parsed.positional == ["run", "https://a.example"])
        #expect(parsed.has("--json"))
        #expect(!parsed.has("-h"))
        #expect(parsed["--state"] == "/tmp/s")
        #expect(parsed.all("--click") == ["a", "b"])
        #expect(parsed["--click"] == "b")
        #expect(parsed["--timeout"] == nil)
        #expect(parsed.all("--timeout") == [])
    }

    @Test func aDoubleDashEndsTheOptionsAndADeclaredShortFlagIsOne() throws {
        let parsed = try Self.parse(["-h", "--", "--json", "-x"])
        #expect(parsed.has("-h"))
        #expect(!parsed.has("--json"))
        #expect(parsed.positional == ["--json", "-x"])
        #expect(try Self.parse(["-x"]).positional == ["-x"])
        // A value may start with dashes.
        #expect(try Self.parse(["--state", "--json"])["--state"] == "--json")
    }

    @Test func numbersAreCheckedAgainstTheirRange() throws {
        let parsed = try Self.parse(["--timeout", "2.5", "--count", "7"])
        #expect(try parsed.seconds("--timeout", in: 0...600) == 2.5)
        #expect(try parsed.integer("--count", in: 1...10) == 7)
        #expect(try parsed.integer("--count") == 7)
        #expect(try parsed.integer("--state") == nil)
        #expect(throws: UsageError.self) { try parsed.integer("--count", in: 8...10) }
        #expect(throws: UsageError.self) { try parsed.integer("--timeout") }
        for bad in ["nan", "inf", "-1", "601", "x"] {
            #expect(throws: UsageError.self) { try Self.parse(["--timeout", bad]).seconds("--timeout", in: 0...600) }
        }
        do {
            _ = try Self.parse(["--count", "0"]).integer("--count", in: 1...10)
            Issue.record("no error")
        } catch {
            #expect(error.message == #"option --count needs an integer from 1 to 10, not "0""#)
        }
    }

    @Test(arguments: [
        (["--state", "a", "--state", "b"], "option --state given twice"),
        (["--state"], "option --state needs a value"),
        (["--json=1"], "option --json takes no value"),
        (["--bogus\u{202E}x"], #"unknown option "--bogus\u{202E}x" (see tool --help)"#),
    ])
    func usageErrorsAreOneQuotedLine(arguments: [String], message: String) {
        #expect(Self.failure(arguments) == message)
    }
}
