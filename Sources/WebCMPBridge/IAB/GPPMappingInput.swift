/// The parts of a GPP string the in-app mapping needs (GPP CMP API v1.1, "In-App Details").
struct GPPMappingInput: Sendable, Hashable {
    /// The GPP string, verbatim (`IABGPP_HDR_GppString`).
    var rawValue: String
    /// The header's `Version` (`IABGPP_HDR_Version`).
    var version: Int
    /// The header's section ids, in order (`IABGPP_HDR_Sections`).
    var sectionIDs: [Int]
    /// Each section's id and encoded string (`IABGPP_{id}_String`).
    var sections: [Section]

    /// One section of a GPP string.
    struct Section: Sendable, Hashable {
        /// The section id (GPP "Section Information").
        var id: Int
        /// The section's encoded string.
        var string: String
    }
}

extension GPPMappingInput {
    /// Parses a GPP string with the codec's ``GPPString`` reader (GPP "Consent String Specification", "Header").
    init(parsing raw: String) throws(IABMappingError) {
        let gpp: GPPString
        do {
            gpp = try GPPString(parsing: raw)
        } catch {
            throw .invalidGPPString(raw, reason: error.description)
        }
        self.init(
            rawValue: gpp.rawValue, version: gpp.version, sectionIDs: gpp.sectionIDs,
            sections: gpp.sections.map { Section(id: $0.id, string: $0.string) })
    }
}

extension IABKeySet {
    /// Validates a Google Additional Consent string with the codec's ``AdditionalConsent`` parser and returns it
    /// verbatim (Google "Additional Consent technical specification": v1 `1~ids`, v2 `2~ids~dv.ids`).
    static func validatedAdditionalConsent(_ raw: String) throws(IABMappingError) -> String {
        do {
            return try AdditionalConsent(parsing: raw).rawValue
        } catch {
            throw .invalidAdditionalConsent(raw, reason: error.description)
        }
    }
}
