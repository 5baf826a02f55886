import Foundation

extension GravitoDialect {
    /// What a Gravito save carries beside the shared consent: the page's own non-TCF data (`nontcfdata`, stored
    /// verbatim for re-injection), its configuration version (`configversion`) and whether the user rejected
    /// everything (`isRejectAll`, reported with the user's action, never stored).
    struct Extras: ConsentExtras {
        /// The CMP's non-TCF data, kept verbatim for re-injection.
        var nonTCFData: JSONValue?
        /// The CMP's configuration version.
        var configVersion: String?
        /// Whether the user rejected everything.
        var isRejectAll: Bool?

        /// Gravito sends its complete non-TCF data with every save: a save without it clears the stored data. Its
        /// configuration version replaces the configured one when it sent one.
        func complete(_ record: inout ConsentRecord) {
            record.nonTCFData = nonTCFData
            if let configVersion { record.configVersion = configVersion }
        }
    }
}
