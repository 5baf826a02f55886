import Foundation

/// The decision of ``ConsentGate``: whether the app may start its SDKs now, and with what outcome, or must wait.
/// Pure: it reads only its arguments.
package enum ConsentGateDecision {
    /// The outcome to resume with, or `nil` to keep waiting.
    /// - Parameters:
    ///   - consentRequired: the app's own answer to "do GDPR or US privacy rules apply here?".
    ///   - consentUIHeld: a ``ConsentBridge`` over the same storage holds its consent UI (`ConsentUIHolds`): its UI
    ///     may be on screen, or the tracking prompt the kit requests may be due, showing or settling
    ///     (`BridgeMachine.holdsConsentUI`).
    ///   - renewalReason: ``ConsentBridge/needsConsentUI(store:expiry:now:migration:)``'s answer.
    ///   - record: the stored record (without non-TCF data).
    package static func outcome(
        consentRequired: Bool, consentUIHeld: Bool, renewalReason: ConsentRenewalReason?, record: ConsentRecord?
    ) -> ConsentGateOutcome? {
        // Never while a consent UI or the kit's tracking prompt may be on screen, whatever is stored; then the app's
        // own "not required" before anything stored.
        guard !consentUIHeld else { return nil }
        guard consentRequired else { return .notRequired }
        switch renewalReason {
        // The fallback page's consent is in force until the hosted page shows; a CMP's default signal stored while its
        // UI was unanswered is in force (ad SDKs read the current signal) until the user answers.
        case nil, .hostedPageNotShown?, .notAnswered?:
            if let record, record.gdprApplies == false, record.gppString == nil, record.usPrivacy == nil {
                return .notRequired
            }
            return .consentInForce
        case .noConsent?, .expired?, .tooOld?, .configurationChanged?, .policyVersionChanged?:
            return nil
        }
    }
}
