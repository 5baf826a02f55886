/// The module's precise errors as the one public ``IABConsentError``: each picks its code, keeps the innermost precise
/// error as ``IABConsentError/underlying`` and its own sentence as the description.
extension IABConsentError {
    /// A TC string decoding or encoding failure.
    package init(_ error: TCStringError) {
        self.init(.invalidTCString, underlying: error, description: "The TC string is invalid: \(error)")
    }

    /// A GPP string failure.
    package init(_ error: GPPStringError) {
        self.init(.invalidGPPString, underlying: error, description: "The GPP string is invalid: \(error)")
    }

    /// An Additional Consent string failure.
    package init(_ error: AdditionalConsentError) {
        self.init(.invalidAdditionalConsent, underlying: error, description: "The Additional Consent string is invalid: \(error)")
    }

    /// A mapping failure; the underlying error is the decoder's when there is one.
    package init(_ error: IABMappingError) {
        let description = error.description
        switch error {
        case .invalidTCString(let inner): self.init(.invalidTCString, underlying: inner, description: description)
        case .invalidAdditionalConsent(let inner):
            self.init(.invalidAdditionalConsent, underlying: inner, description: description)
        case .invalidGPPString(let inner): self.init(.invalidGPPString, underlying: inner, description: description)
        case .invalidGPPTCFSection(let inner): self.init(.invalidGPPString, underlying: inner, description: description)
        case .invalidGPPUSSection(let inner): self.init(.invalidGPPString, underlying: inner, description: description)
        case .invalidGPPSection, .invalidApplicableSection:
            self.init(.invalidGPPString, underlying: error, description: description)
        case .invalidUSPrivacy: self.init(.invalidUSPrivacy, underlying: error, description: description)
        case .invalidCMPSDKID, .invalidCMPSDKVersion:
            self.init(.invalidCMPIdentity, underlying: error, description: description)
        }
    }

    /// A refusal of the consent transaction.
    package init(_ error: ConsentCommitError) {
        switch error {
        case .invalidMapping(let inner): self.init(inner)
        case .noConsent: self.init(.noConsent, underlying: error, description: error.description)
        case .notServiceSpecific:
            self.init(.notServiceSpecific, underlying: error, description: error.description)
        case .missingDisclosedVendors:
            self.init(.missingDisclosedVendors, underlying: error, description: error.description)
        }
    }

    /// A refusal of the store.
    package init(_ error: ConsentStoreError) {
        let code: Code = if case .storageUnavailable = error { .storageUnavailable } else { .storeRefused }
        self.init(code, underlying: error, description: error.description)
    }

    /// A failure of a programmatic rejection or withdrawal.
    package init(_ error: ProgrammaticConsentError) {
        switch error {
        case .noStoredTCString:
            self.init(.noStoredTCString, underlying: error, description: "Nothing to reject: \(error).")
        case .encoding(let inner):
            self.init(.invalidTCString, underlying: inner, description: "The rejected TC string cannot be encoded: \(inner)")
        case .commit(let inner): self.init(inner)
        case .storage(let inner): self.init(inner)
        }
    }
}
