/// Everything the in-app key mapping needs: the consent strings a CMP produced and the facts that cannot be derived
/// from them (`gdprApplies`, the CMP SDK id and version).
///
/// Empty strings count as absent: CMPs report "no string" as `""` as often as they omit it.
/// Map it with ``IABKeySet/init(mapping:)``.
public struct InAppConsent: Sendable, Hashable {
    /// The raw TC string. It is decoded by the mapping and stored verbatim in `IABTCF_TCString`.
    public var tcString: String?
    /// `IABTCF_gdprApplies`: `nil` leaves the key unset ("undetermined").
    public var gdprApplies: Bool?
    /// `IABTCF_CmpSdkID` (0...4095); `nil` uses the TC string's `CmpId`.
    public var cmpSDKID: Int?
    /// `IABTCF_CmpSdkVersion` (0...2147483647). `nil` uses the TC string's `CmpVersion` only when ``cmpSDKID`` is `nil`
    /// too (an SDK id is never paired with another CMP's version); otherwise the key is left unset.
    public var cmpSDKVersion: Int?
    /// Google Additional Consent string, `IABTCF_AddtlConsent`.
    public var additionalConsent: String?
    /// GPP string, for the `IABGPP_*` keys.
    public var gppString: String?
    /// GPP applicable section ids (`IABGPP_GppSID`, joined by `_`), as the CMP's `applicableSections` reports them
    /// (`-1` and `0` are kept as given); `nil` uses the GPP header's section ids.
    public var gppApplicableSections: [Int]?
    /// US Privacy string, `IABUSPrivacy_String`.
    public var usPrivacy: String?

    /// Creates the mapping input.
    public init(
        tcString: String? = nil,
        gdprApplies: Bool? = nil,
        cmpSDKID: Int? = nil,
        cmpSDKVersion: Int? = nil,
        additionalConsent: String? = nil,
        gppString: String? = nil,
        gppApplicableSections: [Int]? = nil,
        usPrivacy: String? = nil
    ) {
        self.tcString = tcString
        self.gdprApplies = gdprApplies
        self.cmpSDKID = cmpSDKID
        self.cmpSDKVersion = cmpSDKVersion
        self.additionalConsent = additionalConsent
        self.gppString = gppString
        self.gppApplicableSections = gppApplicableSections
        self.usPrivacy = usPrivacy
    }
}
