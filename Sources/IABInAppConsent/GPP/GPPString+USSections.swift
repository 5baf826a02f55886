/// The US sections (ids 7–27) of a GPP string, decoded for the per-field in-app keys.
///
/// Spec: GPP CMP API v1.1, "In-App Details" (per-field keys `IABGPP_` + section prefix + `_` + field name, with the
/// data-type conversion table); team reference `iab-inapp-keys.md` §2.6 for the upper-cased API-name prefix.
extension GPPString {
    /// Every section of the string that the US catalog describes, decoded, in header order. Other sections (TCF EU,
    /// TCF Canada, US Privacy, unknown ids) are skipped.
    ///
    /// - Throws: ``IABMappingError/invalidGPPUSSection(_:)`` for the first section that does not decode.
    func usSections() throws(IABMappingError) -> [GPPUSSectionData] {
        var decoded: [GPPUSSectionData] = []
        for section in sections {
            guard let description = GPPUSSection.catalog[section.id] else { continue }
            do {
                decoded.append(try description.decode(section.string))
            } catch {
                throw .invalidGPPUSSection(error)
            }
        }
        return decoded
    }

    /// The per-field keys of every US section (`IABGPP_USNAT_SaleOptOut`, `IABGPP_USCA_Gpc`, …); see
    /// ``GPPUSSectionData/keys``.
    func usSectionKeys() throws(IABMappingError) -> [IABKey: IABValue] {
        var keys: [IABKey: IABValue] = [:]
        for section in try usSections() { keys.merge(section.keys) { _, new in new } }
        return keys
    }
}
