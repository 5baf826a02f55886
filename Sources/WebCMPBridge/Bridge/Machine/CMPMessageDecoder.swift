import Foundation

/// Turns an untrusted posted body into a typed ``CMPMessage``, dispatching on the handler and the body's type field.
///
/// Every field is type-checked; a wrong type is an ``InboundMessageError``, never a silent default. Unknown extra
/// fields are ignored. Bodies may be objects or JSON strings holding an object (both shapes are seen in the wild).
struct CMPMessageDecoder: Sendable {
    /// The caps applied to bodies.
    var limits: JSONLimits
    /// The dialects whose handlers it decodes.
    let dialects: [any MessageDialect]

    /// Creates a decoder of `dialects` (default: every registered one).
    init(limits: JSONLimits = .default, dialects: [any MessageDialect] = DialectRegistry.all) {
        self.limits = limits
        self.dialects = dialects
    }

    /// Validates a raw body under ``limits``: JSON text is parsed, Foundation objects are converted.
    func value(of body: ScriptMessageBody) throws(InboundMessageError) -> JSONValue {
        switch body {
        case .json(let text): return try JSONValue.message(parsing: text, limits: limits)
        case .foundation(let object): return try JSONValue.message(foundation: object, limits: limits)
        }
    }

    /// Decodes a validated body posted to `handlerName`.
    func decode(handlerName: String, body: JSONValue) throws(InboundMessageError) -> (CMPDialect, CMPMessage) {
        let (rules, message) = try decodeWithRules(handlerName: handlerName, body: body)
        return (rules.dialect, message)
    }

    /// Decodes a validated body posted to `handlerName`, with the rules of the dialect it was posted in. A body whose
    /// `type` is ``CMPMessage/openAppSettingsType`` is ``CMPMessage/openAppSettings`` in every dialect.
    func decodeWithRules(
        handlerName: String, body: JSONValue
    ) throws(InboundMessageError) -> (any MessageDialect, CMPMessage) {
        guard let rules = dialects.first(where: { $0.handlerName == handlerName }) else {
            throw .unknownHandler(handlerName)
        }
        let fields = try fields(of: body)
        // The app's own message, the same in every dialect; a `type` of another JSON type is the dialect's to judge.
        if case .string(CMPMessage.openAppSettingsType)? = fields.members["type"] { return (rules, .openAppSettings) }
        return (rules, try rules.decode(fields))
    }

    /// The fields of a body: an object, or a JSON string holding an object.
    func fields(of body: JSONValue) throws(InboundMessageError) -> MessageFields {
        switch body {
        case .object(let members): return MessageFields(members, limits: limits)
        case .string(let text):
            guard case .object(let members) = try JSONValue.message(parsing: text, limits: limits) else { throw .notAnObject }
            return MessageFields(members, limits: limits)
        default: throw .notAnObject
        }
    }
}
