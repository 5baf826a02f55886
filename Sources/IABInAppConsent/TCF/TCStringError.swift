/// Why a TC string could not be decoded or a model could not be encoded.
///
/// Every case carries the data needed to explain the problem; ``description`` is one sentence for people.
package enum TCStringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input was empty.
    case empty
    /// The input is longer than any TC string can reasonably be.
    case tooLong(length: Int, limit: Int)
    /// A character outside the base64url alphabet, at a character offset of the whole string.
    case invalidCharacter(Character, offset: Int)
    /// A field needed more bits than the segment had.
    case truncated(field: String, atBit: Int, segment: Int)
    /// The version field was not 2. Version 1 (TCF v1.1) strings are no longer valid.
    case unsupportedVersion(Int)
    /// A segment between dots is empty.
    case emptySegment(index: Int)
    /// A segment has a `SegmentType` this package does not know (4–7).
    case unknownSegmentType(Int, segment: Int)
    /// A segment type appears twice (a second core segment included).
    case duplicateSegment(type: Int, segment: Int)
    /// A range entry ends before it starts.
    case rangeEndBeforeStart(field: String, start: Int, end: Int)
    /// An id of 0, which no vendor or purpose has.
    case zeroID(field: String)
    /// A range entry names a vendor above the section's `MaxVendorId`.
    case idAboveMaximum(field: String, id: Int, maximum: Int)
    /// A model field cannot be encoded (out of its bit width, not two letters …).
    case invalidFieldValue(field: String, value: String)

    public var description: String {
        switch self {
        case .empty: return "the TC string is empty"
        case let .tooLong(length, limit): return "the TC string has \(length) characters, more than the limit of \(limit)"
        case let .invalidCharacter(character, offset):
            let scalars = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
            return "invalid base64url character \(scalars.joined(separator: " ")) (\(UntrustedText.quoted(String(character)))) "
                + "at offset \(offset)"
        case let .truncated(field, bit, segment):
            return "the TC string is truncated: \(field) needs more bits than segment \(segment) has (at bit \(bit))"
        case .unsupportedVersion(1): return "TCF version 1 TC strings are not supported (they are invalid since 2020)"
        case .unsupportedVersion(let version): return "unsupported TC string version \(version); only version 2 is supported"
        case .emptySegment(let index): return "segment \(index) of the TC string is empty"
        case let .unknownSegmentType(type, segment): return "segment \(segment) has the unknown segment type \(type)"
        case let .duplicateSegment(type, segment): return "segment \(segment) repeats segment type \(type)"
        case let .rangeEndBeforeStart(field, start, end): return "\(field) has a range that ends (\(end)) before it starts (\(start))"
        case .zeroID(let field): return "\(field) names id 0, which does not exist"
        case let .idAboveMaximum(field, id, maximum): return "\(field) names id \(id), above its MaxVendorId \(maximum)"
        case let .invalidFieldValue(field, value): return "cannot encode \(field) = \(value)"
        }
    }
}
