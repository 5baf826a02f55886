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
    /// Parses a GPP string with the GPP reader and checks each section string: only base64url characters and `.`
    /// (GPP "Consent String Specification": sections are base64url-encoded, sub-sections joined by `.`), and a US
    /// Privacy section (id 6) must be a US Privacy string.
    init(parsing raw: String) throws(IABMappingError) {
        let gpp: GPPString
        do {
            gpp = try GPPString(parsing: raw)
        } catch {
            throw .invalidGPPString(error)
        }
        for section in gpp.sections {
            guard section.string.utf8.allSatisfy(GPPMappingInput.isSectionCharacter) else {
                throw .invalidGPPSection(id: section.id, reason: "characters outside base64url and '.'")
            }
            if section.id == 6, !IABKeySet.isValidUSPrivacy(section.string) {
                throw .invalidGPPSection(id: 6, reason: "not a US Privacy string (1 followed by three of Y, N, -)")
            }
        }
        self.init(
            rawValue: gpp.rawValue, version: gpp.version, sectionIDs: gpp.sectionIDs,
            sections: gpp.sections.map { Section(id: $0.id, string: $0.string) })
    }

    private static func isSectionCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}

extension IABKeySet {
    /// Validates a Google Additional Consent string (Google "Additional Consent technical specification", v1 and v2)
    /// and returns it verbatim for `IABTCF_AddtlConsent`.
    static func validatedAdditionalConsent(_ raw: String) throws(IABMappingError) -> String {
        do {
            return try AdditionalConsent(parsing: raw).rawValue
        } catch {
            throw .invalidAdditionalConsent(error)
        }
    }
}
