/// Everything that can go wrong around a CMP page. Each case has a stable ``code`` for tools and logs.
public enum ConsentBridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The page did not become ready in time. Stored consent is untouched unless the app opted in to clearing it.
    case timeout(seconds: Double)
    /// A message was rejected before it was interpreted.
    case invalidMessage(handler: String, InboundMessageError)
    /// A message came from an origin that is not allowed.
    case forbiddenOrigin(handler: String, origin: String)
    /// A message came from a frame other than the main frame.
    case notMainFrame(handler: String)
    /// A message came on a handler of another dialect than the configured or detected one.
    case unexpectedDialect(handler: String, expected: CMPDialect)
    /// The TC string of a save could not be decoded; nothing was written.
    case invalidTCString(TCStringError)
    /// The save's consent could not be turned into IAB keys (bad AC, GPP or US Privacy string, invalid TC string
    /// content); nothing was written.
    case invalidConsent(String)
    /// Writing to storage failed; the previous consent stays.
    case storageFailed(String)
    /// The CMP page failed to load.
    case loadFailed(String)
    /// The web content process terminated.
    case webContentTerminated
    /// The tracking authorization request failed.
    case trackingAuthorizationFailed(TrackingAuthorizationError)

    /// A stable machine-readable code.
    public var code: String {
        switch self {
        case .timeout: return "timeout"
        case .invalidMessage: return "invalidMessage"
        case .forbiddenOrigin: return "forbiddenOrigin"
        case .notMainFrame: return "notMainFrame"
        case .unexpectedDialect: return "unexpectedDialect"
        case .invalidTCString: return "invalidTCString"
        case .invalidConsent: return "invalidConsent"
        case .storageFailed: return "storageFailed"
        case .loadFailed: return "loadFailed"
        case .webContentTerminated: return "webContentTerminated"
        case .trackingAuthorizationFailed: return "trackingAuthorizationFailed"
        }
    }

    /// Whether this is a security event (a message rejected because of where it came from).
    public var isSecurityEvent: Bool {
        switch self {
        case .forbiddenOrigin, .notMainFrame: return true
        default: return false
        }
    }

    /// A one-line message. Text that came from a page is quoted safely: control, format (bidirectional overrides,
    /// zero-width characters) and line separator characters appear as `\u{XXXX}`, and the message is cut after
    /// 1,000 characters.
    public var description: String {
        LogText.sanitized(unsanitizedDescription)
    }

    private var unsanitizedDescription: String {
        switch self {
        case .timeout(let seconds): return "the CMP page did not become ready within \(seconds) s"
        case let .invalidMessage(handler, error): return "rejected a message on '\(handler)': \(error)"
        case let .forbiddenOrigin(handler, origin): return "rejected a message on '\(handler)' from the origin \(origin)"
        case .notMainFrame(let handler): return "rejected a message on '\(handler)' from a frame other than the main frame"
        case let .unexpectedDialect(handler, expected):
            return "rejected a message on '\(handler)': the page speaks the \(expected.rawValue) dialect"
        case .invalidTCString(let error): return "the saved TC string is invalid: \(error)"
        case .invalidConsent(let reason): return "the saved consent is invalid: \(reason)"
        case .storageFailed(let reason): return "could not store consent: \(reason)"
        case .loadFailed(let reason): return "the CMP page failed to load: \(reason)"
        case .webContentTerminated: return "the web content process terminated"
        case .trackingAuthorizationFailed(let error): return "tracking authorization failed: \(error)"
        }
    }
}
