/// Why a message a page posted was rejected. The bridge reports it and changes nothing.
package enum InboundMessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The body was refused by the JSON parser (over one of the ``IABInAppConsent/JSONLimits``, not valid JSON, or a
    /// value with no JSON form); the parser's refusal is kept as it is.
    case json(JSONInputError)
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
        case .json(let error): return "message body refused: \(error)"
        case .notAnObject: return "message body is not a JSON object"
        case let .unknownMessageType(type): return "unknown message type \(type.map { UntrustedText.quoted($0) } ?? "(none)")"
        case let .invalidField(name, expected): return "field '\(name)' is invalid: expected \(expected)"
        case let .missingField(name): return "required field '\(name)' is missing"
        case let .unknownHandler(name): return "no dialect listens to the message handler \(UntrustedText.quoted(name))"
        }
    }
}
