import IABInAppConsent

/// The command line of this package's tools (`webcmp`, and `webcmp-host` on Linux): the one parser both use, `package`
/// so that it is no part of the library's API.
///
/// Takes `--name value`, `--name=value` and flags, in any order among the positional arguments; `--` makes every later
/// argument positional. An argument is an option when it starts with `--` or is one of the declared names (so a tool
/// may declare `-h`). A value option given twice is a usage error unless it is declared repeatable; an undeclared
/// option is one. Values from the command line are quoted in messages by the one untrusted-text policy
/// (`UntrustedText.quoted`).
package struct CommandLineArguments: Sendable {
    /// The values of every value option given, in command-line order.
    package private(set) var values: [String: [String]] = [:]
    /// The flags given.
    package private(set) var flags: Set<String> = []
    /// The arguments that are not options or their values, in order.
    package private(set) var positional: [String] = []

    /// Parses `arguments` for a tool whose help is `help` (e.g. `webcmp --help`, named in the message about an
    /// unknown option). `valueOptions` take a value once, `repeatableOptions` any number of times, `flagOptions` none.
    package init(
        _ arguments: [String], valueOptions: Set<String>, repeatableOptions: Set<String> = [], flagOptions: Set<String>,
        help: String
    ) throws(UsageError) {
        let declared = valueOptions.union(repeatableOptions).union(flagOptions)
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                positional += rest
                return
            }
            guard argument.hasPrefix("--") || declared.contains(argument) else {
                positional.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flagOptions.contains(name) {
                guard inlineValue == nil else { throw UsageError("option \(name) takes no value") }
                flags.insert(name)
            } else if valueOptions.contains(name) || repeatableOptions.contains(name) {
                guard values[name] == nil || repeatableOptions.contains(name) else {
                    throw UsageError("option \(name) given twice")
                }
                guard let value = inlineValue ?? rest.popFirst() else { throw UsageError("option \(name) needs a value") }
                values[name, default: []].append(value)
            } else {
                throw UsageError("unknown option \(UntrustedText.quoted(name)) (see \(help))")
            }
        }
    }

    /// The value of option `name`, if given (the last one of a repeatable option).
    package subscript(name: String) -> String? { values[name]?.last }

    /// Every value given for option `name`, in order.
    package func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether flag `name` was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The whole number option `name` gives, if given; a usage error when it is not one or outside `range`.
    package func integer(_ name: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = self[name] else { return nil }
        guard let value = Int(text), range?.contains(value) ?? true else {
            throw invalid(name, text, needs: "an integer", in: range)
        }
        return value
    }

    /// The seconds option `name` gives (a decimal number), if given; a usage error when it is not a number or outside
    /// `range`.
    package func seconds(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Double? {
        guard let text = self[name] else { return nil }
        guard let value = Double(text), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw invalid(name, text, needs: "seconds", in: range)
        }
        return value
    }

    /// The error for a value `text` of option `name` that is not what it `needs`.
    private func invalid(_ name: String, _ text: String, needs: String, in range: ClosedRange<Int>?) -> UsageError {
        let bounds = range.map { " from \($0.lowerBound) to \($0.upperBound)" } ?? ""
        return UsageError("option \(name) needs \(needs)\(bounds), not \(UntrustedText.quoted(text))")
    }
}
