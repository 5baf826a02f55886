/// The consent strings a CMP produces: the one value that every consent type of the package contains (payloads,
/// the mapping input, the stored record, the summary).
///
/// Empty strings count as absent: CMPs report "no string" as `""` as often as they omit it, so every initializer and
/// setter here stores `""` as `nil`.
///
/// Specs: TCF "Transparency and Consent String" v2.2/2.3 (``tcString``); Google "Additional Consent technical
/// specification" (``additionalConsent``); GPP "Consent String Specification" v1 (``gppString``) and GPP CMP API v1.1
/// `applicableSections` (``gppApplicableSections``); IAB "US Privacy String" v1.0 (``usPrivacy``).
public struct ConsentStrings: Sendable, Hashable {
    /// The TC string (`IABTCF_TCString`).
    public var tcString: String? { didSet { tcString = tcString.nonEmpty } }
    /// The Google Additional Consent string (`IABTCF_AddtlConsent`); meaningful only beside a TC string.
    public var additionalConsent: String? { didSet { additionalConsent = additionalConsent.nonEmpty } }
    /// The GPP string (`IABGPP_HDR_GppString`).
    public var gppString: String? { didSet { gppString = gppString.nonEmpty } }
    /// The GPP section ids in force, as the CMP's `applicableSections` reports them (`IABGPP_GppSID`); `nil` uses the
    /// GPP header's section ids.
    public var gppApplicableSections: [Int]?
    /// The US Privacy string (`IABUSPrivacy_String`).
    public var usPrivacy: String? { didSet { usPrivacy = usPrivacy.nonEmpty } }

    /// Creates the strings; empty strings are stored as `nil`.
    public init(
        tcString: String? = nil, additionalConsent: String? = nil, gppString: String? = nil,
        gppApplicableSections: [Int]? = nil, usPrivacy: String? = nil
    ) {
        self.tcString = tcString.nonEmpty
        self.additionalConsent = additionalConsent.nonEmpty
        self.gppString = gppString.nonEmpty
        self.gppApplicableSections = gppApplicableSections
        self.usPrivacy = usPrivacy.nonEmpty
    }

    /// Whether there is consent to store: a TC string, a GPP string or a US Privacy string (an Additional Consent
    /// string alone is not consent).
    public var isEmpty: Bool { tcString == nil && gppString == nil && usPrivacy == nil }
}

extension Optional where Wrapped == String {
    /// The string, or `nil` when it is absent or empty.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
