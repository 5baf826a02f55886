import Foundation

/// Adopting the consent a previous CMP SDK left in `UserDefaults`, so that an app switching to WebCMPBridge does not
/// ask every user again (`BridgeConfiguration/migration`; run by `ConsentBridge/needsConsentUI(store:expiry:now:migration:)`
/// before it reads the stored record).
///
/// It runs once per store: when no record is stored and the migration was not checked before. The adopted string is
/// validated and decoded by the same transaction as a save (``ConsentProvenance/Source/previousSDK``, ``ConsentProvenance/Action/adopted``; the keys are rewritten); its
/// date is the TC string's `LastUpdated`, so the expiry policy applies to when the user really chose. A string that
/// is invalid is not adopted (the user is asked).
public struct ConsentMigration: Sendable, Hashable {
    /// Where a previous SDK kept consent: an open value, so that the module that runs the migration declares its own
    /// sources as static members (this module declares ``iabKeys``).
    package struct Source: Sendable, Hashable {
        /// The keys a source's SDK wrote.
        package enum Keys: Sendable, Hashable {
            /// The IAB in-app keys every TCF CMP SDK writes (Sourcepoint, OneTrust, Didomi, Usercentrics …):
            /// `IABTCF_TCString` (with `IABTCF_AddtlConsent`, `IABTCF_gdprApplies`, `IABGPP_HDR_GppString`,
            /// `IABUSPrivacy_String` when present).
            case iab
            /// An SDK's own keys: its TC string, its non-TCF data (JSON text) and its Additional Consent string.
            case own(tcString: String, nonTCFData: String, additionalConsent: String)
        }

        /// The source's name (diagnostics and tests).
        package let name: String
        /// Where its consent is.
        package let keys: Keys

        /// A source named `name` reading `keys`.
        package init(name: String, keys: Keys) {
            self.name = name
            self.keys = keys
        }

        /// The IAB in-app keys every TCF CMP SDK writes.
        package static let iabKeys = Self(name: "iabKeys", keys: .iab)
    }

    /// Whether migration runs at all.
    public var isEnabled: Bool
    /// The sources tried, in order, the first valid one adopted; `nil`: the default sources of the caller that runs
    /// the migration (``ConsentMigration/Source/iabKeys`` here; the bridge adds its own).
    package var sources: [Source]?

    /// Creates a migration policy: from the IAB in-app keys every TCF CMP SDK writes (Sourcepoint, OneTrust, Didomi,
    /// Usercentrics …), then from the sources the module that runs it adds (`ConsentBridge` documents its own).
    public init(isEnabled: Bool = true) {
        self.init(isEnabled: isEnabled, sources: nil)
    }

    /// Creates a migration policy trying only `sources`, in order (the package's tests).
    package init(isEnabled: Bool, sources: [Source]?) {
        self.isEnabled = isEnabled
        self.sources = sources
    }

    /// Enabled, every source, IAB keys first.
    public static let `default` = ConsentMigration()
    /// Never adopt anything.
    public static let disabled = ConsentMigration(isEnabled: false)
}
