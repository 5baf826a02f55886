/// A value of an IAB in-app key: the specs allow only integers ("Number") and strings.
///
/// Spec: TCF CMP API v2.2, "In-App Details": "For mobile all booleans are written as Number (integer)."
public enum IABValue: Sendable, Hashable, CustomStringConvertible {
    /// A `Number` key, stored as an integer (never a string or a bool).
    case int(Int)
    /// A `String` or binary-string key.
    case string(String)

    public var description: String {
        switch self {
        case .int(let value): return String(value)
        case .string(let value): return value
        }
    }
}
