/// App Tracking Transparency status, mirroring `ATTrackingManager.AuthorizationStatus`.
public enum TrackingAuthorizationStatus: String, Sendable, Hashable {
    /// The user has not been asked yet.
    case notDetermined
    /// Restricted by the device (e.g. parental controls).
    case restricted
    /// The user denied tracking.
    case denied
    /// The user allowed tracking.
    case authorized
    /// The platform has no App Tracking Transparency (e.g. Linux, or before iOS 14).
    case unavailable
}

/// When the kit may ask for App Tracking Transparency. The kit never prompts unless the app enables it.
///
/// The default marketing purposes (2–6: basic ads, ads profile, personalised ads, content profile, personalised
/// content) follow Onesecondbefore's guidance for chaining ATT to a TCF CMP.
///
/// Bound by the kit's promises over a session: <doc:SessionPromises> (promise 3).
public struct TrackingPolicy: Sendable, Hashable {
    /// When the prompt happens.
    enum Timing: String, Sendable, Hashable {
        /// After a save whose purpose consents intersect ``TrackingPolicy/marketingPurposes``.
        case afterConsent
        /// Before the CMP loads (the CMP page then loads whatever the user chose).
        case beforeCMP
    }

    /// Whether the kit may prompt at all.
    var isEnabled: Bool
    /// When it prompts.
    var timing: Timing
    /// Purposes that count as marketing consent.
    var marketingPurposes: IDSet

    /// Creates a policy.
    init(isEnabled: Bool, timing: Timing = .afterConsent, marketingPurposes: IDSet = [2, 3, 4, 5, 6]) {
        self.isEnabled = isEnabled
        self.timing = timing
        self.marketingPurposes = marketingPurposes
    }

    /// Never prompt (the default).
    public static let disabled = TrackingPolicy(isEnabled: false)

    /// Prompt after consent that grants any marketing purpose.
    public static func afterConsent(marketingPurposes: IDSet = [2, 3, 4, 5, 6]) -> TrackingPolicy {
        TrackingPolicy(isEnabled: true, timing: .afterConsent, marketingPurposes: marketingPurposes)
    }

    /// Prompt before the CMP loads.
    public static let beforeCMP = TrackingPolicy(isEnabled: true, timing: .beforeCMP)

    /// Whether to prompt after a save of `purposeConsents` (the TC string's), given the current `status` and whether
    /// this consent was already followed by a prompt.
    func shouldRequestAfterConsent(
        purposeConsents: IDSet, status: TrackingAuthorizationStatus, alreadyRequestedForThisConsent: Bool
    ) -> Bool {
        guard isEnabled, timing == .afterConsent, status == .notDetermined, !alreadyRequestedForThisConsent else {
            return false
        }
        return marketingPurposes.contains { purposeConsents.contains($0) }
    }

    /// Whether to prompt before loading the CMP, given the current `status`.
    func shouldRequestBeforeCMP(status: TrackingAuthorizationStatus) -> Bool {
        isEnabled && timing == .beforeCMP && status == .notDetermined
    }
}
