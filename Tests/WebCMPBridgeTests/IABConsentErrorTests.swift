import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

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

    /// A refused TC string reaches the app one level deep: the bridge error, then the consent error with the
    /// decoder's error underneath (it was four levels).
    @Test func aBrokenTCStringIsOneLevelBelowTheBridgeError() {
        let error = ConsentBridgeError(ConsentCommitError.invalidMapping(.invalidTCString(.emptySegment(index: 1))))
        #expect(error.code == .invalidConsent)
        #expect(error.consentError?.code == .invalidTCString)
        #expect(error.consentError?.underlying as? TCStringError == .emptySegment(index: 1))
        #expect(ConsentBridgeError.storageFailed(IABConsentError(ConsentStoreError.tooLarge(bytes: 2, limit: 1)))
            .consentError?.code == .storeRefused)
        #expect(ConsentBridgeError.timeout(seconds: 1).consentError == nil && ConsentBridgeError.timeout(seconds: 1).underlying == nil)
    }

    /// One design for both errors: open sets of stable names, and no name in both (a consent failure is one bridge
    /// code with the consent error's code underneath).
    @Test func noCodeIsInBothErrorsAndEveryCodeEncodesAsItsStableName() throws {
        let consentCodes: [IABConsentError.Code] = [
            .invalidTCString, .invalidGPPString, .invalidAdditionalConsent, .invalidUSPrivacy, .invalidCMPIdentity,
            .noConsent, .notServiceSpecific, .missingDisclosedVendors, .noStoredTCString, .storeRefused,
            .storageUnavailable,
        ]
        let bridgeNames = Set(ConsentBridgeError.Code.known.map(\.rawValue))
        #expect(bridgeNames.isDisjoint(with: consentCodes.map(\.rawValue)))
        let encoded = try JSONEncoder().encode([ConsentBridgeError.Code.timeout, .invalidConsent])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["timeout","invalidConsent"]"#)
        #expect(try JSONDecoder().decode([IABConsentError.Code].self, from: Data(#"["invalidTCString","newer"]"#.utf8))
            == [.invalidTCString, IABConsentError.Code(rawValue: "newer")])
        #expect(ConsentBridgeError.Code(rawValue: "storageFailed") == .storageFailed)
    }
}
