import Foundation

/// The bridge's failures as ``ConsentBridgeError`` values: one factory per code, each with its precise error
/// underneath and its sentence.
extension ConsentBridgeError {
    /// The page did not become ready within `seconds`.
    package static func timeout(seconds: Double) -> Self {
        Self(.timeout, underlying: nil, description: "the CMP page did not become ready within \(seconds) s")
    }

    /// A message on `handler` was rejected before it was interpreted.
    package static func invalidMessage(handler: String, _ error: InboundMessageError) -> Self {
        Self(.invalidMessage, underlying: error, description: "rejected a message on '\(handler)': \(error)")
    }

    /// A message on `handler` came from a forbidden origin.
    package static func forbiddenOrigin(handler: String, origin: String) -> Self {
        Self(.forbiddenOrigin, underlying: nil, description: "rejected a message on '\(handler)' from the origin \(origin)")
    }

    /// A message on `handler` came from a frame other than the main frame.
    package static func notMainFrame(handler: String) -> Self {
        Self(.notMainFrame, underlying: nil,
             description: "rejected a message on '\(handler)' from a frame other than the main frame")
    }

    /// A message came on `handler`, but the page speaks `expected`.
    package static func unexpectedDialect(handler: String, expected: CMPDialect) -> Self {
        Self(.unexpectedDialect, underlying: nil,
             description: "rejected a message on '\(handler)': the page speaks the \(expected.rawValue) dialect")
    }

    /// The save's consent was refused (``Code/invalidConsent``); the consent module's `error` underneath says why.
    /// `webcmp inspect` names its refusals by that error's code.
    package static func invalidConsent(_ error: IABConsentError) -> Self {
        Self(.invalidConsent, underlying: error, description: "the saved consent was refused: \(error)")
    }

    /// ``invalidConsent(_:)`` for the transaction's precise refusal.
    package init(_ error: ConsentCommitError) {
        self = .invalidConsent(IABConsentError(error))
    }

    /// Writing to storage failed.
    package static func storageFailed(_ error: IABConsentError) -> Self {
        Self(.storageFailed, underlying: error, description: "could not store consent: \(error)")
    }

    /// The CMP page failed to load.
    package static func loadFailed(_ error: WebViewLoadError) -> Self {
        Self(.loadFailed, underlying: error, description: "the CMP page failed to load: \(error)")
    }

    /// The web content process terminated twice in one run.
    package static var webContentTerminated: Self {
        Self(.webContentTerminated, underlying: nil, description: "the web content process terminated")
    }

    /// The web view could not be set up.
    package static func webViewSetupFailed(_ error: WebViewSetupError) -> Self {
        Self(.webViewSetupFailed, underlying: error, description: "the web view could not be set up: \(error)")
    }

    /// The fallback page's configuration is invalid (a web view could not serve it): ``Code/webViewSetupFailed``.
    package static func invalidFallbackPage(_ error: FallbackPage.ConfigurationError) -> Self {
        Self(.webViewSetupFailed, underlying: error, description: "the fallback page cannot be set up: \(error)")
    }

    /// The CMP did not open its privacy settings, for `reason`.
    package static func privacySettingsNotOpened(_ reason: String) -> Self {
        Self(.privacySettingsNotOpened, underlying: nil,
             description: "the CMP did not open its privacy settings: \(reason)")
    }

    /// The error a ``TrackingAuthorizer`` the app builds throws when it cannot make the request, for `reason`:
    /// ``Code/trackingAuthorizationFailed``.
    public static func trackingAuthorizationFailed(reason: String) -> Self {
        .trackingAuthorizationFailed(.unavailable(reason))
    }

    /// The tracking authorization request failed.
    package static func trackingAuthorizationFailed(_ error: TrackingAuthorizationError) -> Self {
        Self(.trackingAuthorizationFailed, underlying: error, description: "tracking authorization failed: \(error)")
    }
}
