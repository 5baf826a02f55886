/// A page's message body refused by `JSONValue`'s parser (IABInAppConsent's `JSONLimits`) is reported as the
/// ``InboundMessageError`` case of the same name.
extension InboundMessageError {
    /// The message error for a refusal of the JSON parser.
    init(_ error: JSONInputError) {
        switch error {
        case let .tooLarge(bytes, limit): self = .tooLarge(bytes: bytes, limit: limit)
        case let .tooDeep(limit): self = .tooDeep(limit: limit)
        case let .stringTooLong(bytes, limit): self = .stringTooLong(bytes: bytes, limit: limit)
        case let .tooManyElements(count, limit): self = .tooManyElements(count: count, limit: limit)
        case let .malformedJSON(reason, offset): self = .malformedJSON(reason: reason, offset: offset)
        case let .unsupportedValue(kind): self = .unsupportedValue(kind)
        }
    }
}

extension JSONValue {
    /// A page's JSON text under `limits`; a refusal is an ``InboundMessageError``.
    static func message(parsing text: String, limits: JSONLimits) throws(InboundMessageError) -> JSONValue {
        do {
            return try JSONValue(parsing: text, limits: limits)
        } catch {
            throw InboundMessageError(error)
        }
    }

    /// A page's body as WebKit hands it over (a Foundation object graph) under `limits`; a refusal is an
    /// ``InboundMessageError``.
    static func message(foundation object: Any, limits: JSONLimits) throws(InboundMessageError) -> JSONValue {
        do {
            return try JSONValue(foundation: object, limits: limits)
        } catch {
            throw InboundMessageError(error)
        }
    }
}
