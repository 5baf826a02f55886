/// What one CMP's consent message carries beside the consent every CMP sends (``ConsentPayload``): the typed value a
/// dialect's decoding produces next to the shared consent: a dialect's own fields (non-TCF data, a configuration
/// version, an expiry, a cross-domain user id, claimed choices, the CMP id and version a page reported). The module
/// that decodes messages declares the concrete values and documents their fields.
///
/// This module knows no dialect: ``ConsentCommit`` asks the value only for what it records and reports. Every
/// requirement has a default that adds nothing, so a value implements only what its CMP sends.
package protocol ConsentExtras: Sendable, Hashable {
    /// The CMP id and version the page reported (TCF CMP API `TCData.cmpId`, `cmpVersion`): source 2 of
    /// ``CMPIdentity``. Default `nil`.
    var reportedCMP: CMPIdentity? { get }
    /// Whether the page said the user rejected everything (reported with the user's action, never stored).
    /// Default `nil`.
    var isRejectAll: Bool? { get }
    /// Writes the CMP's own facts into `record`, which ``ConsentCommit`` made from the shared consent with the
    /// previous record's non-TCF data (when the rules keep it) and cross-domain user id, and the rules' configuration
    /// version. Default: no change.
    func complete(_ record: inout ConsentRecord)
    /// Diagnostics of the message against its decoded TC string (e.g. claimed choices that disagree with it).
    /// Default none.
    func diagnostics(against tcString: TCString) -> [String]
}

/// The defaults: the extras add nothing.
extension ConsentExtras {
    package var reportedCMP: CMPIdentity? { nil }
    package var isRejectAll: Bool? { nil }
    package func complete(_ record: inout ConsentRecord) {}
    package func diagnostics(against tcString: TCString) -> [String] { [] }
}
