import Foundation
import Testing
@testable import IABInAppConsent

/// `ConsentStore.changes()` and `didChangeNotification`: each storage has its own stream, stores of one storage
/// (one `UserDefaults` suite) share it.
@Suite struct ConsentStoreChangesTests {
    /// A commit whose TC string is `marker`.
    static func commit(_ marker: String) throws -> ConsentCommit {
        try ConsentCommit(
            strings: ConsentStrings(tcString: marker), previous: nil, rules: ConsentCommit.Rules(), now: Date())
    }

    @Test func streamAndNotificationReportAppliesAndClears() async throws {
        let marker = TestStrings.make(purposes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], vendors: [4242])
        let store = ConsentStore.inMemory()
        let stream = store.changes()
        let notified = ReadCounter()
        let observer = NotificationCenter.default.addObserver(
            forName: ConsentStore.didChangeNotification, object: store.storage.identity, queue: nil
        ) { note in
            if let change = note.userInfo?[ConsentStore.changeUserInfoKey] as? ConsentChange,
                change.record?.tcString == marker
            { notified.add(1) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let commit = try Self.commit(marker)
        #expect(throws: ConsentStoreError.self) {
            // A failed write reports nothing.
            try store.apply(IABKeySet([IABKey(rawValue: "Foreign_Key"): .int(1)]), record: commit.record)
        }
        try store.apply(commit.keys, record: commit.record)
        store.clearAll()
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next().map(\.record) == .some(commit.record))
        #expect(await iterator.next().map(\.record) == .some(nil))
        #expect(notified.count == 1)
    }

    /// Two in-memory stores: neither stream nor a notification observer of one hears the other.
    @Test func storesOverDifferentStoragesDoNotSeeEachOthersChanges() async throws {
        let first = ConsentStore.inMemory()
        let second = ConsentStore.inMemory()
        #expect(first.storage.identity != second.storage.identity)
        let heardByFirst = ReadCounter()
        let observer = NotificationCenter.default.addObserver(
            forName: ConsentStore.didChangeNotification, object: first.storage.identity, queue: nil
        ) { _ in heardByFirst.add(1) }
        defer { NotificationCenter.default.removeObserver(observer) }
        let firstChanges = first.changes()
        let secondChanges = second.changes()
        let other = try Self.commit(TestStrings.rejectAll)
        let own = try Self.commit(TestStrings.acceptAll)
        try second.apply(other.keys, record: other.record)
        try first.apply(own.keys, record: own.record)
        second.clearAll()
        var firstIterator = firstChanges.makeAsyncIterator()
        #expect(await firstIterator.next()?.record == own.record)
        first.clearAll()
        #expect(await firstIterator.next().map(\.record) == .some(nil))
        var secondIterator = secondChanges.makeAsyncIterator()
        #expect(await secondIterator.next()?.record == other.record)
        #expect(await secondIterator.next().map(\.record) == .some(nil))
        #expect(heardByFirst.count == 2)
    }

    /// Two stores created separately over one `UserDefaults` suite write the same keys: they share the stream.
    @Test func storesOfOneSuiteShareTheStream() async throws {
        let suite = "IABInAppConsentTests." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let listening = ConsentStore.userDefaults(suiteName: suite)
        let writing = ConsentStore.userDefaults(suiteName: suite)
        let elsewhere = ConsentStore.userDefaults(suiteName: suite + ".other")
        let changes = listening.changes()
        let commit = try Self.commit(TestStrings.analyticsOnly)
        try elsewhere.apply(commit.keys, record: commit.record)
        try writing.apply(commit.keys, record: commit.record)
        elsewhere.clearAll()
        UserDefaults(suiteName: suite + ".other")?.removePersistentDomain(forName: suite + ".other")
        writing.clearAll()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next().map(\.record) == .some(commit.record))
        #expect(await iterator.next().map(\.record) == .some(nil))
    }

    /// The stream of an in-memory store ends when the storage's last value is released: nothing can write it.
    @Test func streamEndsWhenTheStorageIsReleased() async {
        var changes: AsyncStream<ConsentChange>?
        do {
            let store = ConsentStore.inMemory()
            changes = store.changes()
            store.clearAll()
        }
        var iterator = changes?.makeAsyncIterator()
        #expect(await iterator?.next().map(\.record) == .some(nil))
        #expect(await iterator?.next() == nil)
    }

    /// Concurrent writes to one store reach its stream in the order they were written: the last change is what is
    /// stored.
    @Test func theLastChangeOfTheStreamIsWhatIsStored() async throws {
        let store = ConsentStore.inMemory()
        let changes = store.changes()
        let commits = try (1...8).map { vendor in try Self.commit(TestStrings.make(purposes: [1], vendors: [vendor])) }
        await withTaskGroup(of: Void.self) { group in
            for commit in commits {
                group.addTask { try? store.apply(commit.keys, record: commit.record) }
            }
        }
        var last: ConsentChange?
        for await change in changes.prefix(commits.count) { last = change }
        #expect(last?.record == store.record())
    }

    /// Stores writing concurrently, each with a listener: every stream gets exactly its own store's changes.
    @Test func concurrentWritesReachOnlyTheirOwnStream() async throws {
        let stores = (0..<4).map { _ in ConsentStore.inMemory() }
        let streams = stores.map { $0.changes() }
        let commits = try [
            TestStrings.acceptAll, TestStrings.rejectAll, TestStrings.analyticsOnly, TestStrings.make(purposes: [1]),
        ].map(Self.commit)
        let rounds = 25
        await withTaskGroup(of: Void.self) { group in
            for (store, commit) in zip(stores, commits) {
                group.addTask {
                    for _ in 0..<rounds { try? store.apply(commit.keys, record: commit.record) }
                }
            }
        }
        var iterators = streams.map { $0.makeAsyncIterator() }
        for (index, commit) in commits.enumerated() {
            for _ in 0..<rounds { #expect(await iterators[index].next()?.record == commit.record) }
        }
        for store in stores { store.clearAll() }
        for index in iterators.indices {
            #expect(await iterators[index].next().map(\.record) == .some(nil))
        }
    }
}
