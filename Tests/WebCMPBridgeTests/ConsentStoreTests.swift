import Foundation
import Testing
@testable import WebCMPBridge

/// A fresh storage of one kind; `cleanup` removes whatever it persisted.
struct StoreFixture: Sendable {
    let storage: KeyValueStorage
    let cleanup: @Sendable () -> Void
    /// Reads the raw stored object, where the backend can say (real `UserDefaults` only).
    let rawObject: @Sendable (String) -> Any?

    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inMemory, userDefaults
        var testDescription: String { rawValue }
    }

    static func make(_ kind: Kind) -> StoreFixture {
        switch kind {
        case .inMemory:
            return StoreFixture(storage: .inMemory(), cleanup: {}, rawObject: { _ in nil })
        case .userDefaults:
            let suite = "WebCMPBridgeTests." + UUID().uuidString
            return StoreFixture(
                storage: .userDefaults(suiteName: suite),
                cleanup: { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) },
                rawObject: { UserDefaults(suiteName: suite)?.object(forKey: $0) }
            )
        }
    }
}

@Suite struct ConsentStoreTests {
    static let foreign: [String: KeyValueStorage.Value] = [
        "IABConsent_ConsentString": .string("v1"),
        "IABUSPrivacy_StringBackup": .string("1YNN"),
        "WebCMPBridge.recordOther": .string("x"),
        "com.app.setting": .int(3),
    ]

    static let keysA: IABKeySet = IABKeySet([
        .cmpSdkID: .int(300), .gdprApplies: .int(1), .tcString: .string("AAA"), .vendorConsents: .string("101"),
        "IABTCF_PublisherRestrictions7": .string("_0"), .usPrivacyString: .string("1YNN"),
        .gppString: .string("DBABTA~1YNN"), "IABGPP_6_String": .string("1YNN"),
    ])

    static let keysB: IABKeySet = IABKeySet([
        .cmpSdkID: .int(300), .gdprApplies: .int(0), .tcString: .string("BBB"), .vendorConsents: .string(""),
        "IABTCF_PublisherRestrictions2": .string("1"),
    ])

    static func record(_ tc: String) -> ConsentRecord {
        ConsentRecord(tcString: tc, nonTCFData: .object(["a": .array([.number(1), .null, .bool(true)])]),
                      expirationDate: Date(timeIntervalSince1970: 1_800_000_000), savedAt: Date(timeIntervalSince1970: 1_700_000_000.5))
    }

    private func withFixture(_ kind: StoreFixture.Kind, _ body: (ConsentStore, StoreFixture) throws -> Void) throws {
        let fixture = StoreFixture.make(kind)
        defer { fixture.cleanup() }
        try fixture.storage.write(Self.foreign, [])
        try body(ConsentStore(storage: fixture.storage), fixture)
    }

    @Test(arguments: StoreFixture.Kind.allCases)
    func applyWritesKeysAndRecordAndRemovesStaleKeysOnly(_ kind: StoreFixture.Kind) throws {
        try withFixture(kind) { store, fixture in
            #expect(store.record() == nil)
            #expect(store.iabKeys().values.isEmpty)
            try store.apply(Self.keysA, record: Self.record("AAA"))
            #expect(store.iabKeys() == Self.keysA)
            #expect(store.record() == Self.record("AAA"))
            try store.apply(Self.keysB, record: Self.record("BBB"))
            #expect(store.iabKeys() == Self.keysB)
            #expect(store.record() == Self.record("BBB"))
            #expect(fixture.storage.load(Array(Self.foreign.keys)) == Self.foreign)
        }
    }

