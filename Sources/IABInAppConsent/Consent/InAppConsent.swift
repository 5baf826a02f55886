/// The input of the in-app key mapping (``IABKeySet/init(mapping:)``): the consent strings plus the facts that cannot
/// be derived from them. ``ConsentCommit`` resolves those facts (one CMP SDK id/version rule, the page's
/// `gdprApplies` before the configured one) before it maps.
package struct InAppConsent: Sendable, Hashable {
    /// The consent strings.
    package var strings: ConsentStrings
    /// `IABTCF_gdprApplies`: `nil` leaves the key unset ("undetermined").
    package var gdprApplies: Bool?
    /// `IABTCF_CmpSdkID` (0...4095) the app gives; `nil` uses the TC string's `CmpId` (rule: ``CMPIdentity``).
    package var cmpSDKID: Int?
    /// `IABTCF_CmpSdkVersion` (0...2147483647) the app gives; `nil` uses the TC string's `CmpVersion` only when
    /// ``cmpSDKID`` is `nil` too (rule: ``CMPIdentity``).
    package var cmpSDKVersion: Int?

    /// Creates the mapping input.
    package init(strings: ConsentStrings, gdprApplies: Bool? = nil, cmpSDKID: Int? = nil, cmpSDKVersion: Int? = nil) {
        self.strings = strings
        self.gdprApplies = gdprApplies
        self.cmpSDKID = cmpSDKID
        self.cmpSDKVersion = cmpSDKVersion
    }

    /// Creates the mapping input from the individual strings.
    package init(
        tcString: String? = nil, gdprApplies: Bool? = nil, cmpSDKID: Int? = nil, cmpSDKVersion: Int? = nil,
        additionalConsent: String? = nil, gppString: String? = nil, gppApplicableSections: [Int]? = nil,
        usPrivacy: String? = nil
    ) {
        self.init(
            strings: ConsentStrings(
                tcString: tcString, additionalConsent: additionalConsent, gppString: gppString,
                gppApplicableSections: gppApplicableSections, usPrivacy: usPrivacy),
            gdprApplies: gdprApplies, cmpSDKID: cmpSDKID, cmpSDKVersion: cmpSDKVersion)
    }
}
