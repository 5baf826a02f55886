/// The name of an IAB in-app storage key, such as `IABTCF_TCString`.
///
/// An open set (`RawRepresentable`), so keys this package does not know yet can still be named.
///
/// Spec: TCF "Consent Management Platform API" v2.2, section "In-App Details";
/// GPP "CMP API Specification", section "In-App Details"; USP API "In-app support".
public struct IABKey: RawRepresentable, Sendable, Hashable, Comparable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The key as stored in `UserDefaults`.
    public var rawValue: String {
        didSet { nameHash = rawValue.hashValue }
    }

    /// `rawValue.hashValue`, computed once per key: every consent save builds a dictionary of about 25 keys, and
    /// hashing one integer instead of the whole name each time takes a fifth of the key mapping's work away.
    /// (Within one process equal names have equal hash values; the value is never stored or encoded.)
    private var nameHash: Int

    /// Creates a key from its stored name.
    public init(rawValue: String) {
        self.rawValue = rawValue
        nameHash = rawValue.hashValue
    }

    /// Creates a key from its stored name.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// Whether two keys have the same name (`String` equality of ``rawValue``).
    public static func == (lhs: IABKey, rhs: IABKey) -> Bool {
        lhs.nameHash == rhs.nameHash && lhs.rawValue == rhs.rawValue
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nameHash)
    }

    public static func < (lhs: IABKey, rhs: IABKey) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    /// Decodes a key from its name, a single string (as `RawRepresentable` types encode).
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the key's name as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
