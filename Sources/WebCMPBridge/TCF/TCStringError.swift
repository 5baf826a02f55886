/// Why a TC string could not be decoded or encoded.
///
/// Every case carries the data needed to explain the problem; ``description`` is a one-line message for people.
/// (Helper A: extend and refine these cases as the codec needs; keep them data-carrying.)
public enum TCStringError: Error, Sendable, Hashable {
    /// The input was empty.
    case empty
    /// A character outside the base64url alphabet at the given character offset.
    case invalidCharacter(Character, offset: Int)
    /// A field needed more bits than the segment had.
    case truncated(field: String, atBit: Int, segment: Int)
    /// The version field was not 2. Version 1 (TCF v1.1) strings are no longer valid.
    case unsupportedVersion(Int)
}
