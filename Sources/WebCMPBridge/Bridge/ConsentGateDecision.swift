import Foundation

/// The decision of ``ConsentGate``: whether the app may start its SDKs now, and with what outcome, or must wait.
/// Pure: it reads only its arguments.
package enum ConsentGateDecision {
    /// The outcome to resume with, or `nil` to keep waiting.
    /// - Parameters:
    ///   - consentRequired: the app's own answer to "do GDPR or US privacy rules apply here?".
    ///   - runInProgress: a ``ConsentBridge`` over the same storage is attached and not yet invalidated: its consent
    ///     UI may be on screen, or the tracking prompt the kit requests after it may be due or showing.
    ///   - renewalReason: ``ConsentBridge/needsConsentUI(store:expiry:now:migration:)``'s answer.
    ///   - record: the stored record (without non-TCF data).
    package static func outcome(
        consentRequired: Bool, runInProgress: Bool, renewalReason: ConsentRenewalReason?, record: ConsentRecord?
    ) -> ConsentGateOutcome? {
        // Never while a consent UI or the kit's tracking prompt may be on screen, whatever is stored.
        guard !runInProgress else { return nil }
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
