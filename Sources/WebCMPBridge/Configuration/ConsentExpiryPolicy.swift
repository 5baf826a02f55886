import Foundation

/// When stored consent must be asked for again.
///
/// The TCF policy asks CMPs to re-ask at least every 13 months; the default maximum age of 390 days follows that
/// guidance (TCF Policies, Appendix B and the IAB Europe "13 months" guidance).
public struct ConsentExpiryPolicy: Sendable, Hashable {
    /// The longest stored consent is used. Default 390 days.
    public var maximumAge: TimeInterval
    /// The CMP configuration version the app currently ships; stored consent given under another version is renewed.
    public var currentConfigVersion: String?
    /// The lowest acceptable `TcfPolicyVersion`; stored TC strings below it are renewed. Default 4 (TCF 2.2).
    public var minimumPolicyVersion: Int?
    /// Whether consent the user gave on the app's bundled fallback page (``IABInAppConsent/ConsentProvenance/Source/fallbackPage``) asks for the
    /// hosted page again (``ConsentRenewalReason/hostedPageNotShown``), so that the publisher's current texts and
    /// vendor list eventually apply. Default `true`. Ask ``ConsentBridge/needsConsentUI(store:expiry:now:migration:)``
    /// at launch and when the network becomes reachable again.
    public var retriesHostedPage = true
    /// How long after the user refused everything the kit does not ask again (seconds); `nil`, the default, asks
    /// whenever another rule says so. Within it, ``ConsentBridge/needsConsentUI(store:expiry:now:migration:)`` does not
    /// report ``ConsentRenewalReason/expired``, ``ConsentRenewalReason/tooOld``,
    /// ``ConsentRenewalReason/configurationChanged`` or ``ConsentRenewalReason/hostedPageNotShown`` for a refusal
    /// (it still reports ``ConsentRenewalReason/noConsent`` and ``ConsentRenewalReason/policyVersionChanged``: a
    /// string the TCF no longer accepts is renewed). The period counts from ``IABInAppConsent/ConsentRecord/savedAt``.
    ///
    /// A refusal is read from the stored consent alone: a record the app's own reject-all or withdrawal wrote
    /// (``IABInAppConsent/ConsentProvenance/Action/rejectAll``, ``IABInAppConsent/ConsentProvenance/Action/withdrawal``), or a TC string without any purpose consent or legitimate
    /// interest, special feature opt-in, vendor consent or legitimate interest, or publisher purpose consent or
    /// legitimate interest. Consent without a TC string (GPP or US Privacy only) is never a refusal: a US opt-out is
    /// not a refused consent request. See <doc:ReaskingAfterRefusal> for the EU Digital Omnibus proposal (six months)
    /// and the TCF's rules.
    public var quietPeriodAfterRejection: TimeInterval?

    /// Creates a policy.
    public init(maximumAge: TimeInterval = 390 * 86_400, currentConfigVersion: String? = nil, minimumPolicyVersion: Int? = 4) {
        self.maximumAge = maximumAge
        self.currentConfigVersion = currentConfigVersion
        self.minimumPolicyVersion = minimumPolicyVersion
    }

    /// Why `record` needs renewal at `now`, or `nil` when it is still good. Reads only the record: no web view, no
    /// full TC string decode (the policy version is read from its fixed position).
    func renewalReason(for record: ConsentRecord?, now: Date) -> ConsentRenewalReason? {
        let reason = reasonIgnoringRefusal(for: record, now: now)
        guard let reason, let record, let quietPeriod = quietPeriodAfterRejection,
            Self.quietPeriodDefers(reason), now.timeIntervalSince(record.savedAt) < quietPeriod,
            Self.isRefusal(record)
        else { return reason }
        return nil
    }

    /// Whether the quiet period after a refusal holds back `reason`.
    static func quietPeriodDefers(_ reason: ConsentRenewalReason) -> Bool {
        switch reason {
        case .expired, .tooOld, .configurationChanged, .hostedPageNotShown: return true
        case .noConsent, .policyVersionChanged, .notAnswered: return false
        }
    }

    /// Whether `record` is a refusal of everything (see ``quietPeriodAfterRejection``). Decodes the TC string: only
    /// called when a quiet period is set and another rule would ask.
    static func isRefusal(_ record: ConsentRecord) -> Bool {
        guard let tcString = record.tcString else { return false }
        if record.provenance.action == .rejectAll || record.provenance.action == .withdrawal { return true }
        return (try? TCString(decoding: tcString))?.isRejectAll ?? false
    }

    /// ``renewalReason(for:now:)`` without the quiet period after a refusal.
    private func reasonIgnoringRefusal(for record: ConsentRecord?, now: Date) -> ConsentRenewalReason? {
        // A page that said GDPR does not apply (no TC string, `gdprApplies` false) is an answer in force too.
        guard let record, record.tcString != nil || record.gppString != nil || record.gdprApplies == false else {
            return .noConsent
        }
        if let expiration = record.expirationDate, expiration <= now { return .expired }
        if now.timeIntervalSince(record.savedAt) > maximumAge { return .tooOld }
        if let currentConfigVersion, record.configVersion != currentConfigVersion { return .configurationChanged }
        if let minimumPolicyVersion, let tcString = record.tcString {
            guard let version = Self.policyVersion(of: tcString) else { return .noConsent }
            if version < minimumPolicyVersion { return .policyVersionChanged }
        }
        if retriesHostedPage, record.source == .fallbackPage { return .hostedPageNotShown }
        if record.provenance.action == .noChoiceWhileUIShown { return .notAnswered }
        return nil
    }

    /// `TcfPolicyVersion` (bits 132–137, exactly the 23rd base64url character) without decoding the string.
    static func policyVersion(of tcString: String) -> Int? {
        let utf8 = tcString.utf8
        guard utf8.count > 22, utf8.first == UInt8(ascii: "C") else { return nil }
        let byte = utf8[utf8.index(utf8.startIndex, offsetBy: 22)]
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte - UInt8(ascii: "a")) + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0")) + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}

/// Why consent has to be asked for (again).
public enum ConsentRenewalReason: String, Sendable, Hashable {
    /// Nothing is stored (or what is stored is unreadable).
    case noConsent
    /// The CMP's expiration date has passed.
    case expired
    /// The consent is older than the maximum age.
    case tooOld
    /// The CMP configuration version moved on.
    case configurationChanged
    /// The stored TC string's policy version is below the minimum.
    case policyVersionChanged
    /// The consent was given on the app's bundled fallback page because the hosted page could not be loaded; show
    /// the hosted page once it is reachable (``ConsentExpiryPolicy/retriesHostedPage``). The stored consent is in
    /// force meanwhile: the IAB keys are written.
    case hostedPageNotShown
    /// The CMP signalled its default (a US CMP's "not opted out", `signalStatus: ready`) while its UI was on screen,
    /// and the user did not answer before the run ended (the app was ended with the banner up): the record says
    /// ``IABInAppConsent/ConsentProvenance/Action/noChoiceWhileUIShown``. The signal is in force (the IAB keys are
    /// written, as ad SDKs must read the current signal); show the CMP so that the user gets the choice. A CMP that
    /// never shows its UI (no notice needed in that region) is answered by its signal and never gives this reason.
    case notAnswered
}
