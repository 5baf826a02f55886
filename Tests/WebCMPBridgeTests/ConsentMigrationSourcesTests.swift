import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The bridge adds Gravito's sample keys to the sources the consent module reads (``ConsentMigration/Source``).
@Suite struct ConsentMigrationSourcesTests {
    /// Soon after `TestStrings` were last updated, so that the adopted consent is not too old.
    static let now = Date(timeIntervalSince1970: 1_750_100_000)

    @Test func atLaunchTheBridgeAdoptsGravitosSampleKeysByDefault() throws {
        let store = ConsentStore(storage: .inMemory(["tcstring": .string(TestStrings.acceptAll)]))
        #expect(ConsentBridge.needsConsentUI(store: store, now: Self.now, migration: ConsentMigration()) == nil)
        #expect(store.record()?.strings.tcString == TestStrings.acceptAll)
        #expect(store.consentHistory().last?.provenance == ConsentProvenance(.previousSDK, .adopted))
    }

    @Test func anAppsOwnSourcesReplaceTheBridgesDefaults() {
        let store = ConsentStore(storage: .inMemory(["tcstring": .string(TestStrings.acceptAll)]))
        let iabOnly = ConsentMigration(isEnabled: true, sources: [.iabKeys])
        #expect(ConsentBridge.needsConsentUI(store: store, now: Self.now, migration: iabOnly) == .noConsent)
        #expect(store.record() == nil)
    }
}
