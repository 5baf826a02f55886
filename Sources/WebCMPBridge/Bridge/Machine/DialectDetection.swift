/// The dialect rules: which handlers the bridge listens to, and what a message on a handler means for the dialect.
///
/// - A configured dialect accepts only its own handler; a message on another is an ``ConsentBridgeError/Code/unexpectedDialect``.
/// - Automatic detection listens to every dialect. A message on an app protocol's handler (Gravito, Onesecondbefore)
///   fixes the dialect. The generic listener (``MessageDialect/isGenericListener``: our TCF forwarder, which runs on
///   every page) is fixed only by its first consent event or its CMP showing UI (``CMPMessage/fixesGenericDialect``),
///   and an app-protocol message still takes over after that: pages with an app protocol usually also run
///   `__tcfapi`. Once an app protocol is fixed, the generic listener's messages are ignored quietly and another app
///   protocol's messages are errors.
/// - In settings mode an app protocol that reports no UI (Gravito, Onesecondbefore) also gets the generic listener as
///   its source of evidence (``MessageDialect/reportsUIShown``): its messages are ignored quietly as messages of the
///   dialect (nothing is stored from them), and only their UI signals and settings-call reports are heard
///   (``BridgeMachine`` privacy settings).
struct DialectDetection: Sendable {
    /// What to do with a message.
    enum Verdict: Equatable, Sendable {
        case accept
        case ignore
        case reject(expected: CMPDialect)
    }

    /// The configured dialect's rules, or `nil` for automatic detection.
    let configured: (any MessageDialect)?
    /// The dialects whose handlers are registered.
    let listened: [any MessageDialect]
    /// The dialect in force: configured or detected.
    private(set) var current: (any MessageDialect)?

    /// Detection among `dialects` (default: every registered one); `configured` fixes the dialect from the start.
    /// `listensForUIEvidence`: a configured dialect that reports no UI also listens to the generic listener.
    init(
        configured: CMPDialect?, dialects: [any MessageDialect] = DialectRegistry.all, listensForUIEvidence: Bool = false
    ) {
        let rules = configured.flatMap { name in dialects.first { $0.dialect == name } }
        self.configured = rules
        current = rules
        guard let rules else {
            listened = dialects
            return
        }
        let evidence = listensForUIEvidence && !rules.reportsUIShown
            ? dialects.first { $0.isGenericListener && $0.reportsUIShown } : nil
        listened = [rules] + (evidence.map { [$0] } ?? [])
    }

    /// Classifies a message of `dialect`; `isConsent` when it fixes the generic dialect (consent, or the CMP's UI shown:
    /// ``CMPMessage/fixesGenericDialect``).
    mutating func classify(_ dialect: any MessageDialect, isConsent: Bool) -> Verdict {
        guard let current else {
            if !dialect.isGenericListener || isConsent { self.current = dialect }
            return .accept
        }
        if current.dialect == dialect.dialect { return .accept }
        if configured != nil, dialect.isGenericListener, listened.contains(where: { $0.dialect == dialect.dialect }) {
            return .ignore   // the evidence listener of a configured app protocol
        }
        if configured == nil {
            if current.isGenericListener {
                self.current = dialect
                return .accept
            }
            if dialect.isGenericListener { return .ignore }
        }
        return .reject(expected: current.dialect)
    }
}
