/// The name of a postMessage protocol that a hosted CMP page speaks to the app: ``gravito``, ``onesecondbefore``, or
/// the generic ``tcf`` dialect that listens through the page's standard `__tcfapi` and `__gpp`.
///
/// An open set, like `HTTPField.Name`: each dialect the kit speaks is one file in `Sources/WebCMPBridge/Dialects`
/// (its rules: what it decodes, when its page is ready, when its UI ends, how its settings open, what is injected)
/// and one line in the kit's registry (see <doc:AddingADialect>). Only registered dialects can be created from a
/// raw value or decoded.
public struct CMPDialect: RawRepresentable, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The dialect's name (`"gravito"`, `"onesecondbefore"`, `"tcf"`).
    public let rawValue: String

    /// The registered dialect named `rawValue`, or `nil` when the kit does not speak it.
    public init?(rawValue: String) {
        guard DialectRegistry.rules(named: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// A dialect's name as its rules declare it (registration does not check it; ``init(rawValue:)`` does).
    init(registering rawValue: String) {
        self.rawValue = rawValue
    }

    /// The dialect whose handler is `name`, if any.
    init?(handlerName name: String) {
        guard let rules = DialectRegistry.rules(handlerName: name) else { return nil }
        self = rules.dialect
    }

    /// Every dialect the kit speaks, in registration order.
    public static var allCases: [CMPDialect] { DialectRegistry.all.map(\.dialect) }

    /// The script message handler name the page posts to.
    var handlerName: String { rules?.handlerName ?? rawValue }

    /// The dialect's rules (`nil` only for a name that was never registered).
    var rules: (any MessageDialect)? { DialectRegistry.rules(named: rawValue) }

    public var description: String { rawValue }

    /// Decodes a registered dialect's name.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let dialect = CMPDialect(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "unknown CMP dialect '\(name)'"))
        }
        self = dialect
    }

    /// Encodes the dialect's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
