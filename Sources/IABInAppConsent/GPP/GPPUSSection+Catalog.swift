/// Every US section of the GPP "Section Information" table (ids 7–27), with each version's field layout.
///
/// Confirmed against InteractiveAdvertisingBureau/Global-Privacy-Platform at `b27beb4` (2025-10-08):
/// `Sections/Section Information.md`, `Sections/US-National/…US National Technical Specification.md` (version 2) and
/// `Sections/US-States/*/…Technical Specification*`; usnat version 1 from the same file at `606b99e` (2022-12-16).
/// Cross-checked with the IAB reference encoder IABTechLab/iabgpp-es `fd0546e` (v3.2.0), whose field lists and test
/// strings agree, with these decisions where the documents differ:
/// - ustn (22): the spec spells the field `KnownChildSensitiveDataConsent`; the reference encoder and every other
///   section use `KnownChildSensitiveDataConsents`, which is the key name used here.
/// - usmd, usin, usky, usri (24–27, "Version 1.0 public comment", October 2025): the spec puts a section header
///   (`SectionID` Int(6), `Version` Int(6), `SubSections` Range(Fibonacci)) before the core fields; the reference
///   encoder writes no such header (the core starts with `MspaVersion`) and separates the optional sub-section with
///   `.`. Strings in use come from the encoder, so its layout is decoded here.
/// - The GPC sub-section exists for every section whose spec has one; usva, usut and usfl define none.
extension GPPUSSection {
    /// The sections by id.
    static let catalog: [Int: GPPUSSection] = {
        var sections: [Int: GPPUSSection] = [:]
        for section in all { sections[section.id] = section }
        return sections
    }()

    /// The sections in id order.
    static let all: [GPPUSSection] = [
        // 7 usnat: version 1 (SensitiveDataProcessing 12, KnownChildSensitiveDataConsents 2) and version 2 (16, 3).
        // Deployed encoders wrote version 1 with version 2's lengths: the core's length picks the layout read, and
        // nothing it carries is dropped (GPPUSSection.resultLayout(declared:read:)). The only section with two.
        GPPUSSection(
            id: 7, apiName: "usnat",
            layouts: [
                Layout(version: 1, fields: usnat(sensitive: 12, knownChild: 2)),
                Layout(version: 2, fields: usnat(sensitive: 16, knownChild: 3)),
            ],
            optionalSubsection: .gpc),
        v1(8, "usca", notices: ["SaleOptOutNotice", "SharingOptOutNotice", "SensitiveDataLimitUseNotice"],
           optOuts: ["SaleOptOut", "SharingOptOut"], sensitive: 9, knownChild: .list(2),
           extra: ["PersonalDataConsents"], gpc: true),
        v1(9, "usva", notices: sharing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .single, gpc: false),
        v1(10, "usco", notices: sharing, optOuts: saleAndTargeted, sensitive: 7, knownChild: .single, gpc: true),
        v1(11, "usut", notices: sharing + ["SensitiveDataProcessingOptOutNotice"], optOuts: saleAndTargeted,
           sensitive: 8, knownChild: .single, gpc: false),
        v1(12, "usct", notices: sharing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .list(3), gpc: true),
        v1(13, "usfl", notices: processing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .list(3),
           extra: additional, gpc: false),
        v1(14, "usmt", notices: sharing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .list(3),
           extra: additional, gpc: true),
        v1(15, "usor", notices: processing, optOuts: saleAndTargeted, sensitive: 11, knownChild: .list(3),
           extra: additional, gpc: true),
        v1(16, "ustx", notices: processing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .single,
           extra: additional, gpc: true),
        v1(17, "usde", notices: processing, optOuts: saleAndTargeted, sensitive: 9, knownChild: .list(5),
           extra: additional, gpc: true),
        v1(18, "usia", notices: processing + ["SensitiveDataOptOutNotice"], optOuts: saleAndTargeted, sensitive: 8,
           knownChild: .single, gpc: true),
        v1(19, "usne", notices: processing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .single,
           extra: additional, gpc: true),
        v1(20, "usnh", notices: processing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .list(3),
           extra: additional, gpc: true),
        v1(21, "usnj", notices: processing, optOuts: saleAndTargeted, sensitive: 10, knownChild: .list(5),
           extra: additional, gpc: true),
        v1(22, "ustn", notices: processing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .single,
           extra: additional, gpc: true),
        v1(23, "usmn", notices: processing, optOuts: saleAndTargeted, sensitive: 8, knownChild: .single,
           extra: additional, gpc: true),
        mspaModeSection(24, "usmd", knownChild: false, subsection: .gpc),
        mspaModeSection(25, "usin", knownChild: true, subsection: .fields([sensitiveData(8)])),
        mspaModeSection(26, "usky", knownChild: true, subsection: .fields([sensitiveData(8)])),
        mspaModeSection(27, "usri", knownChild: true, subsection: .fields([sensitiveData(8)])),
    ]

