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

/// Two bridges over one store (a presented page and a pre-warmed one; found by the journey fuzz target): each run's
/// saves are written only over the record that run knows, and a page's GPP or US Privacy signal never writes the
/// run's older consent back over consent another bridge stored meanwhile.
@MainActor
@Suite struct BridgesSharingAStoreTests {
    private func tcf(_ status: String, _ tcString: String) -> JSONValue {
        .object(["type": .string("tcf"), "eventStatus": .string(status), "tcString": .string(tcString)])
    }

    private func gpp(_ gppString: String) -> JSONValue {
        .object(["type": .string("gpp"), "gppString": .string(gppString)])
    }

    /// The first page signals GPP only; meanwhile the second page stored the user's TC string. The signal's save,
    /// refused by the store (the record changed), is prepared again on the record in force: the user's TC string is
    /// kept, with the GPP string. Fails when the retry writes the first run's consent (GPP only) back: the TC string
    /// and every `IABTCF_` key are gone.
    @Test func aPageSignalKeepsTheConsentAnotherBridgeStoredMeanwhile() throws {
        let store = ConsentStore.inMemory()
        let first = BridgeHarness(dialect: .tcf, store: store)
        let second = BridgeHarness(dialect: .tcf, store: store)
        second.webView.post("webcmpTCF", tcf("useractioncomplete", TestStrings.acceptAll))
        #expect(second.storedTCString() == TestStrings.acceptAll)

        first.webView.post("webcmpTCF", gpp("DBABTA~1YNN"))

        let record = try #require(store.record())
        #expect(record.tcString == TestStrings.acceptAll)
        #expect(record.strings.gppString == "DBABTA~1YNN")
        #expect(first.storedTCString() == TestStrings.acceptAll)
        #expect(first.errorCodes.isEmpty)
        #expect(store.consentHistory().last?.provenance.action == .signalUpdate)
    }

    /// A US Privacy string alone is never consent: when another write removed the consent a page's US Privacy signal
    /// updated, the signal is not stored (a diagnostic says so), and nothing is written.
    @Test func aUSPrivacySignalIsNotStoredAloneWhenAnotherWriteRemovedTheConsentItUpdated() throws {
        let store = ConsentStore.inMemory()
        let harness = BridgeHarness(dialect: .tcf, store: store)
        harness.webView.post("webcmpTCF", tcf("useractioncomplete", TestStrings.acceptAll))
        store.clearAll()
        harness.webView.post("webcmpTCF", .object(["type": .string("usp"), "uspString": .string("1YNN")]))
        #expect(store.record() == nil)
        #expect(store.iabKeys().isEmpty)
        #expect(harness.events.contains {
            if case .diagnostic(let text) = $0 { return text.contains("page signal was not stored") }
            return false
        })
    }

    /// A second `start()` of a running bridge (a pre-warmed page taken by a session) changes nothing: the run keeps
    /// the record it knows *and the stored text it was read as*, so a write by another bridge since is still noticed.
    /// Fails when the runner takes the fresh stored text while the run keeps its older record: the user's new save of
    /// the string this run stored before is then written as a re-report (a commit prepared on the stale record).
    @Test func aSecondStartKeepsTheRunsRecordAndItsVersionTogether() throws {
        let store = ConsentStore.inMemory()
        let prewarmed = BridgeHarness(dialect: .tcf, store: store)
        prewarmed.webView.post("webcmpTCF", tcf("useractioncomplete", TestStrings.acceptAll))
        let other = BridgeHarness(dialect: .tcf, store: store)
        other.webView.post("webcmpTCF", tcf("useractioncomplete", TestStrings.rejectAll))
        prewarmed.bridge.start()   // ignored by the machine: the run is under way

        prewarmed.webView.post("webcmpTCF", tcf("useractioncomplete", TestStrings.acceptAll))

        #expect(prewarmed.storedTCString() == TestStrings.acceptAll)
        #expect(store.consentHistory().last?.provenance.action == .userChoice)
        #expect(store.record()?.provenance.action == .userChoice)
    }
}
