import Foundation
import Testing
@testable import IABInAppConsent

/// How the bridge's own record is stored: JSON text, non-TCF data under its own key, the launch-time read path.
@Suite struct ConsentStoreRecordTests {
    typealias Backend = ConsentStoreTests.Backend

    static let nested: JSONValue = .object([
        "version": .number(3),
        "consents": .array((1...20).map { id in
            .object(["id": .number(Double(id)), "name": .string("Purpose \(id) \"ü\" <b>"), "ok": .bool(id % 2 == 0)])
        }),
        "__proto__": .object(["x": .null]),
        "fraction": .number(-0.125),
        "big": .number(9_007_199_254_740_991),
    ])

    static func record(_ data: JSONValue?) -> ConsentRecord {
        ConsentRecord(
            strings: ConsentStrings(tcString: "CQ-x", gppString: "DBABTA~1YNN", usPrivacy: "1YNN"), nonTCFData: data,
            expirationDate: Date(timeIntervalSince1970: 1_900_000_000.5), crossDomainUserID: "cd", configVersion: "12",
            savedAt: Date(timeIntervalSince1970: 1_750_000_000.75))
    }

    @Test(arguments: Backend.allCases)
    func nonTCFDataRoundTripsAndCanBeSkipped(_ backend: Backend) throws {
        try ConsentStoreTests.withStore(backend) { store in
            try store.apply(IABKeySet(), record: Self.record(Self.nested))
            #expect(store.record() == Self.record(Self.nested))
            #expect(store.record(includingNonTCFData: false) == Self.record(nil))
            // A record without non-TCF data removes the old data.
            try store.apply(IABKeySet(), record: Self.record(nil))
            #expect(store.record() == Self.record(nil))
            #expect(store.storage.load([ConsentStore.nonTCFDataKey]).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func unstorableNonTCFDataIsRefusedBeforeWriting(_ backend: Backend) throws {
        try ConsentStoreTests.withStore(backend) { store in
            try store.apply(IABKeySet([.tcString: .string("CQ-x")]), record: Self.record(Self.nested))
            var deep = JSONValue.null
            for _ in 0..<300 { deep = .array([deep]) }
            for data in [deep, .object(["n": .number(.infinity)])] {
                #expect(throws: ConsentStoreError.self) {
                    try store.apply(IABKeySet([.tcString: .string("CQ-y")]), record: Self.record(data))
                }
            }
            #expect(store.record() == Self.record(Self.nested))
            #expect(store.iabKeys() == IABKeySet([.tcString: .string("CQ-x")]))
        }
    }

    @Test(arguments: Backend.allCases)
    func corruptNonTCFDataFailsOnlyTheFullRead(_ backend: Backend) throws {
        try ConsentStoreTests.withStore(backend) { store in
            try store.apply(IABKeySet(), record: Self.record(Self.nested))
            try store.storage.write([ConsentStore.nonTCFDataKey: .string("{\"unterminated\": [")], [])
            #expect(store.record() == nil)
            #expect(store.record(includingNonTCFData: false) == Self.record(nil))
        }
    }

    /// `record()` decodes a stored text only when it differs from the one decoded last; any other text — written
    /// by another store, another storage or behind the store's back — is decoded again, never answered from before.
    @Test(arguments: Backend.allCases)
    func theRecordIsDecodedAgainWheneverItsStoredTextChanges(_ backend: Backend) throws {
        try ConsentStoreTests.withStore(backend) { store in
            let other = ConsentStore.inMemory()
            var changed = Self.record(.object(["n": .number(2)]))
            changed.configVersion = "13"
            try other.apply(IABKeySet(), record: changed)
            let otherTexts = other.storage.load([ConsentStore.recordKey, ConsentStore.nonTCFDataKey])

            try store.apply(IABKeySet(), record: Self.record(Self.nested))
            #expect(store.record() == Self.record(Self.nested))
            #expect(other.record() == changed, "another storage's record, read in between")
            #expect(store.record() == Self.record(Self.nested))
            // The same texts written behind the store's back: read as they are now.
            try store.storage.write(otherTexts, [])
            #expect(store.record() == changed)
            try store.storage.write([ConsentStore.recordKey: .string("{")], [])
            #expect(store.record() == nil)
            #expect(store.record(includingNonTCFData: false) == nil)
        }
    }

