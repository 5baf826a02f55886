extension IABKeySet {
    /// Adds the GPP keys (GPP CMP API v1.1, "In-App Details") for a parsed GPP string.
    ///
    /// - `IABGPP_HDR_Version`, `IABGPP_HDR_Sections` (`"2_6"`) and `IABGPP_HDR_GppString` are Strings, as the GPP key
    ///   table lists them (⚠ the conversion table would make the version an Integer; the key table wins).
    /// - `IABGPP_GppSID`: the applicable sections the CMP reported, else the header's section ids, `_`-joined.
    /// - `IABGPP_{id}_String` for every section. For a TCF EU section (id 2) also `IABGPP_2_TCString` and the
    ///   `IABGPP_TCFEU2_*` mirror keys of the GPP TCF EU "Key Names" table, with the same values as the `IABTCF_*`
    ///   keys (⚠ not the GPP underscore-id-list conversion: the table defers to the TCF spec for values).
    static func addGPPKeys(
        _ gpp: GPPInput, applicableSections: [Int]?, context: TCFContext, to values: inout [IABKey: IABValue]
    ) throws(IABMappingError) {
        guard gpp.sectionIDs.count == gpp.sections.count else {
            throw .invalidGPP(reason: "the header lists \(gpp.sectionIDs.count) sections but the string has "
                + "\(gpp.sections.count)")
        }
        let sid: [Int]
        if let applicableSections {
            if let bad = applicableSections.first(where: { $0 < -1 || $0 == 0 }) { throw .invalidGPPSectionID(bad) }
            sid = applicableSections
        } else {
            sid = gpp.sectionIDs
        }
        values[.gppVersion] = .string(String(gpp.version))
        values[.gppSections] = .string(joined(gpp.sectionIDs))
        values[.gppString] = .string(gpp.string)
        values[.gppSID] = .string(joined(sid))
        for (id, section) in zip(gpp.sectionIDs, gpp.sections) {
            values[.gppSectionString(sectionID: id)] = .string(section)
            guard id == GPPInput.tcfEUSectionID else { continue }
            let decoded: TCString
            do {
                decoded = try TCString(decoding: section)
            } catch {
                throw .invalidGPP(reason: "TCF EU section (id 2): \(error)")
            }
            guard decoded.isServiceSpecific else { throw .notServiceSpecific }
            addTCFKeys(decoded, raw: section, context: context, names: .gppTCFEU2, to: &values)
        }
    }

    private static func joined(_ ids: [Int]) -> String {
        ids.map(String.init).joined(separator: "_")
    }
}
