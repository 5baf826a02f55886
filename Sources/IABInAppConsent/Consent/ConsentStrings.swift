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
    /// The strings, stored as one value: an initializer with a body that stores five fields of `self` had Swift 6.3
    /// copy the whole value into the caller's slot and destroy the original (a retain and a release of each string:
    /// callgrind, ~250 instructions of every save's decode + map); one stored field is made in place.
    private struct Fields: Sendable, Hashable {
        var tcString: String?
        var additionalConsent: String?
        var gppString: String?
        var gppApplicableSections: [Int]?
        var usPrivacy: String?
    }

    private var fields: Fields

    /// The TC string (`IABTCF_TCString`).
    public var tcString: String? {
        get { fields.tcString }
        set { fields.tcString = newValue.nonEmpty }
    }
    /// The Google Additional Consent string (`IABTCF_AddtlConsent`); meaningful only beside a TC string.
    public var additionalConsent: String? {
        get { fields.additionalConsent }
        set { fields.additionalConsent = newValue.nonEmpty }
    }
    /// The GPP string (`IABGPP_HDR_GppString`).
    public var gppString: String? {
        get { fields.gppString }
        set { fields.gppString = newValue.nonEmpty }
    }
    /// The GPP section ids in force, as the CMP's `applicableSections` reports them (`IABGPP_GppSID`); `nil` uses the
    /// GPP header's section ids.
    public var gppApplicableSections: [Int]? {
        get { fields.gppApplicableSections }
        set { fields.gppApplicableSections = newValue }
    }
    /// The US Privacy string (`IABUSPrivacy_String`).
    public var usPrivacy: String? {
        get { fields.usPrivacy }
        set { fields.usPrivacy = newValue.nonEmpty }
    }

    /// Creates the strings; empty strings are stored as `nil`.
    public init(
        tcString: String? = nil, additionalConsent: String? = nil, gppString: String? = nil,
        gppApplicableSections: [Int]? = nil, usPrivacy: String? = nil
    ) {
        fields = Fields(
            tcString: tcString.nonEmpty, additionalConsent: additionalConsent.nonEmpty, gppString: gppString.nonEmpty,
            gppApplicableSections: gppApplicableSections, usPrivacy: usPrivacy.nonEmpty)
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
