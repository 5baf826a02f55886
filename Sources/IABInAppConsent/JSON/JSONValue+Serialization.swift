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
        var writer = JSONTextWriter(limits: limits)
        try writer.write(self, depth: 0)
        guard writer.bytes.count <= limits.maximumBytes else {
            throw .tooLarge(bytes: writer.bytes.count, limit: limits.maximumBytes)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// The writer behind ``JSONValue/jsonText(limits:)``: appends UTF-8 to one buffer.
private struct JSONTextWriter {
    let limits: JSONLimits
    var bytes: [UInt8] = []

    init(limits: JSONLimits) {
        self.limits = limits
        bytes.reserveCapacity(256)
    }

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
        guard number.isFinite else { throw .nonFiniteNumber }
        if number == number.rounded(.towardZero), abs(number) < 9_007_199_254_740_992 {
            bytes.append(contentsOf: String(Int64(number)).utf8)
        } else {
            // Swift's `description` of a finite Double is its shortest round-trip text, in JSON's number grammar
            // (`1.5`, `1e-07`, `1.7976931348623157e+308`).
            bytes.append(contentsOf: number.description.utf8)
        }
    }

    private mutating func write(_ text: String) throws(JSONValue.SerializationError) {
        var text = text
        text.makeContiguousUTF8()  // a no-op for native strings: the bytes are read in place
        let count = text.utf8.count
        guard count <= limits.maximumStringBytes else {
            throw .stringTooLong(bytes: count, limit: limits.maximumStringBytes)
        }
        bytes.append(UInt8(ascii: "\""))
        func escape(_ utf8: UnsafeBufferPointer<UInt8>) {
            // Runs without a character to escape are appended whole.
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[runStart..<index])
                runStart = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: utf8[runStart...])
        }
        if text.utf8.withContiguousStorageIfAvailable(escape) == nil {
            Array(text.utf8).withUnsafeBufferPointer(escape)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
