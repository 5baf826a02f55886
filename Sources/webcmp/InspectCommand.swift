import Foundation
import WebCMPBridge

/// Options of `webcmp inspect`.
struct InspectOptions {
    var json = false
    var help = false
    var consent = InAppConsent()

    init(parsing arguments: ArraySlice<String>) throws(CommandError) {
        var reader = ArgumentReader(arguments)
        var positional: [String] = []
        var optionsEnded = false
        while let argument = reader.next() {
            if optionsEnded || !argument.hasPrefix("--") {
                positional.append(argument)
                continue
            }
            switch argument {
            case "--": optionsEnded = true
            case "--json": json = true
            case "--help": help = true
            case "--gdpr-applies": consent.gdprApplies = try reader.integer(of: argument, in: 0...1) == 1
            case "--cmp-sdk-id": consent.cmpSDKID = try reader.integer(of: argument, in: 0...Int(Int32.max))
            case "--cmp-sdk-version": consent.cmpSDKVersion = try reader.integer(of: argument, in: 0...Int(Int32.max))
            case "--ac": consent.additionalConsent = try reader.value(of: argument)
            case "--gpp": consent.gppString = try reader.value(of: argument)
            case "--gpp-sid": consent.gppApplicableSections = try Self.sectionIDs(try reader.value(of: argument))
            case "--usp": consent.usPrivacy = try reader.value(of: argument)
            default: throw CommandError("unknown option '\(argument)'; see webcmp --help")
            }
        }
        guard positional.count <= 1 else {
            throw CommandError("expected one TC string, got \(positional.count) arguments")
        }
        consent.tcString = positional.first
        if !help, consent.tcString == nil, consent.gppString == nil, consent.usPrivacy == nil {
            throw CommandError("missing TC string (or --gpp / --usp); see webcmp --help")
        }
    }

    private static func sectionIDs(_ text: String) throws(CommandError) -> [Int] {
        var ids: [Int] = []
        for part in text.split(separator: "_", omittingEmptySubsequences: false) {
            guard let id = Int(part) else { throw CommandError("--gpp-sid must be ids joined with '_', got '\(text)'") }
            ids.append(id)
        }
        return ids
    }
}

/// `webcmp inspect`: decoded fields and the exact keys the kit would write.
enum InspectCommand {
    /// The text to print, or a `CommandError`-like error for bad input.
    static func run(_ options: InspectOptions) throws -> String {
        let keys: IABKeySet
        let decoded: TCString?
        do {
            decoded = try options.consent.tcString.map { raw throws(TCStringError) in try TCString(decoding: raw) }
            keys = try IABKeySet(mapping: options.consent)
        } catch let error as TCStringError {
            throw CommandError("invalid TC string: \(error)")
        } catch {
            throw CommandError(String(describing: error))
        }
        if options.json { return json(keys) }
        var lines: [String] = []
        if let decoded, let raw = options.consent.tcString {
            lines += InspectReport.lines(for: decoded, raw: raw)
            lines.append("")
        }
        lines.append("IAB in-app keys (\(keys.values.count)):")
        for key in keys.values.keys.sorted() {
            guard let value = keys.values[key] else { continue }
            lines.append("  \(key.rawValue) = \(literal(value))")
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object: exactly the UserDefaults keys and values, sorted keys.
    static func json(_ keys: IABKeySet) -> String {
        var members: [String: JSONValue] = [:]
        for (key, value) in keys.values {
            members[key.rawValue] = jsonValue(value)
        }
        return JavaScriptLiteral.expression(.object(members))
    }

    private static func jsonValue(_ value: IABValue) -> JSONValue {
        switch value {
        case .int(let number): return .number(Double(number))
        case .string(let text): return .string(text)
        }
    }

    private static func literal(_ value: IABValue) -> String {
        JavaScriptLiteral.expression(jsonValue(value))
    }
}
