import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// A page's save is one pass (issue 38 §1): the message goes in, the machine runs ``ConsentCommit`` on the record in
/// force and the message's time, exactly one ``BridgeMachine/Effect/store(_:)`` goes to the store, and the store's
/// answer comes back as one input that produces the outcome's events. Nothing is handed out to be handed back.
extension BridgeMachineTests {
    /// A record stored before the run: the user's choice of ``accept`` a day before the rows' time, with non-TCF data.
    static let storedBefore = ConsentRecord(
        strings: ConsentStrings(tcString: accept), gdprApplies: true, nonTCFData: .object(["k": .string("v")]),
        configVersion: "3", savedAt: MachinePage.now.addingTimeInterval(-86_400),
        provenance: ConsentProvenance(.cmpPage, .userChoice))

    @Test func aSaveIsOneStoreEffectAndItsAnswerIsOneInput() {
        var feeder = RowFeeder(MachinePage.machine(Self.tcfDialect))
        for input in Self.started { _ = feeder.feed(input) }

        let effects = feeder.feed(.tcf(MachineBody.tcfSave(Self.accept)))
        let saves = effects.compactMap { effect -> BridgeMachine.Save? in
            if case .store(let save) = effect { save } else { nil }
        }
        #expect(saves == [MachineCommit.tcfSave(Self.accept)], "exactly one save leaves the machine: \(effects)")
        guard let save = saves.first else { return }
        // What the store writes is decided: the keys of the string, the record, the history's facts and date.
        #expect(save.keys[IABKey.tcString] == .string(Self.accept))
        #expect(save.record.savedAt == MachinePage.now && save.now == MachinePage.now)
        #expect(save.provenance == ConsentProvenance(.cmpPage, .userChoice))
        #expect(save.details == ["pageURL": MachinePage.url.absoluteString, "dialect": "tcf"])

        let answered = feeder.feed(.storeAnswered(save.id, nil, trackingStatus: .notDetermined))
        #expect(answered == [.userAction(), .consentReady(save), .finishDelay])
        #expect(feeder.feed(.timerFired(.finishDelay)) == [.finished(.consentSaved), .detach])
    }

    @Test func aSaveStartsFromTheRecordInForceAtTheStart() {
        var feeder = RowFeeder(MachinePage.machine(Self.tcfDialect))
        _ = feeder.feed(.attached(setupFailure: nil))
        _ = feeder.feed(.start(trackingStatus: .notDetermined, stored: Self.storedBefore))

        // A CMP re-reporting the stored string keeps the date the user gave it, what made it and the non-TCF data.
        let effects = feeder.feed(.tcf(MachineBody.tcfSave(Self.accept, status: "tcloaded")))
        let expected = MachineCommit.tcfSave(Self.accept, action: .reReport, previous: Self.storedBefore)
        #expect(effects == [.cancel(.ready), .uiReady(.tcf), .store(expected)])
        #expect(expected.record.savedAt == Self.storedBefore.savedAt)
        #expect(expected.record.provenance == ConsentProvenance(.cmpPage, .userChoice))
        #expect(expected.record.nonTCFData == Self.storedBefore.nonTCFData)
    }

