import Foundation
import Testing
@testable import IABInAppConsent

/// The consent module's public API throws one error, ``IABConsentError``: a stable code to switch on, the precise
/// error underneath, and a one-line description that quotes page text safely.
@Suite struct IABConsentErrorTests {
    /// A public throwing call, the code it must throw, and the precise error that must be underneath.
    struct PublicCall: Sendable, CustomTestStringConvertible {
        let name: String
        let call: @Sendable () throws(IABConsentError) -> Void
        let code: IABConsentError.Code
        let underlying: @Sendable (any Error) -> Bool

        var testDescription: String { name }
    }

    @Test(arguments: [
        PublicCall(name: "TCString(decoding:)", call: { () throws(IABConsentError) in _ = try TCString(decoding: "") }, code: .invalidTCString,
                   underlying: { $0 as? TCStringError == .empty }),
        PublicCall(name: "GPPString(parsing:)", call: { () throws(IABConsentError) in _ = try GPPString(parsing: "") }, code: .invalidGPPString,
                   underlying: { $0 as? GPPStringError == .empty }),
        PublicCall(name: "GPPString.tcfEUSection()", call: { () throws(IABConsentError) in _ = try GPPString(parsing: "DBABMA~C+").tcfEUSection() },
                   code: .invalidTCString, underlying: { $0 is TCStringError }),
        PublicCall(name: "AdditionalConsent(parsing:)", call: { () throws(IABConsentError) in _ = try AdditionalConsent(parsing: "3~1") },
                   code: .invalidAdditionalConsent, underlying: { $0 as? AdditionalConsentError == .unsupportedVersion("3") }),
        PublicCall(name: "USPrivacySignals(gppString:)", call: { () throws(IABConsentError) in _ = try USPrivacySignals(gppString: "DBABLA~DAAAAAAAAABA") },
                   code: .invalidGPPString,
                   underlying: { $0 as? GPPUSSectionError == .unsupportedVersion(section: 7, version: 3) }),
        PublicCall(name: "ConsentStore.rejectAll()", call: { () throws(IABConsentError) in _ = try ConsentStore.inMemory().rejectAll() },
                   code: .noStoredTCString, underlying: { $0 as? ProgrammaticConsentError == .noStoredTCString }),
        PublicCall(name: "ConsentStore.withdrawConsent()", call: { () throws(IABConsentError) in _ = try ConsentStore.inMemory().withdrawConsent() },
                   code: .noStoredTCString, underlying: { $0 as? ProgrammaticConsentError == .noStoredTCString }),
    ])
    func everyPublicCallThrowsOneErrorWithThePreciseOneUnderneath(_ row: PublicCall) {
        let error = #expect(throws: IABConsentError.self) { try row.call() }
        #expect(error?.code == row.code)
        #expect(error.map { row.underlying($0.underlying) } == true, "\(String(describing: error?.underlying))")
        #expect(error?.description.isEmpty == false)
    }

    @Test(arguments: [
        (IABMappingError.invalidTCString(.empty), IABConsentError.Code.invalidTCString),
        (.invalidAdditionalConsent(.malformed("x")), .invalidAdditionalConsent),
        (.invalidGPPString(.empty), .invalidGPPString),
        (.invalidGPPSection(id: 6, reason: "x"), .invalidGPPString),
        (.invalidGPPTCFSection(.empty), .invalidGPPString),
        (.invalidGPPUSSection(.unsupportedVersion(section: 7, version: 3)), .invalidGPPString),
        (.invalidUSPrivacy("1ZZZ"), .invalidUSPrivacy),
        (.invalidCMPSDKID(4096), .invalidCMPIdentity),
        (.invalidCMPSDKVersion(-1), .invalidCMPIdentity),
        (.invalidApplicableSection(-2), .invalidGPPString),
    ])
    func everyMappingRefusalHasItsCode(_ refusal: IABMappingError, _ code: IABConsentError.Code) {
        let error = IABConsentError(ConsentCommitError.invalidMapping(refusal))
        #expect(error.code == code)
        #expect(error.description == LogText.sanitized(refusal.description))
    }

    @Test func theTransactionsAndTheStoresRefusalsHaveTheirCodes() {
        #expect(IABConsentError(ConsentCommitError.noConsent).code == .noConsent)
        #expect(IABConsentError(ConsentCommitError.notServiceSpecific).code == .notServiceSpecific)
        #expect(IABConsentError(ConsentCommitError.missingDisclosedVendors(created: Date())).code == .missingDisclosedVendors)
        #expect(IABConsentError(ConsentStoreError.foreignKey(IABKey(rawValue: "X"))).code == .storeRefused)
        #expect(IABConsentError(ConsentStoreError.tooLarge(bytes: 2, limit: 1)).code == .storeRefused)
        #expect(IABConsentError(ConsentStoreError.storageUnavailable(suiteName: nil)).code == .storageUnavailable)
        #expect(IABConsentError(ProgrammaticConsentError.encoding(.empty)).code == .invalidTCString)
        #expect(IABConsentError(ProgrammaticConsentError.storage(.recordNotEncodable(reason: "x"))).code == .storeRefused)
    }

    @Test func pageTextInTheDescriptionIsQuotedSafely() {
        let error = IABConsentError(IABMappingError.invalidUSPrivacy("1\n\u{202E}" + String(repeating: "Y", count: 5_000)))
        #expect(!error.description.contains("\n") && !error.description.contains("\u{202E}"))
        #expect(error.description.unicodeScalars.count < 1_200)
        #expect(error.underlying as? IABMappingError != nil)
    }

    @Test func equalByCodeAndDescription() {
        #expect(IABConsentError(TCStringError.empty) == IABConsentError(TCStringError.empty))
        #expect(IABConsentError(TCStringError.empty) != IABConsentError(TCStringError.emptySegment(index: 1)))
        #expect(Set([IABConsentError(TCStringError.empty), IABConsentError(TCStringError.empty)]).count == 1)
    }
}
