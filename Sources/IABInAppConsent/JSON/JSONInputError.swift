/// Why JSON text or a Foundation object graph was refused by ``JSONValue``'s parser: over one of the `JSONLimits`,
/// not valid JSON, or a value with no JSON form. The bridge reports these as `InboundMessageError` cases of the same
/// names; the store treats them as unreadable data.
package enum JSONInputError: Error, Sendable, Hashable {
    /// The JSON text is larger than the limit.
    case tooLarge(bytes: Int, limit: Int)
    /// Arrays and objects are nested deeper than the limit.
    case tooDeep(limit: Int)
    /// A string is longer than the limit.
    case stringTooLong(bytes: Int, limit: Int)
    /// An array or object has more elements than the limit.
    case tooManyElements(count: Int, limit: Int)
    /// The text is not valid JSON.
    case malformedJSON(reason: String, offset: Int)
    /// The value has no JSON form (a function, a DOM node, a non-finite number …).
    case unsupportedValue(String)
}
