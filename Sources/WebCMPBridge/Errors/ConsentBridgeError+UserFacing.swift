/// Short texts a consent UI can show a person when the bridge reports an error that ends the UI. They are separate
/// from ``ConsentBridgeError/description``, which is diagnostic text for logs (it can quote what a page sent).
///
/// `WebCMPBridgeUI` shows them localized (its String Catalog has every key of `ConsentChromeText` in 13 languages);
/// an app with its own UI can use ``userFacingMessageKey`` with its own `Localizable.strings`.
extension ConsentBridgeError {
    /// The chrome text for this error, by code. Never contains page-supplied text.
    package var userFacingText: ConsentChromeText {
        switch code {
        case .timeout, .loadFailed: return .errorNotLoaded
        case .webContentTerminated: return .errorStopped
        case .webViewSetupFailed, .privacySettingsNotOpened: return .errorUnavailable
        case .invalidConsent where consentError?.code == .missingDisclosedVendors: return .errorPageOutdated
        case .storageFailed: return .errorNotStored
        case .trackingAuthorizationFailed: return .errorTracking
        default: return .errorNotSaved  // a rejected message or a refused save: nothing was saved
        }
    }

    /// A one-sentence English message for a person (`userFacingText`'s English text).
    public var userFacingMessage: String { userFacingText.english }

    /// The localization key of ``userFacingMessage`` (e.g. `WebCMPBridge.error.notLoaded`).
    public var userFacingMessageKey: String { userFacingText.key }
}
