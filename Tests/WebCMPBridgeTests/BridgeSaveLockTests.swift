import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// A page's save takes the storage's lock once (issue 38 §1): the bridge reads the record in force when its run
/// starts, and each save is one write. Before, every save read the stored record (`record()`, one lock) and then
/// wrote (`apply`, a second lock).
@MainActor
@Suite struct BridgeSaveLockTests {
    private func save(_ tcString: String) -> JSONValue {
        .object(["type": .string("save"), "tcstring": .string(tcString)])
    }

    @Test func aPageSaveTakesTheStoragesLockOnce() throws {
        let harness = BridgeHarness()
        let identity = harness.store.storage.identity
        for tcString in [TestStrings.acceptAll, TestStrings.rejectAll, TestStrings.analyticsOnly] {
            let before = identity.lockAcquisitions
            harness.webView.post("jsHandler", save(tcString))
            #expect(identity.lockAcquisitions - before == 1, "one lock for the save of \(tcString.prefix(12))…")
            #expect(harness.storedTCString() == tcString)
        }
        #expect(harness.savedSummaries.count == 3)
    }

    @Test func theRunStartsFromTheRecordStoredBeforeIt() throws {
        let store = ConsentStore.inMemory()
        let earlier = Date(timeIntervalSince1970: 1_700_000_000)
        try store.apply(
            IABKeySet(mapping: ConsentStrings(tcString: TestStrings.acceptAll)),
            record: ConsentRecord(
                strings: ConsentStrings(tcString: TestStrings.acceptAll), nonTCFData: .object(["kept": .bool(true)]),
                savedAt: earlier, provenance: ConsentProvenance(.cmpPage, .userChoice)))
        let harness = BridgeHarness(store: store)
        // Gravito's save carries its complete non-TCF data; the record's date and provenance come from the record in
        // force when the string is the same (a re-save of the stored string is a re-report).
        harness.webView.post("jsHandler", save(TestStrings.acceptAll))
        let record = try #require(store.record())
        #expect(record.savedAt == earlier)
        #expect(record.provenance == ConsentProvenance(.cmpPage, .userChoice))
    }

    /// A write between the run's start and its save (the app's own write during a pre-warm, another store over the
    /// same storage) is not overwritten with a save prepared on the older record: the store's write is conditional
    /// (under its one lock it finds the record changed and writes nothing), and the machine prepares the save again
    /// on the record now in force. Fails when the save is written over the stale record (it then keeps the date of
    /// the record read at the run's start).
    @Test func aSaveIsPreparedAgainWhenAnotherWriteChangedTheRecordDuringTheRun() throws {
        let store = ConsentStore.inMemory()
        let earlier = Date(timeIntervalSince1970: 1_700_000_000)
        let later = Date(timeIntervalSince1970: 1_700_050_000)
        func write(_ date: Date, _ provenance: ConsentProvenance) throws {
            try store.apply(
                IABKeySet(mapping: ConsentStrings(tcString: TestStrings.acceptAll)),
                record: ConsentRecord(
                    strings: ConsentStrings(tcString: TestStrings.acceptAll), savedAt: date, provenance: provenance))
        }
        try write(earlier, ConsentProvenance(.cmpPage, .userChoice))
        let harness = BridgeHarness(store: store)
        try write(later, ConsentProvenance(.app, .userChoice))   // after the run read the record in force
        harness.webView.post("jsHandler", save(TestStrings.acceptAll))
        let record = try #require(store.record())
        #expect(record.savedAt == later)
        #expect(harness.savedSummaries.count == 1)
        #expect(harness.errorCodes.isEmpty)
    }
}
