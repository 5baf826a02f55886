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
    public var rawValue: String

    /// Creates a key from its stored name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates a key from its stored name.
    public init(stringLiteral value: String) { self.rawValue = value }

    public static func < (lhs: IABKey, rhs: IABKey) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}
