import Foundation
import Testing
@testable import IABInAppConsent

/// The identity of a storage (`KeyValueStorage.Identity`) and the lock it gives ``ConsentStore``: one per storage,
/// shared by stores of one `UserDefaults` suite, never by stores of different storages.
@Suite struct ConsentStoreLockTests {
    @Test func identityIsOnePerSuiteAndOnePerInMemoryStorage() {
        let suite = "IABInAppConsentTests." + UUID().uuidString
        #expect(KeyValueStorage.userDefaults(suiteName: suite).identity
            == ConsentStore.userDefaults(suiteName: suite).storage.identity)
        #expect(KeyValueStorage.userDefaults().identity == ConsentStore.userDefaults().storage.identity)
        #expect(KeyValueStorage.userDefaults(suiteName: suite).identity != KeyValueStorage.userDefaults().identity)
        #expect(KeyValueStorage.inMemory().identity != KeyValueStorage.inMemory().identity)
        let memory = KeyValueStorage.inMemory()
        #expect(ConsentStore(storage: memory).storage.identity == memory.identity)
        #expect(KeyValueStorage(load: memory.load, keys: memory.keys, write: memory.write).identity != memory.identity)
        var wrapped = memory
        wrapped.load = { keys in memory.load(keys) }
        #expect(wrapped.identity == memory.identity)
        #expect(KeyValueStorage.userDefaults(suiteName: suite).identity.description.contains(suite))
        #expect(KeyValueStorage.userDefaults().identity.description == "UserDefaults.standard")
        #expect(memory.identity.description == "in-memory storage")
    }

    /// Each store's write waits inside storage until the other store's write has started too. With one lock for all
    /// stores the second write could not start before the first timed out (the test fails instead of hanging).
    @Test func writesToDifferentStoragesDoNotWaitForEachOther() {
        let firstInside = DispatchSemaphore(value: 0)
        let secondInside = DispatchSemaphore(value: 0)
        let met = ReadCounter()
        func storage(arriving: DispatchSemaphore, awaiting: DispatchSemaphore) -> KeyValueStorage {
            var storage = KeyValueStorage.inMemory()
            let write = storage.write
            storage.write = { set, remove throws(ConsentStoreError) in
                arriving.signal()
                if awaiting.wait(timeout: .now() + 5) == .success { met.add(1) }
                try write(set, remove)
            }
            return storage
        }
        let stores = [
            ConsentStore(storage: storage(arriving: firstInside, awaiting: secondInside)),
            ConsentStore(storage: storage(arriving: secondInside, awaiting: firstInside)),
        ]
        Self.onThreads(stores) { store in try? store.apply(ConsentStoreTests.keysV1, record: ConsentStoreTests.record) }
        #expect(met.count == 2)
        for store in stores {
            #expect(store.iabKeys() == ConsentStoreTests.keysV1)
            #expect(store.record() == ConsentStoreTests.record)
        }
    }

    /// Stores over one storage take turns: no two of their writes are inside storage at once.
    @Test func storesOverOneStorageTakeTurns() {
        let inside = ReadCounter()
        let overlapped = ReadCounter()
        var storage = KeyValueStorage.inMemory()
        let write = storage.write
        storage.write = { set, remove throws(ConsentStoreError) in
            inside.add(1)
            if inside.count > 1 { overlapped.add(1) }
            Thread.sleep(forTimeInterval: 0.002)
            inside.add(-1)
            try write(set, remove)
        }
        let stores = (0..<4).map { _ in ConsentStore(storage: storage) }
        Self.onThreads(stores) { store in
            try? store.apply(ConsentStoreTests.keysV1, record: ConsentStoreTests.record)
            store.clearAll()
        }
        #expect(overlapped.count == 0)
        #expect(stores[0].record() == nil)
    }

    /// Runs `body` once per store, each on a thread of its own (not the cooperative pool, whose threads may be
    /// fewer than the stores), and returns when all have finished.
    static func onThreads(_ stores: [ConsentStore], _ body: @escaping @Sendable (ConsentStore) -> Void) {
        let finished = DispatchGroup()
        for store in stores {
            finished.enter()
            Thread {
                body(store)
                finished.leave()
            }.start()
        }
        finished.wait()
    }
}
