import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The consent history (proof of consent): written in the same storage write as the keys and the record, bounded,
/// exported as JSON, reported with each change.
@Suite struct ConsentHistoryTests {
    /// Stores over in-memory storage whose writes are remembered, and fail when ``failNextWrite()`` says so.
    final class RecordingStorage: @unchecked Sendable {
        private let lock = NSLock()
        private var writes: [[String: KeyValueStorage.Value]] = []
        private var failNext = false

        /// A store whose writes go through this object.
        func store() -> ConsentStore {
            let inner = KeyValueStorage.inMemory()
            var storage = inner
            storage.write = { [self] set, remove throws(ConsentStoreError) in
                let fail = lock.withLock { () -> Bool in
                    let fail = failNext
                    failNext = false
                    if !fail { writes.append(set) }
                    return fail
                }
                if fail { throw .storageUnavailable(suiteName: "failing") }
                try inner.write(set, remove)
            }
            return ConsentStore(storage: storage)
        }

        /// Makes the next write fail before it changes anything.
        func failNextWrite() { lock.withLock { failNext = true } }
        /// The `set` of every write that succeeded.
        var succeededWrites: [[String: KeyValueStorage.Value]] { lock.withLock { writes } }
    }

    static func commit(_ tcString: String, usPrivacy: String? = nil) throws -> ConsentCommit {
        try ConsentCommit(
            strings: ConsentStrings(tcString: tcString, usPrivacy: usPrivacy), previous: nil,
            rules: ConsentCommit.Rules(cmpSDKID: 300, cmpSDKVersion: 7), now: Date())
    }

