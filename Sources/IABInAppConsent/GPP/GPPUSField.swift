/// One field of a GPP US section (national or state), in encoding order.
///
/// Spec: GPP "Consent String Specification", "Section Encoding" (data types `Int(n)`, `Boolean`), and each US
/// section's "Core Segment" table, where `N-Bitfield(bits, count)` is a fixed list of `count` integers of `bits` bits
/// each (unlike the core spec's variable-length "N-bitfield", it carries no length prefix: the IAB reference encoder
/// `iabgpp-es` writes it as a fixed integer list).
struct GPPUSField: Sendable, Hashable {
    /// How a field is encoded.
    enum Kind: Sendable, Hashable {
        /// `Int(bits)`: an unsigned integer.
        case int(bits: Int)
        /// `N-Bitfield(bits, count)`: `count` unsigned integers of `bits` bits each.
        case intList(count: Int, bits: Int)
        /// `Boolean`: one bit, `1` = true.
        case bool
    }

    /// The field name as the section's table spells it (UpperCamelCase), also the per-field key's suffix.
    var name: String
    /// The encoding.
    var kind: Kind

    /// The number of bits the field takes.
    var bitCount: Int {
        switch kind {
        case .int(let bits): return bits
        case let .intList(count, bits): return count * bits
        case .bool: return 1
        }
    }

    /// The value type of the field's in-app key (GPP CMP API "In-App Details", data-type conversion table): integers
    /// and Booleans are Numbers, lists are strings of values joined by `_`.
    var keyKind: IABValue.Kind {
        switch kind {
        case .int, .bool: return .int
        case .intList: return .string
        }
    }

    /// An `Int(2)` field: `0` not applicable, `1` and `2` as the section defines (yes/no, opted out/did not).
    static func int2(_ name: String) -> GPPUSField { GPPUSField(name: name, kind: .int(bits: 2)) }

    /// An `Int(6)` field (`Version`, `MspaVersion`).
    static func int6(_ name: String) -> GPPUSField { GPPUSField(name: name, kind: .int(bits: 6)) }

    /// An `N-Bitfield(2, count)` field.
    static func list2(_ name: String, count: Int) -> GPPUSField {
        GPPUSField(name: name, kind: .intList(count: count, bits: 2))
    }
}

/// A decoded field value.
enum GPPUSValue: Sendable, Hashable {
    /// An `Int(n)` field.
    case int(Int)
    /// An `N-Bitfield` field, one integer per entry.
    case list([Int])
    /// A `Boolean` field.
    case bool(Bool)

    /// The in-app key value (GPP CMP API "In-App Details" conversion table): Boolean → 0/1, Integer unchanged, lists
    /// → values joined by `_` (`"2_1_0"`).
    var iabValue: IABValue {
        switch self {
        case .int(let value): return .int(value)
        case .bool(let value): return .int(value ? 1 : 0)
        case .list(let values): return .string(values.map(String.init).joined(separator: "_"))
        }
    }
}
