import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// ``ConsentBridgeError`` beside ``IABConsentError``: a consent failure is one bridge code with the consent error's
/// code underneath, and no stable name is in both.
@Suite struct ConsentBridgeErrorTests {
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
