/// A Global Privacy Platform string: a header, then one encoded section per section id, joined by `~`.
///
/// This reader decodes the header (type, version, section ids) and splits the sections, which is what the GPP
/// in-app keys need; the TCF EU v2 section (id 2) decodes with the TC string decoder (``tcfEUSection()``).
///
/// Spec: GPP "Consent String Specification", "GPP String Format" and "Header"
/// (<https://github.com/InteractiveAdvertisingBureau/Global-Privacy-Platform/blob/main/Core/Consent%20String%20Specification.md>).
public struct GPPString: Sendable, Hashable {
    /// The string as given.
    public var rawValue: String
    /// The header's `Version` (1 for GPP 1.x).
    public var version: Int
    /// The section ids in header order.
    public var sectionIDs: [Int]
    /// The encoded sections, in the same order as ``sectionIDs``.
    package var sections: [Section]

    /// One encoded section.
    package struct Section: Sendable, Hashable {
        /// The section id (2 = TCF EU v2, 6 = US Privacy, 7 = US National …).
        package var id: Int
        /// The section's string, as it appeared.
        package var string: String
    }

    /// The longest GPP string accepted.
    static let maximumLength = 256 * 1024

    /// Parses a GPP string.
    /// - Throws: ``IABConsentError`` with the code ``IABConsentError/Code/invalidGPPString``; never traps.
    public init(parsing string: String) throws(IABConsentError) {
        do {
            try self.init(parsingPrecisely: string)
        } catch {
            throw IABConsentError(error)
        }
    }

    /// ``init(parsing:)`` with the parser's precise error.
    package init(parsingPrecisely string: String) throws(GPPStringError) {
        guard !string.isEmpty else { throw .empty }
        guard string.utf8.count <= GPPString.maximumLength else {
            throw .tooLong(length: string.utf8.count, limit: GPPString.maximumLength)
        }
        let parts = string.split(separator: "~", omittingEmptySubsequences: false)
        var reader = try GPPString.sixBitReader(parts[0])
        let type = try reader.read(6)
        guard type == 3 else { throw .invalidHeader("the header type is \(type), not 3") }
        version = try reader.read(6)
        let count = try reader.read(12)
        var ids: [Int] = []
        var last = 0
        for _ in 0..<count {
            let isGroup = try reader.read(1) == 1
            let offset = try reader.fibonacci()
            let start = last + offset
            if isGroup {
                let length = try reader.fibonacci()
                guard start + length <= 1_000 else { throw .invalidHeader("section range too large") }
                ids.append(contentsOf: start...(start + length))
                last = start + length
            } else {
                ids.append(start)
                last = start
            }
            guard ids.count <= 1_000 else { throw .invalidHeader("too many section ids") }
        }
        guard ids.allSatisfy({ $0 >= 1 }), zip(ids, ids.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw .invalidHeader("section ids must be positive and ascending: \(ids.prefix(20))")
        }
        guard parts.count - 1 == ids.count else {
            throw .sectionCountMismatch(header: ids.count, found: parts.count - 1)
        }
        for (index, part) in parts.dropFirst().enumerated() where part.isEmpty {
            throw .emptySection(id: ids[index])
        }
        rawValue = string
        sectionIDs = ids
        sections = zip(ids, parts.dropFirst()).map { Section(id: $0, string: String($1)) }
    }

    /// The string of section `id`, if present.
    public func section(_ id: Int) -> String? {
        sections.first { $0.id == id }?.string
    }

    /// The TCF EU v2 section (id 2) decoded as a TC string; `nil` when the section is absent.
    /// - Throws: ``IABConsentError`` with the code ``IABConsentError/Code/invalidTCString``.
    public func tcfEUSection() throws(IABConsentError) -> TCString? {
        guard let string = section(2) else { return nil }
        return try TCString(decoding: string)
    }

    private static func sixBitReader(_ header: Substring) throws(GPPStringError) -> SixBitReader {
        var values: [UInt8] = []
        values.reserveCapacity(header.utf8.count)
        for (offset, byte) in header.utf8.enumerated() {
            let value = Base64URL.decodeTable[Int(byte)]
            guard value != 0xFF else { throw .invalidHeader("invalid character at offset \(offset)") }
            values.append(value)
        }
        return SixBitReader(values: values)
    }
}

/// Reads bits from 6-bit base64url values ("modified base64": the GPP header is padded to 6, or 8, bits).
private struct SixBitReader {
    let values: [UInt8]
    var position = 0

    mutating func bit() throws(GPPStringError) -> Int {
        guard position < values.count * 6 else { throw .invalidHeader("the header is truncated") }
        let value = values[position / 6]
        let bit = (Int(value) >> (5 - position % 6)) & 1
        position += 1
        return bit
    }

    mutating func read(_ count: Int) throws(GPPStringError) -> Int {
        var value = 0
        for _ in 0..<count { value = (value << 1) | (try bit()) }
        return value
    }

    /// A Fibonacci-coded integer: bits weigh 1, 2, 3, 5, 8 … and the code ends with `11`.
    mutating func fibonacci() throws(GPPStringError) -> Int {
        var (a, b) = (1, 2)
        var value = 0
        var previous = 0
        for _ in 0..<40 {
            let current = try bit()
            if current == 1, previous == 1 { return value }
            if current == 1 { value += a }
            (a, b) = (b, a + b)
            previous = current
        }
        throw .invalidHeader("a Fibonacci-coded number is too long")
    }
}

/// Why a GPP string was rejected.
package enum GPPStringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input was empty.
    case empty
    /// The input is implausibly long.
    case tooLong(length: Int, limit: Int)
    /// The header is not a valid GPP header.
    case invalidHeader(String)
    /// The number of `~`-separated sections differs from the header's section ids.
    case sectionCountMismatch(header: Int, found: Int)
    /// A section string is empty.
    case emptySection(id: Int)

    public var description: String {
        switch self {
        case .empty: return "the GPP string is empty"
        case let .tooLong(length, limit): return "the GPP string has \(length) bytes, over the limit of \(limit)"
        case .invalidHeader(let reason): return "invalid GPP header: \(reason)"
        case let .sectionCountMismatch(header, found):
            return "the GPP header lists \(header) sections but the string has \(found)"
        case .emptySection(let id): return "GPP section \(id) is empty"
        }
    }
}
