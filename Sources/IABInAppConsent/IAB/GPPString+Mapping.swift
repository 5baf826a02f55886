extension GPPString {
    /// Parses a GPP string for the in-app key mapping: the GPP reader, then a check of each section string — only
    /// base64url characters and `.` (GPP "Consent String Specification": sections are base64url-encoded, sub-sections
    /// joined by `.`), and a US Privacy section (id 6) must be a US Privacy string.
    init(validatingForMapping raw: String) throws(IABMappingError) {
        let gpp: GPPString
        do {
            gpp = try GPPString(parsingPrecisely: raw)
        } catch {
            throw .invalidGPPString(error)
        }
        for section in gpp.sections {
            guard section.string.utf8.allSatisfy(GPPString.isSectionCharacter) else {
                throw .invalidGPPSection(id: section.id, reason: "characters outside base64url and '.'")
            }
            if section.id == 6, !IABKeySet.isValidUSPrivacy(section.string) {
                throw .invalidGPPSection(id: 6, reason: "not a US Privacy string (1 followed by three of Y, N, -)")
            }
        }
        self = gpp
    }

    /// A GPP string from its parts, unchecked (tests build mapping inputs this way).
    init(rawValue: String, version: Int, sectionIDs: [Int], sections: [Section]) {
        self.rawValue = rawValue
        self.version = version
        self.sectionIDs = sectionIDs
        self.sections = sections
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
            return try AdditionalConsent(parsingPrecisely: raw).rawValue
        } catch {
            throw .invalidAdditionalConsent(error)
        }
    }
}
