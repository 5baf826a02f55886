/// How ``ConsentGate/wait(timeout:)`` ended: what the app may start its ad and analytics SDKs with.
public enum ConsentGateOutcome: String, Sendable, Hashable, CaseIterable {
    /// Stored consent is in force (stored, not expired, not to be renewed) and no consent UI or kit-requested
    /// tracking prompt is under way: the IAB keys are written; start the SDKs, which read them.
    case consentInForce
    /// Consent is not needed: the app said so (``ConsentGate/consentRequired`` `false`, e.g. its own
    /// region check), or the CMP page answered that GDPR does not apply (`IABTCF_gdprApplies` 0) with no US string.
    case notRequired
    /// The timeout passed (or the waiting task was cancelled) before either: consent is missing, expired, or the
    /// consent UI or the tracking prompt is still on screen. The SDKs must not treat this as consent: start them
    /// without personalisation, or not yet, and wait again later.
    case timedOut
}
