import Foundation

/// Typed, strict access to the members of a posted object.
struct MessageFields: Sendable {
    /// The object's members.
    let members: [String: JSONValue]
    /// The path of this object in the message, for error messages (`"consent."`).
    let prefix: String
    /// The caps applied to JSON text nested in a member.
    let limits: JSONLimits

    /// The fields of an object posted or nested at `prefix`.
    init(_ members: [String: JSONValue], prefix: String = "", limits: JSONLimits = .default) {
        self.members = members
        self.prefix = prefix
        self.limits = limits
    }

    /// The raw member `name`.
    subscript(name: String) -> JSONValue? { members[name] }

    /// An object member, or a string member holding a JSON object (both shapes are seen in the wild); absent or
    /// `null` is `nil`.
    func object(_ name: String) throws(InboundMessageError) -> MessageFields? {
        let expected = "an object or a JSON string holding an object"
        switch members[name] {
        case nil, .null?: return nil
        case .object(let nested)?: return MessageFields(nested, prefix: prefix + name + ".", limits: limits)
        case .string(let text)?:
            guard case .object(let nested) = try JSONValue.message(parsing: text, limits: limits) else {
                throw .invalidField(prefix + name, expected: expected)
            }
            return MessageFields(nested, prefix: prefix + name + ".", limits: limits)
        default: throw .invalidField(prefix + name, expected: expected)
        }
    }

    /// A string member; absent or `null` is `nil`; any other type is an error.
    func string(_ name: String) throws(InboundMessageError) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .invalidField(prefix + name, expected: "a string")
        }
    }

    /// A string member where `""` also means absent.
    func nonEmptyString(_ name: String) throws(InboundMessageError) -> String? {
        guard let value = try string(name), !value.isEmpty else { return nil }
        return value
    }

    /// The first non-empty string among `names`.
    func nonEmptyString(anyOf names: String...) throws(InboundMessageError) -> String? {
        try nonEmptyString(anyOf: names)
    }

    /// The first non-empty string among `names`.
    func nonEmptyString(anyOf names: [String]) throws(InboundMessageError) -> String? {
        for name in names {
            if let value = try nonEmptyString(name) { return value }
        }
        return nil
    }

    /// A string or a number written as text (version fields are sent either way).
    func text(_ name: String) throws(InboundMessageError) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value.isEmpty ? nil : value
        case .number(let value)?:
            guard value.isFinite else { throw .invalidField(prefix + name, expected: "a string or a number") }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        default: throw .invalidField(prefix + name, expected: "a string or a number")
        }
    }

    /// A number member, or a string holding a number.
    func number(_ name: String) throws(InboundMessageError) -> Double? {
        switch members[name] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        case .string(let value)?:
            guard let number = Double(value), number.isFinite else {
                throw .invalidField(prefix + name, expected: "a number")
            }
            return number
        default: throw .invalidField(prefix + name, expected: "a number")
        }
    }

    /// An integer member within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(InboundMessageError) -> Int? {
        guard let number = try number(name) else { return nil }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .invalidField(prefix + name, expected: "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    /// A string member that must be one of `Value`'s raw values; absent or `null` is `nil`.
    func oneOf<Value: RawRepresentable & CaseIterable>(
        _ name: String, _ type: Value.Type
    ) throws(InboundMessageError) -> Value? where Value.RawValue == String {
        guard let raw = try string(name) else { return nil }
        guard let value = Value(rawValue: raw) else {
            let names = Value.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw .invalidField(prefix + name, expected: "one of \(names)")
        }
        return value
    }

    /// A Boolean member (also `0`/`1`, as some CMPs send).
    func bool(_ name: String) throws(InboundMessageError) -> Bool? {
        switch members[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case .number(0)?: return false
        case .number(1)?: return true
        default: throw .invalidField(prefix + name, expected: "a Boolean")
        }
    }

    /// Non-TCF data: any JSON; a JSON string holding JSON is kept as the string (it is re-injected verbatim).
    func nonTCFData(_ name: String) throws(InboundMessageError) -> JSONValue? {
        switch members[name] {
        case nil, .null?: return nil
        case .string("")?: return nil
        case let value?: return value
        }
    }

    /// A list of ids: an array of positive integers, or an object `{"1": true, "2": false}` (TCData's shape).
    func ids(_ name: String) throws(InboundMessageError) -> IDSet? {
        switch members[name] {
        case nil, .null?: return nil
        case .array(let elements)?:
            var set = IDSet()
            for element in elements {
                guard case .number(let value) = element, value >= 1, value <= Double(IDSet.maximumID),
                    value == value.rounded()
                else { throw .invalidField(prefix + name, expected: "an array of ids from 1 to 65535") }
                set.insert(Int(value))
            }
            return set
        case .object(let members)?:
            var set = IDSet()
            for (key, value) in members {
                guard let id = Int(key), id >= 1, id <= IDSet.maximumID else {
                    throw .invalidField(prefix + name, expected: "an object keyed by ids from 1 to 65535")
                }
                switch value {
                case .bool(true): set.insert(id)
                case .bool(false): break
                default: throw .invalidField(prefix + name, expected: "Boolean values")
                }
            }
            return set
        default: throw .invalidField(prefix + name, expected: "an array of ids")
        }
    }
}
