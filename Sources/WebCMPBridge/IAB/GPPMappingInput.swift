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
    /// Parses a GPP string. (Interim: the GPP reader lands with the codec work.)
    init(parsing raw: String) throws(IABMappingError) {
        throw .invalidGPPString(raw, reason: "the GPP reader is not available in this build yet")
    }
}

extension IABKeySet {
    /// Validates a Google Additional Consent string and returns it verbatim. (Interim: the AC parser lands with the
    /// codec work.)
    static func validatedAdditionalConsent(_ raw: String) throws(IABMappingError) -> String {
        throw .invalidAdditionalConsent(raw, reason: "the Additional Consent parser is not available in this build yet")
    }
}