    @Test(arguments: StoreFixture.Kind.allCases)
    func invalidInputLeavesStorageUntouched(_ kind: StoreFixture.Kind) throws {
        try withFixture(kind) { store, fixture in
            try store.apply(Self.keysA, record: Self.record("AAA"))
            let everything = { fixture.storage.load(fixture.storage.allKeys(["IAB", "WebCMP", "com."])) }
            let before = everything()
            var foreign = Self.keysB
            foreign["IABConsent_ConsentString"] = .string("forged")
            #expect(throws: ConsentStoreError.foreignKey("IABConsent_ConsentString")) {
                try store.apply(foreign, record: Self.record("BBB"))
            }
            var wrongType = Self.keysB
            wrongType[.gdprApplies] = .string("1")
            #expect(throws: ConsentStoreError.invalidValue(key: .gdprApplies, value: .string("1"), expected: .flag)) {
                try store.apply(wrongType, record: Self.record("BBB"))
            }
            var badBinary = Self.keysB
            badBinary[.purposeConsents] = .string("10x")
            #expect(throws: ConsentStoreError.self) { try store.apply(badBinary, record: nil) }
            var badRecord = Self.record("BBB")
            badRecord.nonTCFData = .number(.nan)
            #expect(throws: ConsentStoreError.self) { try store.apply(Self.keysB, record: badRecord) }
            #expect(everything() == before)
        }
    }

    @Test(arguments: StoreFixture.Kind.allCases)
    func clearAllRemovesOnlyWhatTheStoreOwns(_ kind: StoreFixture.Kind) throws {
        try withFixture(kind) { store, fixture in
            try store.apply(Self.keysA, record: Self.record("AAA"))
            try fixture.storage.write(["IABTCF_EnableAdvertiserConsentMode": .int(1)], [])
            store.clearAll()
            #expect(store.iabKeys().values.isEmpty)
            #expect(store.record() == nil)
            #expect(fixture.storage.allKeys(["IABTCF_", "IABGPP_", "IABUSPrivacy_String", "WebCMPBridge.record"]).sorted()
                == ["IABUSPrivacy_StringBackup", "WebCMPBridge.recordOther"])
            #expect(fixture.storage.load(Array(Self.foreign.keys)) == Self.foreign)
        }
    }

    @Test(arguments: StoreFixture.Kind.allCases)
    func nilRecordRemovesTheStoredRecord(_ kind: StoreFixture.Kind) throws {
        try withFixture(kind) { store, _ in
            try store.apply(Self.keysA, record: Self.record("AAA"))
            try store.apply(Self.keysA, record: nil)
            #expect(store.record() == nil)
            #expect(store.iabKeys() == Self.keysA)
        }
    }

    @Test(arguments: StoreFixture.Kind.allCases)
    func corruptRecordReadsAsNil(_ kind: StoreFixture.Kind) throws {
        try withFixture(kind) { store, fixture in
            try fixture.storage.write([ConsentStore.recordKey: .data(Data("{\"savedAt\":".utf8))], [])
            #expect(store.record() == nil)
            try fixture.storage.write([ConsentStore.recordKey: .string("not data")], [])
            #expect(store.record() == nil)
            try fixture.storage.write([ConsentStore.recordKey: .data(Data("{\"tcString\":\"x\"}".utf8))], [])
            #expect(store.record() == nil)
        }
    }

    @Test func userDefaultsStoresNumbersAsIntegersAndStringsAsStrings() throws {
        try withFixture(.userDefaults) { store, fixture in
            try store.apply(Self.keysA, record: Self.record("AAA"))
            #expect(fixture.rawObject("IABTCF_gdprApplies") as? Int == 1)
            #expect(fixture.rawObject("IABTCF_gdprApplies") as? String == nil)
            #expect(fixture.rawObject("IABTCF_CmpSdkID") as? Int == 300)
            #expect(fixture.rawObject("IABTCF_VendorConsents") as? String == "101")
            #expect(fixture.rawObject(ConsentStore.recordKey) is Data)
        }
    }

    @Test func userDefaultsStoreIsVisibleToAFreshInstance() throws {
        let suite = "WebCMPBridgeTests." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        try ConsentStore.userDefaults(suiteName: suite).apply(Self.keysB, record: Self.record("BBB"))
        let reopened = ConsentStore.userDefaults(suiteName: suite)
        #expect(reopened.iabKeys() == Self.keysB)
        #expect(reopened.record() == Self.record("BBB"))
    }

    @Test func storageErrorsAreReportedAsStorageFailed() {
        struct Boom: Error {}
        let store = ConsentStore(storage: KeyValueStorage(load: { _ in [:] }, allKeys: { _ in [] },
                                                          write: { _, _ in throw Boom() }))
        #expect(throws: ConsentStoreError.self) { try store.apply(Self.keysB, record: nil) }
    }

    @Test func errorDescriptionsNameTheProblem() {
        #expect(ConsentStoreError.foreignKey("Other").description.contains("Other"))
        let invalid = ConsentStoreError.invalidValue(key: .gdprApplies, value: .int(2), expected: .flag)
        #expect(invalid.description.contains("IABTCF_gdprApplies"))
        #expect(invalid.description.contains("0 or 1"))
    }
}
