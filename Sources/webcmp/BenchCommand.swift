import Foundation
import WebCMPBridge

/// Options of `webcmp bench`.
struct BenchOptions {
    var iterations = 2_000
    var help = false

    init(parsing arguments: ArraySlice<String>) throws(CommandError) {
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--iterations": iterations = try reader.integer(of: argument, in: 1...10_000_000)
            case "--help": help = true
            default: throw CommandError("unknown bench argument '\(argument)'; see webcmp --help")
            }
        }
    }
}

/// `webcmp bench`. (Waiting for the codec's encoder and base64url decoder.)
enum BenchCommand {
    static func run(_ options: BenchOptions, output: inout some CommandOutput) {
        output.write("webcmp bench: not available yet")
    }
}
