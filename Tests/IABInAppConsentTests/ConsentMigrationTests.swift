import Foundation
import Testing
@testable import IABInAppConsent

/// Migration reads the IAB in-app keys by default; other sources are open values their module declares.
@Suite struct ConsentMigrationTests {
    @Test func byDefaultOnlyTheIABKeysAreRead() {
        let own = ConsentStore(storage: .inMemory(["tcstring": .string(TestStrings.acceptAll)]))
        #expect(own.migrateIfNeeded() == nil)
        let iab = ConsentStore(storage: .inMemory([IABKey.tcString.rawValue: .string(TestStrings.acceptAll)]))
        #expect(iab.migrateIfNeeded()?.strings.tcString == TestStrings.acceptAll)
    }

    @Test func aSourceWithItsOwnKeysIsReadWithItsNonTCFData() throws {
        let source = ConsentMigration.Source(
            name: "previous", keys: .own(tcString: "tc", nonTCFData: "extra", additionalConsent: "ac"))
        let store = ConsentStore(storage: .inMemory([
            "tc": .string(TestStrings.acceptAll), "extra": .string(#"{"a":1}"#), "ac": .string("2~1~dv.2"),
        ]))
        let record = try #require(store.migrateIfNeeded(defaultSources: [.iabKeys, source]))
        #expect(record.strings.tcString == TestStrings.acceptAll)
        #expect(record.strings.additionalConsent == "2~1~dv.2")
        #expect(record.nonTCFData == .object(["a": .number(1)]))
    }
}
