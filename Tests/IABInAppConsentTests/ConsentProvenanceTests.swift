import Foundation
import Testing
@testable import IABInAppConsent

/// Where a consent came from and whether the user chose (``ConsentProvenance``): in the record, the history and the
/// commit; reports that never push a choice out of the bounded history; what the previous version stored reads back.
@Suite struct ConsentProvenanceTests {
    static let page = ConsentProvenance.Source(rawValue: "cmpPage")
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func commit(
        _ strings: ConsentStrings, _ action: ConsentProvenance.Action, previous: ConsentRecord? = nil
    ) throws -> ConsentCommit {
        try ConsentCommit(
            payload: ConsentPayload(action: action, strings: strings), previous: previous,
            rules: ConsentCommit.Rules(cmpSDKID: 300, cmpSDKVersion: 2, source: page), now: now)
    }

    /// Stores `strings` as `action` through the transaction, as the bridge's runner does; returns whether it wrote.
    @discardableResult
    static func save(
        _ strings: ConsentStrings, _ action: ConsentProvenance.Action, in store: ConsentStore
    ) throws -> Bool {
        let commit = try commit(strings, action, previous: store.record())
        return try store.apply(commit.keys, record: commit.record, provenance: commit.change, now: now)
    }

    // MARK: The history keeps what the user did

    @Test func theHistoryEntryKeepsEveryStringGPPSectionsIncluded() throws {
        let store = ConsentStore.inMemory()
        let strings = ConsentStrings(
            tcString: TestStrings.acceptAll, gppString: "DBABLA~CAAAAAAAAABA.QA", gppApplicableSections: [7],
            usPrivacy: "1YNN")
        try Self.save(strings, .userChoice, in: store)
        let entry = try #require(store.consentHistory().last)
        #expect(entry.strings == strings)
        #expect(entry.strings.gppApplicableSections == [7])
        let exported = try JSONValue(parsing: String(decoding: store.exportConsentHistory(), as: UTF8.self))
        guard case .array(let entries) = exported else { Issue.record("not an array"); return }
        #expect(entries.first?["gppApplicableSections"] == .array([.number(7)]))
    }

    @Test func aReReportOfTheStoredConsentWritesNothing() throws {
        let store = ConsentStore.inMemory()
        let strings = ConsentStrings(tcString: TestStrings.acceptAll)
        try Self.save(strings, .userChoice, in: store)
        #expect(try !Self.save(strings, .reReport, in: store))
        #expect(try !Self.save(strings, .signalUpdate, in: store))
        #expect(store.consentHistory().map(\.provenance.action) == [.userChoice])
        #expect(store.record()?.provenance == ConsentProvenance(Self.page, .userChoice))
    }

    @Test func aSaveOfTheStoredTCStringIsAReReportThatKeepsTheUsersChoice() throws {
        let store = ConsentStore.inMemory()
        try Self.save(ConsentStrings(tcString: TestStrings.acceptAll), .userChoice, in: store)
        let previous = try #require(store.record())
        let again = try Self.commit(ConsentStrings(tcString: TestStrings.acceptAll), .userChoice, previous: previous)
        #expect(again.change == ConsentProvenance(Self.page, .reReport))
        #expect(again.record.provenance == ConsentProvenance(Self.page, .userChoice))
        #expect(again.record.savedAt == previous.savedAt)
        let other = try Self.commit(ConsentStrings(tcString: TestStrings.rejectAll), .userChoice, previous: previous)
        #expect(other.change.action == .userChoice && other.record.provenance.action == .userChoice)
    }

    @Test func aDefaultWhileTheUIWasShownStaysUnansweredUntilTheUserChooses() throws {
        let store = ConsentStore.inMemory()
        let usDefault = ConsentStrings(gppString: "DBABLA~CAAAAAAAAABA.QA", gppApplicableSections: [7])
        try Self.save(usDefault, .signalUpdate, in: store)
        try Self.save(usDefault, .noChoiceWhileUIShown, in: store)
        #expect(store.record()?.provenance.action == .noChoiceWhileUIShown)
        // The next launch's CMP reports the same default: still nobody's answer.
        #expect(try !Self.save(usDefault, .signalUpdate, in: store))
        #expect(store.record()?.provenance.action == .noChoiceWhileUIShown)
        try Self.save(usDefault, .userChoice, in: store)
        #expect(store.record()?.provenance.action == .userChoice)
        // The first report and the unanswered default took one place.
        #expect(store.consentHistory().map(\.provenance.action) == [.noChoiceWhileUIShown, .userChoice])
    }

