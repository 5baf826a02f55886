/// The description of one GPP US section (MSPA US National or a US state): its id, names and bit layout per version.
///
/// The decoder (``decode(_:)``) is driven by this table; the catalog of every section is in
/// `GPPUSSection+Catalog.swift`.
///
/// Spec: GPP "Section Information" (ids and client-side API prefixes) and each section's technical specification
/// in `Sections/US-National` and `Sections/US-States` of
/// <https://github.com/InteractiveAdvertisingBureau/Global-Privacy-Platform>.
struct GPPUSSection: Sendable, Hashable {
    /// The GPP section id (7 = usnat, 8 = usca, …).
    var id: Int
    /// The client-side API prefix ("usnat", "usca", …).
    var apiName: String
    /// The core sub-section's fields per section version, each list in encoding order.
    ///
    /// For sections with a `Version` field it is the first field of every layout; sections 24–27 (usmd, usin, usky,
    /// usri) have none (their first field is `MspaVersion`) and a single layout under version 1.
    var layouts: [Layout]
    /// The optional sub-section after the core, separated by `.`.
    var optionalSubsection: Subsection?

    /// One version's core field layout.
    struct Layout: Sendable, Hashable {
        /// The section version this layout encodes.
        var version: Int
        /// The fields, in encoding order.
        var fields: [GPPUSField]

        /// The number of bits of the fields.
        var bitCount: Int { fields.reduce(0) { $0 + $1.bitCount } }
    }

    /// The optional sub-section a section defines.
    enum Subsection: Sendable, Hashable {
        /// The Global Privacy Control sub-section: `SubsectionType` Int(2) = 1, then `Gpc` Boolean.
        case gpc
        /// A sub-section of plain fields without a type field (usin, usky, usri: "Sensitive Data Consents").
        case fields([GPPUSField])
    }

    /// The key prefix: the API name upper-cased (`IABGPP_USNAT_…`), as US ad SDKs read the per-field keys.
    var keyPrefix: String { apiName.uppercased() }

    /// Whether the core starts with a 6-bit `Version` field.
    var hasVersionField: Bool { layouts.first?.fields.first?.name == GPPUSSection.versionField }

    /// The layout of `version`, if the section defines it.
    func layout(version: Int) -> Layout? {
        layouts.first { $0.version == version }
    }

    /// The per-field key of `field`: `IABGPP_{PREFIX}_{FieldName}`.
    func key(_ field: String) -> IABKey {
        IABKey(rawValue: IABKey.gppPrefix + keyPrefix + "_" + field)
    }
}