    @Test func theEntryIsPartOfTheWriteThatStoresTheKeysAndTheRecord() throws {
        let recorder = RecordingStorage()
        let store = recorder.store()
        let commit = try Self.commit(TestStrings.acceptAll, usPrivacy: "1YNN")
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        try store.apply(
            commit.keys, record: commit.record,
            provenance: ConsentProvenance(.cmpPage, .userChoice),
            details: ["dialect": "gravito", "pageURL": "https://cmp.example/"], now: now)
        #expect(recorder.succeededWrites.count == 1)
        let write = try #require(recorder.succeededWrites.first)
        #expect(write[IABKey.tcString.rawValue] == .string(TestStrings.acceptAll))
        #expect(write[ConsentStore.recordKey] != nil)
        guard case .string(let text)? = write[ConsentStore.historyKey] else {
            Issue.record("the write did not carry the history")
            return
        }
        let entry = try #require(ConsentStore.decodeHistory(text).last)
        #expect(entry == ConsentHistoryEntry(
            date: now, provenance: ConsentProvenance(.cmpPage, .userChoice),
            details: ["dialect": "gravito", "pageURL": "https://cmp.example/"], cmpID: 300,
            cmpVersion: 7, strings: ConsentStrings(tcString: TestStrings.acceptAll, usPrivacy: "1YNN"),
            gdprApplies: true))
        #expect(store.consentHistory() == [entry])
    }

    @Test func aFailedStorageWriteRecordsNothingAndReportsNothing() async throws {
        let recorder = RecordingStorage()
        let store = recorder.store()
        let changes = store.changes()
        let first = try Self.commit(TestStrings.acceptAll)
        let second = try Self.commit(TestStrings.rejectAll)
        try store.apply(first.keys, record: first.record)
        recorder.failNextWrite()
        #expect(throws: ConsentStoreError.storageUnavailable(suiteName: "failing")) {
            try store.apply(second.keys, record: second.record)
        }
        recorder.failNextWrite()
        store.clearAll()   // fails too: nothing recorded, nothing reported
        #expect(store.consentHistory().map(\.tcString) == [TestStrings.acceptAll])
        #expect(store.record()?.tcString == TestStrings.acceptAll)
        try store.apply(second.keys, record: second.record)
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next()?.historyEntry?.tcString == TestStrings.acceptAll)
        #expect(await iterator.next()?.historyEntry?.tcString == TestStrings.rejectAll)
    }

    @Test func aRefusedWriteRecordsNothing() throws {
        let store = ConsentStore.inMemory()
        let commit = try Self.commit(TestStrings.acceptAll)
        var keys = commit.keys.keySet
        keys.appendNew(IABKey(rawValue: "Foreign_Key"), .int(1))
        #expect(throws: ConsentStoreError.foreignKey(IABKey(rawValue: "Foreign_Key"))) {
            try store.apply(keys, record: commit.record)
        }
        #expect(store.consentHistory().isEmpty)
    }

    /// Both directions at once: after a run of writes of which some fail, the history holds exactly the writes that
    /// succeeded, in order, and its last entry is what is stored.
    @Test func theHistoryHoldsExactlyTheWritesThatSucceeded() throws {
        let recorder = RecordingStorage()
        var store = recorder.store()
        store.historyLimits = ConsentHistoryLimits(maximumEntries: 100, maximumBytes: 1 << 20)
        let strings = [TestStrings.acceptAll, TestStrings.rejectAll, TestStrings.analyticsOnly]
        var expected: [String] = []
        for round in 0..<12 {
            let tcString = strings[round % strings.count]
            let commit = try Self.commit(tcString)
            if round % 4 == 1 { recorder.failNextWrite() }
            do {
                try store.apply(commit.keys, record: commit.record)
                expected.append(tcString)
            } catch {}
        }
        #expect(expected.count == 9)
        #expect(store.consentHistory().compactMap(\.tcString) == expected)
        #expect(store.consentHistory().last?.tcString == store.record()?.tcString)
        #expect(store.consentHistory().last?.tcString == TestStrings.analyticsOnly)
    }

    /// The bounds: the newest entries that fit both; the newest is kept even alone over the byte bound.
    @Test(arguments: [
        // (entries written, maximum entries, maximum bytes, entries kept)
        (5, 20, 1 << 20, 5),
        (25, 20, 1 << 20, 20),
        (5, 3, 1 << 20, 3),
        (5, 0, 1 << 20, 1),
        (5, 20, 1, 1),
    ])
    func theHistoryKeepsTheNewestEntriesWithinItsLimits(written: Int, entries: Int, bytes: Int, kept: Int) throws {
        var text: String?
        let limits = ConsentHistoryLimits(maximumEntries: entries, maximumBytes: bytes)
        for index in 0..<written {
            let entry = ConsentHistoryEntry(
                date: Date(timeIntervalSince1970: Double(index)), provenance: ConsentProvenance(.app, .rejectAll),
                strings: ConsentStrings(usPrivacy: "1YNN"))
            text = try ConsentStore.appendingHistory(entry, to: text, limits: limits)
        }
        let history = ConsentStore.decodeHistory(try #require(text))
        #expect(history.count == kept)
        #expect(history.last?.date == Date(timeIntervalSince1970: Double(written - 1)))
        #expect(history.map(\.date) == history.map(\.date).sorted())
        if kept > 1 { #expect(text!.utf8.count <= bytes) }
    }

    @Test func theByteBoundDropsTheOldestEntries() throws {
        var text: String?
        let one = ConsentHistoryEntry(date: Date(timeIntervalSince1970: 0), provenance: ConsentProvenance(.app, .cleared))
        let size = try JSONEncoder().encode([one]).count
        // Room for three entries (each the same size) and their commas, not four.
        let limits = ConsentHistoryLimits(maximumEntries: 20, maximumBytes: 3 * size + 2)
        for index in 0..<6 {
            text = try ConsentStore.appendingHistory(
                ConsentHistoryEntry(
                    date: Date(timeIntervalSince1970: Double(index)), provenance: ConsentProvenance(.app, .cleared)),
                to: text,
                limits: limits)
        }
        let history = ConsentStore.decodeHistory(try #require(text))
        #expect(history.map(\.date.timeIntervalSince1970) == [3, 4, 5])
    }

    @Test func unreadableStoredHistoryIsReplacedAndTheWriteSucceeds() throws {
        let store = ConsentStore(storage: .inMemory([ConsentStore.historyKey: .string("{not json")]))
        let commit = try Self.commit(TestStrings.acceptAll)
        try store.apply(commit.keys, record: commit.record)
        #expect(store.consentHistory().map(\.tcString) == [TestStrings.acceptAll])
    }

    @Test func programmaticChangesMigrationAndClearingNameTheirCause() throws {
        let store = ConsentStore(storage: .inMemory([
            IABKey.tcString.rawValue: .string(TestStrings.acceptAll), IABKey.cmpSDKID.rawValue: .int(300),
        ]))
        #expect(store.migrateIfNeeded(defaultSources: ConsentMigration.Source.bridgeDefaults) != nil)
        try store.rejectAll()
        try store.withdrawConsent()
        store.clearAll()
        let history = store.consentHistory()
        #expect(history.map(\.provenance) == [
            ConsentProvenance(.previousSDK, .adopted), ConsentProvenance(.app, .rejectAll),
            ConsentProvenance(.app, .withdrawal), ConsentProvenance(.app, .cleared),
        ])
        #expect(history[0].tcString == TestStrings.acceptAll)
        #expect(history[1].cmpID == 300)
        #expect(history[3].tcString == nil)
        // Clearing keeps the history.
        #expect(store.record() == nil)
    }

    @Test @MainActor func aSaveOnTheCMPPageRecordsThePageAndItsDialect() throws {
        let store = ConsentStore.inMemory()
        let webView = FakeWebView()
        let url = URL(string: "https://cmp.example/consent")!
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: url, dialect: .gravito, cmpSDKID: 300, cmpSDKVersion: 2),
            store: store, scheduler: ManualScheduler().scheduler)
        bridge.attach(to: webView)
        bridge.start()
        webView.post("jsHandler", json: #"{"type":"save","tcstring":"\#(TestStrings.acceptAll)"}"#,
                     origin: "https://cmp.example")
        bridge.invalidate()
        let entry = try #require(store.consentHistory().last)
        #expect(entry.provenance == ConsentProvenance(.cmpPage, .userChoice))
        #expect(entry.dialect == "gravito")
        #expect(entry.pageURL == url.absoluteString)
        #expect(entry.cmpID == 300)
        #expect(entry.tcString == TestStrings.acceptAll)
    }

    @Test func theExportIsJSONWithISODates() throws {
        let entries = [
            ConsentHistoryEntry(
                date: Date(timeIntervalSince1970: 1_790_000_000.25), provenance: ConsentProvenance(.app, .withdrawal),
                cmpID: 300,
                strings: ConsentStrings(tcString: "CQ", gppString: "DBA")),
        ]
        let json = try JSONValue(parsing: String(decoding: ConsentStore.exportJSON(entries), as: UTF8.self))
        #expect(json == .array([.object([
            "source": .string("programmatic"), "action": .string("withdrawal"), "cmpID": .number(300), "date": .string("2026-09-21T14:13:20.250Z"),
            "gppString": .string("DBA"), "tcString": .string("CQ"),
        ])]))
    }
}