    @Test func aLaterSaveStartsFromWhatTheRunStoredNotFromTheStart() {
        var feeder = RowFeeder(MachinePage.machine(Self.tcfDialect))
        _ = feeder.feed(.attached(setupFailure: nil))
        _ = feeder.feed(.start(trackingStatus: .notDetermined, stored: Self.storedBefore))
        _ = feeder.feed(.tcf(MachineBody.tcfSave(TestStrings.rejectAll)))
        _ = feeder.feed(MachineCommit.stored)

        let first = MachineCommit.tcfSave(TestStrings.rejectAll, previous: Self.storedBefore)
        let effects = feeder.feed(.tcf(#"{"type":"usp","uspString":"1YNN"}"#))
        #expect(effects == [.store(MachineCommit.save(
            ConsentPayload(
                action: .signalUpdate, strings: ConsentStrings(tcString: TestStrings.rejectAll, usPrivacy: "1YNN")),
            page: PageSignals(usPrivacy: "1YNN"), previous: first.record, id: 2))])
    }

    @Test func aFailedWriteIsOneAnswerTooTheUserActionThenTheError() {
        var feeder = RowFeeder(MachinePage.machine(Self.tcfDialect))
        for input in Self.started + [.tcf(MachineBody.tcfSave(Self.accept))] { _ = feeder.feed(input) }
        let failure = ConsentStoreError.storageUnavailable(suiteName: nil)
        #expect(feeder.feed(.answer(failure)) == [.userAction(), .error(.storageFailed(IABConsentError(failure)))])
        // Nothing stored: the next save still starts from nothing.
        #expect(feeder.feed(.tcf(MachineBody.tcfSave(TestStrings.rejectAll))) == [
            .store(MachineCommit.tcfSave(TestStrings.rejectAll, id: 2)),
        ])
    }

    /// The store found the stored record changed since the run read it (another write during the run): the save is
    /// prepared again on the record now in force, with the page's time, as the run's next save; after
    /// ``BridgeMachine/PendingSave/maximumAttempts`` preparations the change is reported as the store's failure.
    @Test func aSaveIsPreparedAgainOnTheRecordAnotherWriteLeft() {
        var feeder = RowFeeder(MachinePage.machine(Self.tcfDialect))
        for input in Self.started + [.tcf(MachineBody.tcfSave(Self.accept, status: "tcloaded"))] { _ = feeder.feed(input) }
        let changed = ConsentStoreError.recordChanged(current: Self.storedBefore, version: ConsentStore.RecordVersion())
        let again = feeder.feed(.storeAnswered(1, changed, trackingStatus: .notDetermined))
        #expect(again == [.store(MachineCommit.tcfSave(
            Self.accept, action: .reReport, previous: Self.storedBefore, id: 2))])
        _ = feeder.feed(.storeAnswered(2, changed, trackingStatus: .notDetermined))
        #expect(feeder.feed(.storeAnswered(3, changed, trackingStatus: .notDetermined)) == [
            .error(.storageFailed(IABConsentError(changed))),
        ])
    }
    /// A page's GPP signal updates the run's consent; when another write replaced that consent meanwhile (another
    /// bridge's user choice), the save is prepared again as the signal on the record in force, not as the run's older
    /// consent: the other write's TC string is kept. Each save names the stored text it was prepared on: the one the
    /// run started from, then the one the store reported. Fails when the retry writes the run's consent back (the TC
    /// string is lost) or a save replaces a text the run no longer knows.
    @Test func aSignalSaveIsPreparedAgainAsTheSignalOnTheRecordInForce() {
        var startVersion = ConsentStore.RecordVersion()
        startVersion.record = "start"
        var otherVersion = ConsentStore.RecordVersion()
        otherVersion.record = "other"
        var feeder = RowFeeder(MachinePage.machine(Self.tcfDialect))
        _ = feeder.feed(.attached(setupFailure: nil))
        _ = feeder.feed(.start(trackingStatus: .notDetermined, version: startVersion))
        let first = feeder.feed(.tcf(Self.gppUpdate))
        let signal = ConsentPayload(
            action: .signalUpdate,
            strings: ConsentStrings(gppString: Self.gppString, gppApplicableSections: [6]))
        #expect(first.last == .store(MachineCommit.save(signal, page: Self.gppPage, replacing: startVersion)))

        let changed = ConsentStoreError.recordChanged(current: Self.storedBefore, version: otherVersion)
        var rebased = signal
        rebased.strings.tcString = Self.accept
        rebased.gdprApplies = Self.storedBefore.gdprApplies
        #expect(feeder.feed(.storeAnswered(1, changed, trackingStatus: .notDetermined)) == [
            .store(MachineCommit.save(
                rebased, page: Self.gppPage, previous: Self.storedBefore, id: 2, replacing: otherVersion)),
        ])
    }
}
