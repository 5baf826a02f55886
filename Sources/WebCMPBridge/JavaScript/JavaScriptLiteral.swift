import Foundation

/// Builds JavaScript source that carries data. Every value goes through a JSON encoder, never string interpolation.
///
/// JSON text is a valid JavaScript expression (ES2019 made U+2028/U+2029 legal in string literals); on top of that
/// `<`, `>`, `&`, U+2028 and U+2029 are written as `\u` escapes so that the output is also safe inside an HTML
/// `<script>` element and in engines older than ES2019.
package enum JavaScriptLiteral {
    /// The JavaScript expression for `value`.
    package static func expression(_ value: JSONValue) -> String {
        var output = String()
        output.reserveCapacity(64)
        write(value, to: &output)
        return output
    }

    /// The JavaScript string literal for `string`.
    package static func string(_ string: String) -> String {
        var output = String()
        output.reserveCapacity(string.utf8.count + 2)
        writeString(string, to: &output)
        return output
    }

    private static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += number.isFinite ? formatNumber(number) : "null"
        case .string(let string): writeString(string, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                writeString(key, to: &output)
                output += ":"
                if let member = members[key] { write(member, to: &output) }
            }
            output += "}"
        }
    }

    private static func formatNumber(_ number: Double) -> String {
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            return String(Int64(number))
        }
        return "\(number)"
    }

    private static let hexDigits = Array("0123456789abcdef".unicodeScalars)

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}": appendEscape(scalar.value, to: &output)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    appendEscape(scalar.value, to: &output)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    private static func appendEscape(_ value: UInt32, to output: inout String) {
        output += "\\u"
        for shift in stride(from: 12, through: 0, by: -4) {
            output.unicodeScalars.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
        }
    }
}
