/// The dialects the kit speaks, in order. Adding a CMP is one file with its ``MessageDialect`` and one line here
/// (see <doc:AddingADialect>).
enum DialectRegistry {
    /// Every registered dialect.
    static let all: [any MessageDialect] = [
        GravitoDialect(),
        OnesecondbeforeDialect(),
        GenericTCFDialect(),
    ]

    /// The rules of the dialect named `name`.
    static func rules(named name: String) -> (any MessageDialect)? {
        all.first { $0.dialect.rawValue == name }
    }

    /// The rules of the dialect whose handler is `handlerName`.
    static func rules(handlerName: String) -> (any MessageDialect)? {
        all.first { $0.handlerName == handlerName }
    }
}
