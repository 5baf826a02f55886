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
    /// Where a previous SDK kept consent (both are tried, IAB keys first).
    package enum Source: String, Sendable, Hashable, CaseIterable {
        /// The IAB in-app keys every TCF CMP SDK writes (Sourcepoint, OneTrust, Didomi, Usercentrics …):
        /// `IABTCF_TCString` (with `IABTCF_AddtlConsent`, `IABTCF_gdprApplies`, `IABGPP_HDR_GppString`,
        /// `IABUSPrivacy_String` when present).
        case iabKeys
        /// Gravito's sample in-app integration: `tcstring`, `nontcfdata` (JSON text) and `acstring` in
        /// `UserDefaults.standard`.
        case gravitoSample
    }

    /// Whether migration runs at all.
    public var isEnabled: Bool
    /// The sources tried, in order; the first valid one is adopted.
    package var sources: [Source]

    /// Creates a migration policy: from the IAB in-app keys every TCF CMP SDK writes (Sourcepoint, OneTrust, Didomi,
    /// Usercentrics …), then from Gravito's sample in-app integration (`tcstring`, `nontcfdata`, `acstring`).
    public init(isEnabled: Bool = true) {
        self.init(isEnabled: isEnabled, sources: Source.allCases)
    }

    /// Creates a migration policy trying only `sources`, in order (the package's tests).
    package init(isEnabled: Bool, sources: [Source]) {
        self.isEnabled = isEnabled
        self.sources = sources
    }

    /// Enabled, every source, IAB keys first.
    public static let `default` = ConsentMigration()
    /// Never adopt anything.
    public static let disabled = ConsentMigration(isEnabled: false)
}
