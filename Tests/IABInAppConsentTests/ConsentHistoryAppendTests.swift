import Foundation
import Testing
@testable import IABInAppConsent

/// Appending to the history the store wrote last reuses that text's entries (the history is not decoded and encoded
/// again on every save); the result holds exactly the entries that decoding the stored text and appending gives.
@Suite struct ConsentHistoryAppendTests {
    @Test func appendingToTheTextWrittenLastGivesWhatDecodingItGives() throws {
        let store = ConsentStore.inMemory()
        let strings = [TestStrings.acceptAll, TestStrings.rejectAll, TestStrings.analyticsOnly, TestStrings.acceptAll]
        let actions: [ConsentProvenance.Action] = [.userChoice, .signalUpdate, .signalUpdate, .userChoice]
        for (index, (tcString, action)) in zip(strings, actions).enumerated() {
            let date = Date(timeIntervalSince1970: 1_750_000_000 + Double(index))
            try store.apply(
                checking: IABKeySet(mapping: ConsentStrings(tcString: tcString)),
                record: ConsentRecord(strings: ConsentStrings(tcString: tcString), savedAt: date),
                provenance: ConsentProvenance(.testPage, action), now: date)
        }
        guard case .string(let written)? = store.storage.load([ConsentStore.historyKey])[ConsentStore.historyKey] else {
            Issue.record("no history written")
            return
        }
        // The same entries in a text the store never wrote (a space after the bracket): decoded, not reused.
        let sameEntries = "[ " + written.dropFirst()
        #expect(ConsentStore.decodeHistory(sameEntries) == ConsentStore.decodeHistory(written))
        for action in [ConsentProvenance.Action.userChoice, .signalUpdate] {
            let entry = ConsentHistoryEntry(
                date: Date(timeIntervalSince1970: 1_750_000_100), provenance: ConsentProvenance(.testPage, action),
                strings: ConsentStrings(tcString: TestStrings.rejectAll))
            let reused = try ConsentStore.appendingHistory(entry, to: written, limits: ConsentHistoryLimits())
            let decoded = try ConsentStore.appendingHistory(entry, to: sameEntries, limits: ConsentHistoryLimits())
            // The history's JSON has no fixed member order (its encoder does not sort): compared as entries.
            #expect(ConsentStore.decodeHistory(reused) == ConsentStore.decodeHistory(decoded), "appending a \(action)")
            #expect(!ConsentStore.decodeHistory(reused).isEmpty)
            #expect(ConsentStore.decodeHistory(reused).last == entry)
        }
        #expect(store.consentHistory().map(\.provenance.action) == [.userChoice, .signalUpdate, .userChoice])
    }
}