    /// How a section encodes `KnownChildSensitiveDataConsents`.
    private enum KnownChild {
        /// `Int(2)`.
        case single
        /// `N-Bitfield(2, count)`.
        case list(Int)
    }

    private static let sharing = ["SharingNotice", "SaleOptOutNotice", "TargetedAdvertisingOptOutNotice"]
    private static let processing = ["ProcessingNotice", "SaleOptOutNotice", "TargetedAdvertisingOptOutNotice"]
    private static let saleAndTargeted = ["SaleOptOut", "TargetedAdvertisingOptOut"]
    private static let additional = ["AdditionalDataProcessingConsent"]
    /// The three MSPA fields that end the core of sections 7–23.
    private static let mspa = ["MspaCoveredTransaction", "MspaOptOutOptionMode", "MspaServiceProviderMode"]

    private static func sensitiveData(_ count: Int) -> GPPUSField {
        .list2("SensitiveDataProcessing", count: count)
    }

    /// The usnat core: Version, six notices, three opt-outs, the two lists, PersonalDataConsents, the MSPA fields.
    private static func usnat(sensitive: Int, knownChild: Int) -> [GPPUSField] {
        let notices = [
            "SharingNotice", "SaleOptOutNotice", "SharingOptOutNotice", "TargetedAdvertisingOptOutNotice",
            "SensitiveDataProcessingOptOutNotice", "SensitiveDataLimitUseNotice",
            "SaleOptOut", "SharingOptOut", "TargetedAdvertisingOptOut",
        ]
        return [.int6("Version")] + notices.map(GPPUSField.int2)
            + [sensitiveData(sensitive), .list2("KnownChildSensitiveDataConsents", count: knownChild)]
            + (["PersonalDataConsents"] + mspa).map(GPPUSField.int2)
    }

    /// A state section of version 1 with the common shape: Version, notices, opt-outs, SensitiveDataProcessing,
    /// KnownChildSensitiveDataConsents, extra Int(2) fields, the three MSPA fields, and optionally GPC.
    private static func v1(
        _ id: Int, _ apiName: String, notices: [String], optOuts: [String], sensitive: Int, knownChild: KnownChild,
        extra: [String] = [], gpc: Bool
    ) -> GPPUSSection {
        let child: GPPUSField
        switch knownChild {
        case .single: child = .int2("KnownChildSensitiveDataConsents")
        case .list(let count): child = .list2("KnownChildSensitiveDataConsents", count: count)
        }
        let fields = [.int6("Version")] + (notices + optOuts).map(GPPUSField.int2) + [sensitiveData(sensitive), child]
            + (extra + mspa).map(GPPUSField.int2)
        return GPPUSSection(
            id: id, apiName: apiName, layouts: [Layout(version: 1, fields: fields)],
            optionalSubsection: gpc ? .gpc : nil)
    }

    /// Sections 24–27 (2025): MspaVersion, MspaCoveredTransaction, MspaMode, three notices, two opt-outs,
    /// [KnownChildSensitiveDataConsents], AdditionalDataProcessingConsent; one layout, no Version field.
    private static func mspaModeSection(
        _ id: Int, _ apiName: String, knownChild: Bool, subsection: Subsection
    ) -> GPPUSSection {
        var names = ["MspaCoveredTransaction", "MspaMode"] + processing + saleAndTargeted
        if knownChild { names.append("KnownChildSensitiveDataConsents") }
        names += additional
        return GPPUSSection(
            id: id, apiName: apiName, layouts: [Layout(version: 1, fields: [.int6("MspaVersion")] + names.map(GPPUSField.int2))],
            optionalSubsection: subsection)
    }
}
