/// Text that came from outside (what a page posted, a caller's string), made safe for an error message or a log line.
///
/// Every error description of this package quotes such text through here, so that one policy holds everywhere: a
/// hostile value cannot start a new log line (controls, line and paragraph separators), reorder what a reader sees
/// (bidirectional overrides such as U+202E), hide text (zero-width characters, which are format characters), or
/// flood a log (the text is cut after a maximum number of Unicode scalars, with an ellipsis).
package enum UntrustedText {
    /// The most Unicode scalars ``quoted(_:maximumScalars:)`` shows by default.
    package static let maximumQuotedScalars = 64

    /// `text` escaped (see ``escaped(_:maximumScalars:)``), with `"` and `\` escaped too so that the quotes
    /// delimit it unambiguously, cut after `maximumScalars` scalars with `…`, and wrapped in double quotes:
    /// `"1\u{202E}NN"`.
    package static func quoted(_ text: String, maximumScalars: Int = maximumQuotedScalars) -> String {
        let (shown, omitted) = escaped(text, maximumScalars: maximumScalars, escapingQuotes: true)
        return "\"" + shown + (omitted > 0 ? "…" : "") + "\""
    }

    /// `text` with every control (`Cc`), format (`Cf`: bidirectional controls, zero-width characters) and line or
    /// paragraph separator scalar written as `\u{XXXX}`, cut after `maximumScalars` scalars; when anything was cut,
    /// `… (N more characters)` follows. For whole messages that already quote their parts.
    package static func sanitized(_ text: String, maximumScalars: Int) -> String {
        let (shown, omitted) = escaped(text, maximumScalars: maximumScalars, escapingQuotes: false)
        return omitted > 0 ? shown + "… (\(omitted) more characters)" : shown
    }

    /// The first `maximumScalars` scalars of `text` with the unsafe ones (and, when `escapingQuotes`, `"` and `\`)
    /// escaped, and how many scalars were left out.
    static func escaped(
        _ text: String, maximumScalars: Int, escapingQuotes: Bool = false
    ) -> (text: String, omitted: Int) {
        var result = String.UnicodeScalarView()
        var kept = 0
        for scalar in text.unicodeScalars {
            guard kept < maximumScalars else {
                return (String(result), text.unicodeScalars.count - maximumScalars)
            }
            kept += 1
            if escapingQuotes, scalar == "\"" || scalar == "\\" {
                result.append("\\")
                result.append(scalar)
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default:
                result.append(scalar)
            }
        }
        return (String(result), 0)
    }
}
