extension JSONValue {
    /// Why a value has no JSON text within the given limits.
    package enum SerializationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A number that JSON cannot carry (infinite or NaN).
        case nonFiniteNumber
        /// Arrays and objects nested deeper than the limit.
        case tooDeep(limit: Int)
        /// An array or object with more elements or members than the limit.
        case tooManyElements(count: Int, limit: Int)
        /// A string (or member name) longer than the limit, in UTF-8 bytes.
        case stringTooLong(bytes: Int, limit: Int)
        /// The whole text longer than the limit, in UTF-8 bytes.
        case tooLarge(bytes: Int, limit: Int)

        package var description: String {
            switch self {
            case .nonFiniteNumber: return "a number that is infinite or NaN"
            case .tooDeep(let limit): return "nested deeper than \(limit) levels"
            case .tooManyElements(let count, let limit): return "\(count) elements in one container, above \(limit)"
            case .stringTooLong(let bytes, let limit): return "a string of \(bytes) bytes, above \(limit)"
            case .tooLarge(let bytes, let limit): return "\(bytes) bytes of JSON, above \(limit)"
            }
        }
    }

    /// The value as compact JSON text (RFC 8259) that ``init(parsing:limits:)`` with the same `limits` reads back
    /// equal: each limit is checked exactly as the parser checks it, so no second pass is needed to know.
    ///
    /// Object members are written in ascending order of their names (the same value always gives the same text).
    /// Strings escape `"`, `\` and the control characters below U+0020 (RFC 8259 §7); everything else is written as
    /// its UTF-8. A number that is a whole number of magnitude below 2⁵³ is written without a fraction (`3`, not
    /// `3.0`); any other finite number as Swift's shortest text that reads back the same `Double` (`0.1`, `1e-07`).
    ///
    /// - Throws: ``SerializationError`` for a non-finite number or a value beyond `limits`; nothing is returned.
    package func jsonText(limits: JSONLimits) throws(SerializationError) -> String {
        var writer = JSONTextWriter(limits: limits, forScripts: false)
        try writer.write(self, depth: 0)
        return writer.text
    }

    /// The value as JSON text that is also safe inside an HTML `<script>` element and in JavaScript engines older than
    /// ES2019: ``jsonText(limits:)``'s text, without limits, with `<`, `>`, `&`, U+007F, U+2028 and U+2029 written as
    /// `\u` escapes too, and a non-finite number written as `null` (as `JSON.stringify` does). The bridge's
    /// `JavaScriptLiteral` writes every value it puts into a script with it.
    package var scriptSafeJSONText: String {
        var writer = JSONTextWriter(limits: JSONTextWriter.unlimited, forScripts: true)
        do {
            try writer.write(self, depth: 0)
        } catch {
            // Without limits, and with non-finite numbers written as `null`, nothing throws.
            preconditionFailure("scriptSafeJSONText: \(error)")
        }
        return writer.text
    }

    /// `text` as a script-safe JSON string literal (``scriptSafeJSONText`` of `.string(text)`).
    package static func scriptSafeStringLiteral(_ text: String) -> String {
        var writer = JSONTextWriter(limits: JSONTextWriter.unlimited, forScripts: true)
        writer.write(unlimited: text)
        return writer.text
    }
}

/// The writer behind ``JSONValue/jsonText(limits:)`` and ``JSONValue/scriptSafeJSONText``: appends UTF-8 to one
/// buffer.
private struct JSONTextWriter {
    static let unlimited = JSONLimits(
        maximumBytes: .max, maximumDepth: .max - 1, maximumStringBytes: .max, maximumElements: .max)

    let limits: JSONLimits
    /// Script-safe text: the extra escapes of ``JSONValue/scriptSafeJSONText``, and `null` for non-finite numbers.
    let forScripts: Bool
    var bytes: [UInt8] = []

    init(limits: JSONLimits, forScripts: Bool) {
        self.limits = limits
        self.forScripts = forScripts
        bytes.reserveCapacity(256)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes `value`, which sits inside `depth` containers (the parser's count: a top-level container is at depth 1).
    mutating func write(_ value: JSONValue, depth: Int) throws(JSONValue.SerializationError) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): try write(number)
        case .string(let text): try write(text)
        case .array(let elements):
            guard depth + 1 <= limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth) }
            guard elements.count <= limits.maximumElements else {
                throw .tooManyElements(count: elements.count, limit: limits.maximumElements)
            }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(element, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard depth + 1 <= limits.maximumDepth else { throw .tooDeep(limit: limits.maximumDepth) }
            guard members.count <= limits.maximumElements else {
                throw .tooManyElements(count: members.count, limit: limits.maximumElements)
            }
            bytes.append(UInt8(ascii: "{"))
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(name)
                bytes.append(UInt8(ascii: ":"))
                // `name` is one of the keys being visited.
                try write(members[name] ?? .null, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        if bytes.count > limits.maximumBytes { throw .tooLarge(bytes: bytes.count, limit: limits.maximumBytes) }
    }

    private mutating func write(_ number: Double) throws(JSONValue.SerializationError) {
        guard number.isFinite else {
            guard forScripts else { throw .nonFiniteNumber }
            return bytes.append(contentsOf: "null".utf8)
        }
        if number == number.rounded(.towardZero), abs(number) < 9_007_199_254_740_992 {
            bytes.append(contentsOf: String(Int64(number)).utf8)
        } else {
            // Swift's `description` of a finite Double is its shortest round-trip text, in JSON's number grammar
            // (`1.5`, `1e-07`, `1.7976931348623157e+308`).
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    private mutating func write(_ text: String) throws(JSONValue.SerializationError) {
        let count = text.utf8.count
        guard count <= limits.maximumStringBytes else {
            throw .stringTooLong(bytes: count, limit: limits.maximumStringBytes)
        }
        write(unlimited: text)
    }

    /// Writes `text` as a string literal, without checking its length.
    mutating func write(unlimited text: String) {
        var text = text
        text.makeContiguousUTF8()  // a no-op for native strings: the bytes are read in place
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.withContiguousStorageIfAvailable({ escape($0) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { escape($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `utf8` with RFC 8259's escapes (and, for scripts, the extra ones): runs without a character to escape
    /// are appended whole.
    private mutating func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            var length = 1  // bytes the escaped character takes in `utf8`
            let escaped: UInt32?
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00..<0x20: escaped = UInt32(byte)
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), 0x7F: escaped = forScripts ? UInt32(byte) : nil
            case 0xE2 where forScripts && index + 2 < utf8.count && utf8[index + 1] == 0x80
                && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                // U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR (E2 80 A8, E2 80 A9).
                escaped = 0x2000 | UInt32(utf8[index + 2] - 0xA8 + 0x28)
                length = 3
            default: escaped = nil
            }
            guard let escaped else {
                index += 1
                continue
            }
            bytes.append(contentsOf: utf8[runStart..<index])
            bytes.append(UInt8(ascii: "\\"))
            switch escaped {
            case UInt32(UInt8(ascii: "\"")), UInt32(UInt8(ascii: "\\")): bytes.append(UInt8(escaped))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(UInt8(ascii: "u"))
                for shift in stride(from: 12, through: 0, by: -4) {
                    bytes.append(Self.hexDigits[Int((escaped >> UInt32(shift)) & 0xF)])
                }
            }
            index += length
            runStart = index
        }
        bytes.append(contentsOf: utf8[runStart...])
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
