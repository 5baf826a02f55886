import Foundation

/// The one error the bridge reports: a stable ``code`` to switch on, the precise error underneath and a one-line
/// ``description``.
///
/// Every failure around a CMP page — a page that does not load or become ready, a rejected message, consent that is
/// refused or cannot be stored, a web view that cannot be set up, a failed tracking request — arrives as a
/// `ConsentBridgeError` in ``ConsentBridgeEvent/error(_:)`` (the UI goes on) or ``ConsentBridgeEvent/failed(_:)`` (the
/// UI cannot go on; the bridge decides which). Decide by ``code``; consent and storage failures
/// (``Code/invalidConsent``, ``Code/storageFailed``) carry the ``IABInAppConsent/IABConsentError`` of the consent
/// module as ``consentError`` (one level, its own code says which string was broken). ``underlying`` keeps the precise error for logs and debugging; its type is not public API.
///
/// ```swift
/// func handle(_ event: ConsentBridgeEvent) {
///     switch event {
///     case .failed(let error):
///         // The UI ends; stored consent is unchanged.
///         print("CMP UI failed (\(error.code.rawValue)): \(error.userFacingMessage)")
///     case .error(let error) where error.consentError?.code == .invalidTCString:
///         print("The CMP page saved a broken TC string: \(error.consentError?.description ?? error.description)")
///     case .error(let error) where error.isSecurityEvent:
///         print("Rejected a message: \(error)")
///     default:
///         break
///     }
/// }
/// ```
///
/// (Compiled in <doc:HandlingErrors>, which also says which failures end the UI.)
public struct ConsentBridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, stable across releases (its ``rawValue`` appears in logs and in `webcmp-host --json`; it is
    /// encoded as that one string). An open set, like ``IABInAppConsent/IABConsentError/Code``: a minor release may
    /// add a code without breaking an app's `switch`, which therefore needs a `default` (<doc:HandlingErrors>).
    ///
    /// A consent failure has one code here, ``invalidConsent`` (refused) or ``storageFailed`` (not stored), and the
    /// consent module's error underneath as ``ConsentBridgeError/consentError``: its code says which string or rule
    /// failed (``IABInAppConsent/IABConsentError/Code/invalidTCString``,
    /// ``IABInAppConsent/IABConsentError/Code/missingDisclosedVendors`` …). No code is in both sets.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The code's stable name.
        public let rawValue: String

        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's stable name.
        public var description: String { rawValue }

        /// The page did not become ready in time. Stored consent is untouched unless the app opted in to clearing it.
        public static let timeout = Code(rawValue: "timeout")
        /// A message was rejected before it was interpreted (too large, not JSON, an unknown type, a bad field …).
        public static let invalidMessage = Code(rawValue: "invalidMessage")
        /// A message came from an origin that is not allowed.
        public static let forbiddenOrigin = Code(rawValue: "forbiddenOrigin")
        /// A message came from a frame other than the main frame.
        public static let notMainFrame = Code(rawValue: "notMainFrame")
        /// A message came on a handler of another dialect than the configured or detected one.
        public static let unexpectedDialect = Code(rawValue: "unexpectedDialect")
        /// The save's consent was refused; nothing was written. ``ConsentBridgeError/consentError`` says why: its
        /// code is ``IABInAppConsent/IABConsentError/Code/invalidTCString`` for a TC string that does not decode,
        /// ``IABInAppConsent/IABConsentError/Code/missingDisclosedVendors`` when
        /// ``BridgeConfiguration/missingDisclosedVendors`` is ``IABInAppConsent/MissingDisclosedVendorsPolicy/refuse``
        /// and the TC string lacks TCF 2.3's DisclosedVendors segment (the CMP page needs an update), or another
        /// (IsServiceSpecific = 0, a bad AC, GPP or US Privacy string, no consent at all).
        public static let invalidConsent = Code(rawValue: "invalidConsent")
        /// Writing to storage failed; the previous consent stays. ``ConsentBridgeError/consentError`` says why.
        public static let storageFailed = Code(rawValue: "storageFailed")
        /// The CMP page failed to load (a network error, or an HTTP error status for the main document).
        public static let loadFailed = Code(rawValue: "loadFailed")
        /// The web content process terminated twice in one run (the first time the page is reloaded).
        public static let webContentTerminated = Code(rawValue: "webContentTerminated")
        /// The tracking authorization request failed.
        public static let trackingAuthorizationFailed = Code(rawValue: "trackingAuthorizationFailed")
        /// The web view could not be set up for the consent UI (a handler name or URL scheme taken); nothing was
        /// loaded.
        public static let webViewSetupFailed = Code(rawValue: "webViewSetupFailed")
        /// In ``ConsentUIMode/settings`` mode the CMP did not show its UI: every opener call was refused, threw, was
        /// missing or showed nothing in time (the description lists them; <doc:PrivacySettings>). Consent is
        /// unchanged.
        public static let privacySettingsNotOpened = Code(rawValue: "privacySettingsNotOpened")

        /// Every code this release reports, for tables that must cover them all.
        package static let known: [Code] = [
            .timeout, .invalidMessage, .forbiddenOrigin, .notMainFrame, .unexpectedDialect, .invalidConsent,
            .storageFailed, .loadFailed, .webContentTerminated, .trackingAuthorizationFailed, .webViewSetupFailed,
            .privacySettingsNotOpened,
        ]
    }

    /// What went wrong.
    public let code: Code
    /// The precise error, when there is one (for consent and storage failures the ``consentError``); for logs, tests
    /// and debugging.
    public let underlying: (any Error & Sendable)?
    /// A one-line message. Text that came from a page is quoted safely: control, format (bidirectional overrides,
    /// zero-width characters) and line separator characters appear as `\u{XXXX}`, and the message is cut after
    /// 1,000 characters.
    public let description: String

    /// An error with `code`, the precise `underlying` error and its `description` (sanitized here).
    package init(_ code: Code, underlying: (any Error & Sendable)?, description: String) {
        self.code = code
        self.underlying = underlying
        self.description = LogText.sanitized(description)
    }

    /// The consent module's error, for ``Code/invalidConsent`` and ``Code/storageFailed``: its code says which string
    /// or rule failed. `nil` otherwise.
    public var consentError: IABConsentError? { underlying as? IABConsentError }

    /// Whether this is a security event (a message rejected because of where it came from).
    public var isSecurityEvent: Bool {
        code == .forbiddenOrigin || code == .notMainFrame
    }

    /// Equal when code and description are.
    public static func == (lhs: ConsentBridgeError, rhs: ConsentBridgeError) -> Bool {
        lhs.code == rhs.code && lhs.description == rhs.description
    }

    /// Hashes code and description.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(description)
    }
}

/// Why a web view could not load a page, as the adapter reports it.
package struct WebViewLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL that failed, when known.
    package var url: URL?
    /// The HTTP status of the main document, when the failure is an HTTP error status (4xx, 5xx).
    package var statusCode: Int?
    /// The platform's description (e.g. `NSError.localizedDescription`); untrusted text.
    package var reason: String

    /// Creates a load error.
    package init(url: URL?, statusCode: Int? = nil, reason: String) {
        self.url = url
        self.statusCode = statusCode
        self.reason = reason
    }

    public var description: String {
        if let statusCode { return "HTTP status \(statusCode) (\(reason))" }
        return reason
    }
}
