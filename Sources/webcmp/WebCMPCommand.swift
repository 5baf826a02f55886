import Foundation
import WebCMPBridge

/// The `webcmp` command: dispatches to `inspect` and `bench`.
enum WebCMPCommand {
    static let usage = """
        webcmp: inspect TC strings and the IAB in-app keys WebCMPBridge writes.

        USAGE:
          webcmp inspect [--json] [--gdpr-applies 0|1] [--cmp-sdk-id N] [--cmp-sdk-version N]
                         [--ac AC] [--gpp GPP] [--gpp-sid ID_ID] [--usp USP]
                         [--missing-disclosed-vendors warn|refuse] [TCSTRING]
          webcmp bench [--iterations N] [--reference FILE] [--mapping-only N [--sample NAME]]
          webcmp bench --reference-samples
          webcmp --help

        inspect  Decodes TCSTRING (and the AC, GPP and US Privacy strings) and prints the decoded fields and the
                 exact UserDefaults keys the kit would write. With --json, stdout is one JSON object whose members
                 are exactly those keys (numbers as JSON numbers, strings as JSON strings, sorted keys).
                 Without TCSTRING but with --gpp, only the GPP keys (and IABUSPrivacy_String) are written.
                 --gpp-sid gives the GPP applicable sections (IABGPP_GppSID), e.g. 2 or 7_8.
                 Warnings (e.g. a TC string created on or after 2026-02-28 without the DisclosedVendors segment
                 that TCF 2.3 requires) go to stderr as "webcmp: warning: ..." lines; the exit status stays 0.
                 --missing-disclosed-vendors refuse refuses such a string, as a bridge configured so would.
                 Bad input: one line on stderr, nothing on stdout, exit status 2.
        bench    Measures decode and decode + key mapping of ~1,000-vendor strings against a minimal byte-loop
                 base64url decode, strings of 334, 457, 1,444 and 2,476 characters against the IAB reference
                 decoder (--reference FILE: its figures from scripts/bench-reference; without it an estimate,
                 said so), the parse of a save message body, and the launch-time reads with UserDefaults; each
                 figure with its target and PASS or FAIL.
                 Run it as: swift run -c release webcmp bench
                 --reference-samples prints the reference strings, one JSON object a line.
                 --mapping-only N runs only N decode + key mappings of each string (heap allocations per call:
                 scripts/bench --allocations); --sample picks one string: bitfield, range, short, mid, wide or
                 long.

        """

    /// Where the usage is, for messages about unknown options.
    static let help = "webcmp --help"

    /// Runs the command and returns the process exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            printError("missing command (inspect or bench); see webcmp --help")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--help", "-h", "help":
            print(usage, terminator: "")
            return 0
        case "inspect":
            return Inspect.run(rest)
        case "bench":
            return Bench.run(rest)
        default:
            printError("unknown command \(describe(command)); expected inspect or bench (see webcmp --help)")
            return 2
        }
    }

    /// Writes `webcmp: message` as one line to stderr.
    static func printError(_ message: String) {
        // One line, and no control characters from untrusted input reach the terminal.
        var text = ""
        for scalar in message.unicodeScalars {
            text += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }
        let line = "webcmp: " + text + "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// A quoted rendering of untrusted input for messages, by the package's one policy for untrusted text
    /// (`UntrustedText.quoted`: controls, bidi and zero-width characters visible as `\u{XXXX}`), at most `limit`
    /// Unicode scalars.
    static func describe(_ value: String, limit: Int = 64) -> String {
        UntrustedText.quoted(value, maximumScalars: limit)
    }
}