    @Test(arguments: Backend.allCases)
    func clearAllRemovesTheWholeNamespace(_ backend: Backend) throws {
        try ConsentStoreTests.withStore(backend) { store in
            try store.storage.write(["WebCMPBridge.other": .int(1)], [])
            try store.apply(IABKeySet([.usPrivacyString: .string("1YNN")]), record: Self.record(Self.nested))
            store.clearAll()
            // The consent history stays: that consent was cleared is part of it.
            #expect(Set(store.storage.keys(["WebCMPBridge.", "IAB"])) == ["WebCMPBridge.other", ConsentStore.historyKey])
            #expect(store.consentHistory().map(\.provenance) == [ConsentProvenance(.testPage, .userChoice), ConsentProvenance(.app, .cleared)])
            #expect(store.record() == nil)
        }
    }

    @Test func userDefaultsHoldsTheRecordAsJSONText() throws {
        let suite = "IABInAppConsentTests." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        try ConsentStore.userDefaults(suiteName: suite).apply(IABKeySet(), record: Self.record(Self.nested))
        let defaults = try #require(UserDefaults(suiteName: suite))
        let text = try #require(defaults.object(forKey: ConsentStore.recordKey) as? String)
        #expect(text.contains("\"tcString\":\"CQ-x\""))
        let data = try #require(defaults.object(forKey: ConsentStore.nonTCFDataKey) as? String)
        #expect(try JSONValue(parsing: data) == Self.nested)
        #expect(text.contains("\"source\":\"programmatic\"") && text.contains("\"action\":\"userChoice\""))
    }

    /// The record's text keeps its flat members (the strings by their names), whatever carries them in the code: a
    /// record written before `StoredConsentRecord` held one `ConsentStrings` reads back, and the same record gives
    /// the same text (a report of the stored consent is seen to change nothing).
    @Test func theStoredRecordsTextIsFlatAndUnchanged() throws {
        let record = ConsentRecord(
            strings: ConsentStrings(
                tcString: "CQ-x", additionalConsent: "2~1", gppString: "DBABTA~1YNN", gppApplicableSections: [6],
                usPrivacy: "1YNN"),
            gdprApplies: true, savedAt: Date(timeIntervalSince1970: 1_750_000_000),
            provenance: ConsentProvenance(.testPage, .userChoice))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(StoredConsentRecord(record)), as: UTF8.self)
        #expect(text == #"{"action":"userChoice","additionalConsent":"2~1","gdprApplies":true,"gppApplicableSections":[6],"#
            + #""gppString":"DBABTA~1YNN","savedAt":771692800,"source":"cmpPage","tcString":"CQ-x","usPrivacy":"1YNN"}"#)
        let read = try JSONDecoder().decode(StoredConsentRecord.self, from: Data(text.utf8))
        #expect(read.record(nonTCFData: nil) == record)
    }

    @Test func oneStorageIsSafeToUseFromManyTasks() async throws {
        let suite = "IABInAppConsentTests." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = ConsentStore.userDefaults(suiteName: suite)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    var record = Self.record(.number(Double(index)))
                    record.configVersion = String(index)
                    try store.apply(IABKeySet([.cmpSDKID: .int(index)]), record: record)
                    _ = store.record()
                    _ = store.iabKeys()
                }
            }
            try await group.waitForAll()
        }
        // Whichever write came last, the stored state is one complete apply, never a mix.
        let stored = try #require(store.record())
        let version = try #require(stored.configVersion)
        let index = try #require(Int(version))
        #expect(stored.nonTCFData == .number(Double(index)))
        #expect(store.iabKeys() == IABKeySet([.cmpSDKID: .int(index)]))
    }
}
