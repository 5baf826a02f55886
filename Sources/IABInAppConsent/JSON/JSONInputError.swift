/// Why JSON text or a Foundation object graph was refused by ``JSONValue``'s parser: over one of the `JSONLimits`,
/// not valid JSON, or a value with no JSON form. The bridge reports one as the underlying error of its
/// `InboundMessageError.json(_:)` (one list of cases); the store treats them as unreadable data.
package enum JSONInputError: Error, Sendable, Hashable, CustomStringConvertible {
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

    /// One sentence naming the limit or the problem.
    package var description: String {
        switch self {
        case let .tooLarge(bytes, limit): return "the JSON text of \(bytes) bytes exceeds the limit of \(limit) bytes"
        case let .tooDeep(limit): return "the JSON text is nested deeper than \(limit) levels"
        case let .stringTooLong(bytes, limit): return "a string of \(bytes) bytes exceeds the limit of \(limit) bytes"
        case let .tooManyElements(count, limit): return "an array or object has \(count) elements, over the limit of \(limit)"
        case let .malformedJSON(reason, offset): return "not valid JSON: \(reason) at byte \(offset)"
        case let .unsupportedValue(kind): return "a value with no JSON form: \(kind)"
        }
    }
}
