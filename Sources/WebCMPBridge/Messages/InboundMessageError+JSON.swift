/// A page's message body refused by `JSONValue`'s parser (IABInAppConsent's `JSONLimits`) is reported as
/// ``InboundMessageError/json(_:)`` with the parser's refusal underneath.
extension JSONValue {
    /// A page's JSON text under `limits`; a refusal is an ``InboundMessageError``.
    static func message(parsing text: String, limits: JSONLimits) throws(InboundMessageError) -> JSONValue {
        do {
            return try JSONValue(parsing: text, limits: limits)
        } catch {
            throw .json(error)
        }
    }

    /// A page's body as WebKit hands it over (a Foundation object graph) under `limits`; a refusal is an
    /// ``InboundMessageError``.
    static func message(foundation object: Any, limits: JSONLimits) throws(InboundMessageError) -> JSONValue {
        do {
            return try JSONValue(foundation: object, limits: limits)
        } catch {
            throw .json(error)
        }
    }
}
