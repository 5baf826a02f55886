/// Why a message a page posted was rejected. The bridge reports it and changes nothing.
public enum InboundMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body's JSON text is larger than the limit.
    case tooLarge(bytes: Int, limit: Int)
    /// Arrays and objects are nested deeper than the limit.
    case tooDeep(limit: Int)
    /// A string is longer than the limit.
    case stringTooLong(bytes: Int, limit: Int)
    /// An array or object has more elements than the limit.
    case tooManyElements(count: Int, limit: Int)
    /// The body is not valid JSON.
    case malformedJSON(reason: String, offset: Int)
    /// The body holds a value that has no JSON form (a function, a DOM node, a non-finite number …).
    case unsupportedValue(String)
    /// The body is not an object, or a JSON string holding an object.
    case notAnObject
    /// The message has no recognisable type (`type`, `event`, or a dialect's known shape).
    case unknownMessageType(String?)
    /// A field has the wrong type or an invalid value.
    case invalidField(String, expected: String)
    /// A required field is missing.
    case missingField(String)
    /// The handler name belongs to no dialect the bridge listens to.
    case unknownHandler(String)

    public var description: String {
        switch self {
        case let .tooLarge(bytes, limit): return "message body of \(bytes) bytes exceeds the limit of \(limit) bytes"
        case let .tooDeep(limit): return "message body is nested deeper than \(limit) levels"
        case let .stringTooLong(bytes, limit): return "a string of \(bytes) bytes exceeds the limit of \(limit) bytes"
        case let .tooManyElements(count, limit): return "an array or object has \(count) elements, over the limit of \(limit)"
        case let .malformedJSON(reason, offset): return "message body is not valid JSON: \(reason) at byte \(offset)"
        case let .unsupportedValue(kind): return "message body holds a value with no JSON form: \(kind)"
        case .notAnObject: return "message body is not a JSON object"
        case let .unknownMessageType(type): return "unknown message type \(type.map { UntrustedText.quoted($0) } ?? "(none)")"
        case let .invalidField(name, expected): return "field '\(name)' is invalid: expected \(expected)"
        case let .missingField(name): return "required field '\(name)' is missing"
        case let .unknownHandler(name): return "no dialect listens to the message handler \(UntrustedText.quoted(name))"
        }
    }
}
