/// Short texts a consent UI can show a person when the bridge reports an error that ends the UI. They are separate
/// from ``ConsentBridgeError/description``, which is diagnostic text for logs (it can quote what a page sent).
extension ConsentBridgeError {
    /// A one-sentence English message for a person, by error code. Never contains page-supplied text.
    public var userFacingMessage: String {
        switch code {
        case .timeout, .loadFailed:
            return "The privacy settings could not be loaded. Check your connection and try again."
        case .webContentTerminated:
            return "The privacy settings stopped unexpectedly. Please try again."
        case .webViewSetupFailed, .privacySettingsNotOpened:
            return "The privacy settings cannot be shown in this app right now."
        case .invalidMessage, .forbiddenOrigin, .notMainFrame, .unexpectedDialect, .invalidTCString, .invalidConsent:
            return "Your choice could not be saved. Please try again."
        case .storageFailed:
            return "Your choice could not be saved on this device."
        case .trackingAuthorizationFailed:
            return "The tracking permission could not be requested."
        }
    }

    /// The localization key of ``userFacingMessage`` (`WebCMPBridge.error.<code>`): an app localizes the messages in
    /// its own `Localizable.strings` under these keys; the English text is the default value.
    public var userFacingMessageKey: String {
        "WebCMPBridge.error." + code.rawValue
    }
}
