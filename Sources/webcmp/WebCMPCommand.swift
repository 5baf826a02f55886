import Foundation

/// The `webcmp` command line: dispatches to `inspect` and `bench`.
enum WebCMPCommand {
    /// Exit code for bad input or usage.
    static let usageExitCode: Int32 = 2

    static let usage = """
        usage: webcmp inspect [--json] [--gdpr-applies 0|1] [--cmp-sdk-id N] [--cmp-sdk-version N]
                              [--ac AC] [--gpp GPP] [--gpp-sid ID_ID] [--usp USP] [TCSTRING]
               webcmp bench [--iterations N]
               webcmp --help

        inspect  Decodes a TC string (and AC / GPP / US Privacy strings) and prints the decoded fields and the exact
                 IAB in-app keys the kit would write to UserDefaults. --json prints one JSON object whose members
                 are exactly those keys and values (numbers as JSON numbers, strings as JSON strings, sorted keys).
                 Bad input: one line on stderr, nothing on stdout, exit status 2.
        bench    Measures TC string decode and decode + key mapping against a plain base64url decode, and the
                 launch-time "is consent stored?" read with real UserDefaults. Run it as
                 `swift run -c release webcmp bench`.
        """

    /// Runs the command line and returns the process exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var output = StandardOutput()
        return run(arguments, output: &output)
    }

    /// Runs the command line, writing through `output`.
    static func run(_ arguments: [String], output: inout some CommandOutput) -> Int32 {
        guard let command = arguments.first else {
            output.error("webcmp: missing command (inspect or bench); see webcmp --help")
            return usageExitCode
        }
        do {
            switch command {
            case "--help", "-h", "help":
                output.write(usage)
                return 0
            case "inspect":
                let options = try InspectOptions(parsing: arguments.dropFirst())
                if options.help { output.write(usage); return 0 }
                output.write(try InspectCommand.run(options))
                return 0
            case "bench":
                let options = try BenchOptions(parsing: arguments.dropFirst())
                if options.help { output.write(usage); return 0 }
                BenchCommand.run(options, output: &output)
                return 0
            default:
                throw CommandError("unknown command '\(command)'; see webcmp --help")
            }
        } catch {
            output.error("webcmp: " + String(describing: error))
            return usageExitCode
        }
    }
}

/// A usage or input error: one line for stderr.
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}

/// Where the command writes.
protocol CommandOutput {
    /// Writes one line (or block) to standard output.
    mutating func write(_ text: String)
    /// Writes one line to standard error.
    mutating func error(_ text: String)
}

/// The process's standard output and standard error.
struct StandardOutput: CommandOutput {
    mutating func write(_ text: String) { print(text) }

    mutating func error(_ text: String) {
        FileHandle.standardError.write(Data((text.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
    }
}

/// Parses `--name value` options by hand (the package has no dependencies).
struct ArgumentReader {
    private var arguments: ArraySlice<String>

    init(_ arguments: ArraySlice<String>) { self.arguments = arguments }

    /// The next argument, or `nil` at the end.
    mutating func next() -> String? { arguments.popFirst() }

    /// The value of option `name`.
    mutating func value(of name: String) throws(CommandError) -> String {
        guard let value = arguments.popFirst() else { throw CommandError("\(name) needs a value") }
        return value
    }

    /// The value of option `name` as an integer in `range`.
    mutating func integer(of name: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        let text = try value(of: name)
        guard let number = Int(text), range.contains(number) else {
            throw CommandError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }
}
