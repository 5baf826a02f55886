import Foundation
import Testing
@testable import IABInAppConsent

/// Store tests, each run against the in-memory storage and against real `UserDefaults` (a unique suite per test).
@Suite struct ConsentStoreTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case memory, userDefaults
        var testDescription: String { rawValue }
    }

    /// A fresh store and its clean-up; for `UserDefaults` the suite is unique and the clean-up removes it.
    static func makeStore(_ backend: Backend) -> (store: ConsentStore, cleanUp: @Sendable () -> Void) {
        switch backend {
        case .memory:
            return (.inMemory(), {})
        case .userDefaults:
            let suite = "IABInAppConsentTests." + UUID().uuidString
            return (.userDefaults(suiteName: suite), { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) })
        }
    }

    /// Runs `body` with a fresh store, then cleans up.
    static func withStore(_ backend: Backend, _ body: (ConsentStore) throws -> Void) rethrows {
        let (store, cleanUp) = makeStore(backend)
        defer { cleanUp() }
        try body(store)
    }

    static let foreign: [String: KeyValueStorage.Value] = [
        "MyApp.setting": .string("keep"),
        "IABConsent_SubjectToGDPR": .string("1"),
        "IABUSPrivacy_StringOther": .int(3),
        "IABTCF": .int(1),
        "WebCMPBridge.other": .int(2),
    ]

    static func everything(_ store: ConsentStore) -> [String: KeyValueStorage.Value] {
        let names = store.storage.keys(["IAB", "My", "WebCMPBridge."])
        return store.storage.load(names)
    }

    static let keysV1 = IABKeySet([
        .cmpSDKID: .int(300),
        .gdprApplies: .int(1),
        .tcString: .string("CQ-first"),
        .vendorConsents: .string("0101"),
        .publisherRestrictions(purpose: 7): .string("__1_"),
        .gppSID: .string("2"),
        .usPrivacyString: .string("1YNN"),
        .additionalConsent: .string("2~1~dv."),
    ])

    static let keysV2 = IABKeySet([
        .cmpSDKID: .int(300),
        .gdprApplies: .int(0),
        .tcString: .string("CQ-second"),
        .vendorConsents: .string(""),
        .publisherRestrictions(purpose: 2): .string("0"),
    ])

    static let record = ConsentRecord(
        strings: ConsentStrings(tcString: "CQ-first", additionalConsent: "2~1~dv."),
        nonTCFData: .object(["a": .array([.number(1.5), .null, .bool(true)])]),
        expirationDate: Date(timeIntervalSince1970: 1_800_000_000.25), crossDomainUserID: "u-1", configVersion: "v9",
        savedAt: Date(timeIntervalSince1970: 1_700_000_000.123))

    @Test(arguments: Backend.allCases)
    func applyThenRead(_ backend: Backend) throws {
        try Self.withStore(backend) { store in
            #expect(store.iabKeys().values.isEmpty)
            #expect(store.record() == nil)
            try store.apply(Self.keysV1, record: Self.record)
            #expect(store.iabKeys() == Self.keysV1)
            #expect(store.record() == Self.record)
        }
    }

    @Test(arguments: Backend.allCases)
    func staleKeysAreRemovedForeignKeysKept(_ backend: Backend) throws {
        try Self.withStore(backend) { store in
            try store.storage.write(Self.foreign, [])
            try store.apply(Self.keysV1, record: Self.record)
            try store.apply(Self.keysV2, record: nil)
            #expect(store.iabKeys() == Self.keysV2)
            #expect(store.record() == nil)
            let all = Self.everything(store)
            for (key, value) in Self.foreign { #expect(all[key] == value, "\(key)") }
            #expect(all["IABTCF_PublisherRestrictions7"] == nil)
            #expect(all["IABUSPrivacy_String"] == nil)
            #expect(all["IABGPP_GppSID"] == nil)
            #expect(all[ConsentStore.historyKey] != nil)
            #expect(all.count == Self.foreign.count + Self.keysV2.values.count + 1)   // and the history
        }
    }

    @Test(arguments: Backend.allCases)
    func invalidInputTouchesNothing(_ backend: Backend) throws {
        try Self.withStore(backend) { store in
            try store.storage.write(Self.foreign, [])
            try store.apply(Self.keysV1, record: Self.record)
            let before = Self.everything(store)
            var nonFinite = Self.record
            nonFinite.nonTCFData = .number(.nan)
            let cases: [(IABKeySet, ConsentRecord?, ConsentStoreError)] = [
                (IABKeySet(["MyApp.setting": .string("x")]), nil, .foreignKey("MyApp.setting")),
                (IABKeySet(["IABTCF_": .string("x")]), nil, .foreignKey("IABTCF_")),
                (IABKeySet([.gdprApplies: .string("1")]), nil,
                 .wrongValueType(.gdprApplies, expected: .int, found: .string)),
                (IABKeySet([.tcString: .int(1)]), nil, .wrongValueType(.tcString, expected: .string, found: .int)),
                (IABKeySet(["IABGPP_TCFEU2_gdprApplies": .string("1")]), nil,
                 .wrongValueType("IABGPP_TCFEU2_gdprApplies", expected: .int, found: .string)),
                (IABKeySet([.vendorConsents: .string("01x")]), nil, .invalidValue(.vendorConsents, .string("01x"))),
                (IABKeySet([.gdprApplies: .int(2)]), nil, .invalidValue(.gdprApplies, .int(2))),
                (IABKeySet(["IABGPP_TCFEU2_PurposeOneTreatment": .int(-1)]), nil,
                 .invalidValue("IABGPP_TCFEU2_PurposeOneTreatment", .int(-1))),
                (IABKeySet(["IABTCF_PublisherRestrictions3": .string("0_3")]), nil,
                 .invalidValue("IABTCF_PublisherRestrictions3", .string("0_3"))),
                (IABKeySet(["IABTCF_PublisherRestrictionsX": .string("0")]), nil,
                 .invalidValue("IABTCF_PublisherRestrictionsX", .string("0"))),
                (IABKeySet(["IABGPP_TCFEU2_PublisherRestrictions1": .int(0)]), nil,
                 .wrongValueType("IABGPP_TCFEU2_PublisherRestrictions1", expected: .string, found: .int)),
            ]
            for (keys, record, error) in cases {
                #expect(throws: error) { try store.apply(keys, record: record) }
            }
            #expect(throws: ConsentStoreError.self) { try store.apply(Self.keysV2, record: nonFinite) }
            // A crafted TC string can ask for 63 purposes × 65,535-character restriction strings (4 MB).
            var huge = IABKeySet()
            for purpose in 1...20 {
                huge[.publisherRestrictions(purpose: purpose)] = .string(String(repeating: "0", count: 60_000))
            }
            #expect(throws: ConsentStoreError.tooLarge(bytes: 20 * 60_000 + 9 * 29 + 11 * 30, limit: 1 << 20)) {
                try store.apply(huge, record: nil)
            }
            #expect(Self.everything(store) == before)
        }
    }

    @Test(arguments: Backend.allCases)
    func clearAllRemovesOnlyOurs(_ backend: Backend) throws {
        try Self.withStore(backend) { store in
            try store.storage.write(Self.foreign, [])
            try store.apply(Self.keysV1, record: Self.record)
            try store.storage.write(["IABGPP_7_String": .string("left by another CMP")], [])
            store.clearAll()
            var remaining = Self.everything(store)
            #expect(remaining.removeValue(forKey: ConsentStore.historyKey) != nil)   // the history stays
            #expect(remaining == Self.foreign)
            #expect(store.record() == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func corruptStoredDataReadsAsAbsent(_ backend: Backend) throws {
        try Self.withStore(backend) { store in
            try store.storage.write(
                [
                    ConsentStore.recordKey: .double(7),
                    "IABTCF_CmpSdkID": .double(1.5),
                ], [])
            #expect(store.record() == nil)
            #expect(store.iabKeys().values.isEmpty)
            try store.storage.write([ConsentStore.recordKey: .string("not json")], [])
            #expect(store.record() == nil)
            try store.storage.write([ConsentStore.recordKey: .int(7)], [])
            #expect(store.record() == nil)
        }
    }

    /// Concurrent `apply` calls never leave a mixture: the final keys are exactly one of the applied sets.
    @Test(arguments: Backend.allCases)
    func concurrentAppliesDoNotMix(_ backend: Backend) async {
        let (store, cleanUp) = Self.makeStore(backend)
        defer { cleanUp() }
        let sets = (1...8).map { index in
            IABKeySet([
                .tcString: .string("CQ-\(index)"),
                .publisherRestrictions(purpose: index): .string("0"),
                .gppSectionString(index): .string("1YNN"),
            ])
        }
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<5 {
                for keys in sets {
                    group.addTask { try? store.apply(keys, record: round == 4 ? nil : Self.record) }
                }
            }
        }
        #expect(sets.contains(store.iabKeys()))
    }

    @Test func userDefaultsIsSharedAcrossInstancesAndStoresNumbersAsIntegers() throws {
        let suite = "IABInAppConsentTests." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        try ConsentStore.userDefaults(suiteName: suite).apply(Self.keysV1, record: Self.record)
        let defaults = try #require(UserDefaults(suiteName: suite))
        #expect(defaults.object(forKey: "IABTCF_gdprApplies") as? Int == 1)
        #expect(defaults.object(forKey: "IABTCF_gdprApplies") as? String == nil)
        #expect(defaults.integer(forKey: "IABTCF_CmpSdkID") == 300)
        #expect(defaults.string(forKey: "IABTCF_VendorConsents") == "0101")
        let other = ConsentStore.userDefaults(suiteName: suite)
        #expect(other.iabKeys() == Self.keysV1)
        #expect(other.record() == Self.record)
    }

    /// Values of property-list types the store never writes (`Data`, left by someone else) read as absent.
    @Test func userDefaultsValuesOfOtherTypesReadAsAbsent() throws {
        let suite = "IABInAppConsentTests." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let defaults = try #require(UserDefaults(suiteName: suite))
        defaults.set(Data("{\"savedAt\": \"yesterday\"}".utf8), forKey: ConsentStore.recordKey)
        defaults.set(Data([1]), forKey: "IABTCF_CmpSdkID")
        let store = ConsentStore.userDefaults(suiteName: suite)
        #expect(store.record() == nil)
        #expect(store.iabKeys().values.isEmpty)
        #expect(store.storage.load([ConsentStore.recordKey, "IABTCF_CmpSdkID"]).isEmpty)
    }

    @Test func errorDescriptions() {
        #expect(ConsentStoreError.foreignKey("Other").description.contains("\"Other\""))
        #expect(ConsentStoreError.wrongValueType(.gdprApplies, expected: .int, found: .string).description
            .contains("IABTCF_gdprApplies"))
        #expect(ConsentStoreError.storageUnavailable(suiteName: nil).description.contains("standard"))
    }
}
