/// The parts of a GPP string the in-app mapping needs: header version, section ids and section strings.
///
/// Spec: GPP "Consent String Specification", "GPP Header" and "Sections".
struct GPPInput: Sendable, Hashable {
    /// GPP section id of the IAB TCF Europe section (GPP "Section Information").
    static let tcfEUSectionID = 2

    /// The full GPP string.
    var string: String
    /// Header `Version`.
    var version: Int
    /// Header `SectionIds`, in string order.
    var sectionIDs: [Int]
    /// The encoded section strings, in the same order as ``sectionIDs``.
    var sections: [String]

    /// Parses a GPP string. (Waiting for the codec's GPP reader; until it lands, GPP strings are refused.)
    init(parsing string: String) throws(IABMappingError) {
        throw .invalidGPP(reason: "GPP decoding is not available in this build")
    }

    init(string: String, version: Int, sectionIDs: [Int], sections: [String]) {
        self.string = string
        self.version = version
        self.sectionIDs = sectionIDs
        self.sections = sections
    }
}
