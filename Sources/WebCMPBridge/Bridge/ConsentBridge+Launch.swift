import Foundation

extension ConsentBridge {
    /// Why consent has to be asked for at `now`, or `nil` when stored consent is still good. Creates no web view:
    /// call it at every launch to decide whether to show the CMP.
    ///
    /// When nothing is stored yet it first adopts a previous CMP SDK's consent (``IABInAppConsent/ConsentMigration``,
    /// once per store; `migration: .disabled` turns that off). With a record stored that costs nothing extra.
    public nonisolated static func needsConsentUI(
        store: ConsentStore, expiry: ConsentExpiryPolicy = ConsentExpiryPolicy(), now: Date = Date(),
        migration: ConsentMigration = .default
    ) -> ConsentRenewalReason? {
        var record = store.record(includingNonTCFData: false)
        if record == nil {
            record = store.migrateIfNeeded(migration, defaultSources: ConsentMigration.Source.bridgeDefaults, now: now)
        }
        return expiry.renewalReason(for: record, now: now)
    }
}
