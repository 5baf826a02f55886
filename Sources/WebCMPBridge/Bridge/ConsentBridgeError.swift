import Foundation

/// Everything that can go wrong around a CMP page. Each case has a stable ``code`` for tools and logs, and keeps the
/// typed error underneath.
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
    /// The save's consent was refused (a TC string that cannot be decoded, IsServiceSpecific = 0, a bad AC, GPP or
    /// US Privacy string, no consent at all); nothing was written. An undecodable TC string is
    /// `.invalidConsent(.invalidMapping(.invalidTCString(error)))` with the decoder's ``IABInAppConsent/TCStringError``, and has the
    /// code ``Code/invalidTCString``.
    case invalidConsent(ConsentCommitError)
    /// The save's TC string, created at `created` (on or after 2026-02-28), has no DisclosedVendors segment, which
    /// TCF 2.3 requires, and ``BridgeConfiguration/missingDisclosedVendors`` is
    /// ``IABInAppConsent/MissingDisclosedVendorsPolicy/refuse``; nothing was written. With the default policy the consent is stored
    /// and a diagnostic is reported instead. The CMP page needs an update (see ``IABInAppConsent/MissingDisclosedVendorsPolicy``).
    case missingDisclosedVendors(created: Date)
    /// Writing to storage failed; the previous consent stays.
    case storageFailed(ConsentStoreError)
    /// The CMP page failed to load (a network error, or an HTTP error status for the main document).
    case loadFailed(WebViewLoadError)
    /// The web content process terminated twice in one run (the first time the page is reloaded).
    case webContentTerminated
    /// The web view could not be set up for the consent UI (a handler name or URL scheme taken); nothing was loaded.
    case webViewSetupFailed(WebViewSetupError)
    /// In ``ConsentUIMode/settings`` mode the CMP did not show its UI: every opener call was refused, threw, was
    /// missing or showed nothing in time (the reason lists them; <doc:PrivacySettings>). Consent is unchanged.
    case privacySettingsNotOpened(String)
    /// The tracking authorization request failed.
    case trackingAuthorizationFailed(TrackingAuthorizationError)

    /// Stable machine-readable codes (their raw values appear in logs and in `webcmp-host --json`). Each names the case
    /// of the same name, except `invalidTCString`: an ``ConsentBridgeError/invalidConsent(_:)`` whose TC string cannot
    /// be decoded (``IABInAppConsent/IABMappingError/invalidTCString(_:)``), kept apart from other refusals because it means the page
    /// produced a broken string.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case timeout, invalidMessage, forbiddenOrigin, notMainFrame, unexpectedDialect, invalidTCString
        case invalidConsent, storageFailed, loadFailed, webContentTerminated, trackingAuthorizationFailed
        case webViewSetupFailed, privacySettingsNotOpened, missingDisclosedVendors
    }

    /// The stable code of this error.
    public var code: Code {
        switch self {
        case .timeout: return .timeout
        case .invalidMessage: return .invalidMessage
        case .forbiddenOrigin: return .forbiddenOrigin
        case .notMainFrame: return .notMainFrame
        case .unexpectedDialect: return .unexpectedDialect
        case .invalidConsent(.invalidMapping(.invalidTCString)): return .invalidTCString
        case .invalidConsent: return .invalidConsent
        case .storageFailed: return .storageFailed
        case .loadFailed: return .loadFailed
        case .webContentTerminated: return .webContentTerminated
        case .trackingAuthorizationFailed: return .trackingAuthorizationFailed
        case .webViewSetupFailed: return .webViewSetupFailed
        case .privacySettingsNotOpened: return .privacySettingsNotOpened
        case .missingDisclosedVendors: return .missingDisclosedVendors
        }
    }

    /// Whether this is a security event (a message rejected because of where it came from).
    public var isSecurityEvent: Bool {
        code == .forbiddenOrigin || code == .notMainFrame
    }

    /// Whether the CMP UI cannot continue after this error (the UI shows it and offers to close).
    public var endsUI: Bool {
        code == .timeout || code == .loadFailed || code == .webContentTerminated || code == .webViewSetupFailed
            || code == .privacySettingsNotOpened
    }

    /// The bridge error for a refused commit (a missing DisclosedVendors segment has a case of its own; an
    /// undecodable TC string has a code of its own, ``Code/invalidTCString``). `webcmp inspect` names its refusals
    /// by this error's code.
    package init(_ error: ConsentCommitError) {
        switch error {
        case .missingDisclosedVendors(let created): self = .missingDisclosedVendors(created: created)
        case .noConsent, .notServiceSpecific, .invalidMapping: self = .invalidConsent(error)
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
        case .invalidConsent(let error): return "the saved consent was refused: \(error)"
        case .storageFailed(let error): return "could not store consent: \(error)"
        case .loadFailed(let error): return "the CMP page failed to load: \(error)"
        case .webContentTerminated: return "the web content process terminated"
        case .trackingAuthorizationFailed(let error): return "tracking authorization failed: \(error)"
        case .webViewSetupFailed(let error): return "the web view could not be set up: \(error)"
        case .privacySettingsNotOpened(let reason): return "the CMP did not open its privacy settings: \(reason)"
        case .missingDisclosedVendors(let created):
            return "the saved consent was refused: " + DisclosedVendorsRule.finding(created: created)
        }
    }
}

/// Why a web view could not load a page, as the adapter reports it.
public struct WebViewLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL that failed, when known.
    public var url: URL?
    /// The HTTP status of the main document, when the failure is an HTTP error status (4xx, 5xx).
    public var statusCode: Int?
    /// The platform's description (e.g. `NSError.localizedDescription`); untrusted text.
    public var reason: String

    /// Creates a load error.
    public init(url: URL?, statusCode: Int? = nil, reason: String) {
        self.url = url
        self.statusCode = statusCode
        self.reason = reason
    }

    public var description: String {
        if let statusCode { return "HTTP status \(statusCode) (\(reason))" }
        return reason
    }
}