    @Test func reportsNeverPushTheUsersChoiceOutOfTheHistory() throws {
        var store = ConsentStore.inMemory()
        store.historyMaximumEntries = 3
        try Self.save(ConsentStrings(tcString: TestStrings.acceptAll), .userChoice, in: store)
        try Self.save(ConsentStrings(tcString: TestStrings.rejectAll), .userChoice, in: store)
        // A CMP reporting changing GPP signals at every launch.
        for index in 0..<10 {
            let gpp = index.isMultiple(of: 2) ? "DBABLA~CAAAAAAAAABA.QA" : "DBABLA~CVVVkkkkkpFY.YA"
            try Self.save(
                ConsentStrings(tcString: TestStrings.rejectAll, gppString: gpp, gppApplicableSections: [7]),
                .signalUpdate, in: store)
        }
        let history = store.consentHistory()
        #expect(history.map(\.provenance.action) == [.userChoice, .userChoice, .signalUpdate])
        #expect(history.map(\.tcString) == [TestStrings.acceptAll, TestStrings.rejectAll, TestStrings.rejectAll])
    }

    @Test func trimmingDropsTheOldestReportBeforeAnyDecision() throws {
        let limits = ConsentHistoryLimits(maximumEntries: 3)
        var text: String?
        let actions: [ConsentProvenance.Action] = [.userChoice, .reReport, .withdrawal, .userChoice, .rejectAll]
        for (index, action) in actions.enumerated() {
            let entry = ConsentHistoryEntry(
                date: Date(timeIntervalSince1970: Double(index)), provenance: ConsentProvenance(Self.page, action))
            text = try ConsentStore.appendingHistory(entry, to: text, limits: limits)
        }
        let history = ConsentStore.decodeHistory(try #require(text))
        #expect(history.map(\.provenance.action) == [.withdrawal, .userChoice, .rejectAll])
    }

    // MARK: What the previous version stored

    struct PreviousVersion: Decodable {
        var records: [String]
        var history: String
    }

    static func previousVersion() throws -> PreviousVersion {
        let url = try #require(Bundle.module.url(
            forResource: "Fixtures/store-previous-version", withExtension: "json"))
        return try JSONDecoder().decode(PreviousVersion.self, from: Data(contentsOf: url))
    }

    @Test func recordsOfThePreviousVersionReadWithTheirProvenance() throws {
        let fixture = try Self.previousVersion()
        let expected = [
            ConsentProvenance(ConsentProvenance.Source(rawValue: "fallbackPage"), .userChoice),
            ConsentProvenance(.app, .rejectAll),
            ConsentProvenance(.previousSDK, .adopted),
            ConsentProvenance(Self.page, .userChoice),
        ]
        for (text, provenance) in zip(fixture.records, expected) {
            let store = ConsentStore(storage: .inMemory([ConsentStore.recordKey: .string(text)]))
            let record = try #require(store.record())
            #expect(record.provenance == provenance)
            #expect(record.tcString == "CQ-x")
            #expect(record.savedAt == Date(timeIntervalSinceReferenceDate: 771_692_800.75))
        }
        let first = try #require(ConsentStore(storage: .inMemory([ConsentStore.recordKey: .string(fixture.records[0])])).record())
        #expect(first.strings.gppApplicableSections == [7] && first.usPrivacy == "1YNN" && first.gdprApplies == true)
    }

    @Test func historyOfThePreviousVersionReadsWithProvenanceAndDetails() throws {
        let fixture = try Self.previousVersion()
        let store = ConsentStore(storage: .inMemory([ConsentStore.historyKey: .string(fixture.history)]))
        let history = store.consentHistory()
        #expect(history.map(\.provenance) == [
            ConsentProvenance(Self.page, .userChoice), ConsentProvenance(.app, .rejectAll),
            ConsentProvenance(.app, .withdrawal), ConsentProvenance(.previousSDK, .adopted),
            ConsentProvenance(.app, .cleared),
            ConsentProvenance(ConsentProvenance.Source(rawValue: "fallbackPage"), .userChoice),
        ])
        #expect(history[0].details == ["dialect": "gravito", "pageURL": "https://cmp.example/"])
        #expect(history[0].cmpID == 300 && history[0].tcString == "CQ-x" && history[0].gdprApplies == true)
        // A write appends to it and keeps it readable.
        try Self.save(ConsentStrings(tcString: TestStrings.acceptAll), .userChoice, in: store)
        #expect(store.consentHistory().count == 7)
    }

    @Test func aLaterVersionsSourceAndActionReadWithoutClaimingAChoice() throws {
        let text = #"{"tcString":"CQ-x","savedAt":1,"source":"nativeScreen","action":"inferred"}"#
        let record = try #require(ConsentStore(storage: .inMemory([ConsentStore.recordKey: .string(text)])).record())
        #expect(record.provenance == ConsentProvenance(ConsentProvenance.Source(rawValue: "nativeScreen"), .reReport))
    }
}
