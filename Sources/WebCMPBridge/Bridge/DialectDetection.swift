/// The dialect rules: which handlers the bridge listens to, and what a message on a handler means for the dialect.
///
/// - A configured dialect accepts only its own handler; a message on another is an ``ConsentBridgeError/unexpectedDialect(handler:expected:)``.
/// - Automatic detection listens to every dialect. A message on the Gravito or Onesecondbefore handler fixes the
///   dialect. The generic TCF dialect (our forwarder, which runs on every page) is fixed only by its first consent
///   event or its CMP showing UI (``CMPMessage/fixesGenericDialect``), and an app-protocol message still takes over
///   after that: pages with an app protocol usually also run `__tcfapi`. Once an app protocol is fixed, forwarder
///   messages are ignored quietly and the other app protocol's messages are errors.
struct DialectDetection: Sendable {
    /// What to do with a message.
    enum Verdict: Equatable {
        case accept
        case ignore
        case reject(expected: CMPDialect)
    }

    /// The configured dialect, or `nil` for automatic detection.
    let configured: CMPDialect?
    /// The dialect in force: configured or detected.
    private(set) var current: CMPDialect?

    init(configured: CMPDialect?) {
        self.configured = configured
        current = configured
    }

    /// The dialects whose handlers are registered.
    var listened: [CMPDialect] { configured.map { [$0] } ?? CMPDialect.allCases }

    /// Classifies a message of `dialect`; `isConsent` when it fixes the generic dialect (consent, or the CMP's UI shown:
    /// ``CMPMessage/fixesGenericDialect``).
    mutating func classify(_ dialect: CMPDialect, isConsent: Bool) -> Verdict {
        guard let current else {
            if dialect != .tcf || isConsent { self.current = dialect }
            return .accept
        }
        if current == dialect { return .accept }
        if configured == nil {
            if current == .tcf {
                self.current = dialect
                return .accept
            }
            if dialect == .tcf { return .ignore }
        }
        return .reject(expected: current)
    }
}
