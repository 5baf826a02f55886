import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// When stored consent needs the consent UI again (expired, too old, another policy version).
@Suite struct ExpiryTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func record(_ tcString: String? = TestStrings.acceptAll, savedDaysAgo: Double = 1, expiresIn: Double? = nil,
                        configVersion: String? = "3") -> ConsentRecord {
        ConsentRecord(
            strings: ConsentStrings(tcString: tcString), expirationDate: expiresIn.map { now.addingTimeInterval($0) },
            configVersion: configVersion, savedAt: now.addingTimeInterval(-savedDaysAgo * 86_400))
    }

    @Test func reasons() {
        let policy = ConsentExpiryPolicy()
        #expect(policy.renewalReason(for: nil, now: now) == .noConsent)
        #expect(policy.renewalReason(for: record(nil), now: now) == .noConsent)
        #expect(policy.renewalReason(for: record(), now: now) == nil)
        #expect(policy.renewalReason(for: record(expiresIn: -1), now: now) == .expired)
        #expect(policy.renewalReason(for: record(expiresIn: 3600), now: now) == nil)
        #expect(policy.renewalReason(for: record(savedDaysAgo: 389), now: now) == nil)
        #expect(policy.renewalReason(for: record(savedDaysAgo: 391), now: now) == .tooOld)
        let versioned = ConsentExpiryPolicy(currentConfigVersion: "4")
        #expect(versioned.renewalReason(for: record(), now: now) == .configurationChanged)
        #expect(versioned.renewalReason(for: record(configVersion: "4"), now: now) == nil)
        let old = record(TestStrings.make(purposes: [1], policyVersion: 2))
        #expect(policy.renewalReason(for: old, now: now) == .policyVersionChanged)
        #expect(ConsentExpiryPolicy(minimumPolicyVersion: nil).renewalReason(for: old, now: now) == nil)
        #expect(policy.renewalReason(for: record("garbage"), now: now) == .noConsent)
    }

    @Test func policyVersionFromTheFixedPosition() throws {
        for version in [2, 4, 5, 63] {
            #expect(ConsentExpiryPolicy.policyVersion(of: TestStrings.make(policyVersion: version)) == version)
        }
    }

    @Test func launchCheckReadsTheStore() throws {
        let store = ConsentStore.inMemory()
        #expect(ConsentBridge.needsConsentUI(store: store, now: now) == .noConsent)
        try store.apply(IABKeySet(mapping: ConsentStrings(tcString: TestStrings.acceptAll), gdprApplies: true),
                        record: record(savedDaysAgo: 0))
        #expect(ConsentBridge.needsConsentUI(store: store, now: now) == nil)
        #expect(ConsentBridge.needsConsentUI(store: store, now: now.addingTimeInterval(400 * 86_400)) == .tooOld)
    }
}
