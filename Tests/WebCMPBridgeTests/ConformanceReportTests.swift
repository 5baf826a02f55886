import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The conformance report `webcmp-host check` prints, computed from the bridge's typed events and the store: each
/// row's verdict and detail, and whether the page conforms.
@Suite struct ConformanceReportTests {
    static let day: Int64 = 864_000

    static func summary(tcString: String? = nil, gppString: String? = nil) -> ConsentSummary {
        let strings = ConsentStrings(tcString: tcString, gppString: gppString)
        return ConsentSummary(
            record: ConsentRecord(strings: strings, gdprApplies: true,
                savedAt: Date(timeIntervalSince1970: 1_790_000_000)),
            decoded: tcString.flatMap { try? TCString(decoding: $0) })
    }

    static let tcSave = summary(tcString: try! DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver + day))
    static let gppOnlySave = summary(gppString: "DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")

    @Test func aPageConformsUnlessARowFailsAndRowsNotCheckedDoNotCount() {
        var report = ConformanceReport(rows: [.init("a", true, "x"), .init("b", nil, "y")])
        #expect(report.conforms)
        report.rows.append(.init("c", false, "z"))
        #expect(!report.conforms)
        #expect(ConformanceReport().conforms)
    }

    @Test func theLinesAlignTheNamesAfterTheMarks() {
        let report = ConformanceReport(rows: [.init("ready", true, "dialect: gravito"), .init("a longer name", false, "no"),
                                              .init("info", nil, "-")])
        #expect(report.lines == [
            "  PASS  ready          dialect: gravito",
            "  FAIL  a longer name  no",
            "  ----  info           -",
        ])
    }

    @Test func theReadyRowNamesTheDialectOfTheFirstReadyMessage() {
        let ready = ConformanceReport.Row.ready([.diagnostic("x"), .uiReady(.gravito), .uiReady(.tcf)], timeout: 30.7)
        #expect(ready == .init("ready message within 30 s", true, "dialect: gravito"))
        #expect(ConformanceReport.Row.ready([.uiFinished(.timedOut)], timeout: 5)
            == .init("ready message within 5 s", false, "no ready message"))
    }

    @Test func messagesAreValidOnlyWithoutBridgeErrorsOrToolFailures() {
        #expect(ConformanceReport.Row.messagesValid([.uiReady(.tcf), .diagnostic("d")], toolFailures: [])
            == .init("messages valid", true, "no rejected messages"))
        let failed = ConformanceReport.Row.messagesValid(
            [.failed(.timeout(seconds: 5)), .uiReady(.tcf), .failed(.webContentTerminated)],
            toolFailures: [.init(code: "clickFailed", message: "no element")])
        #expect(failed == .init("messages valid", false, "timeout, webContentTerminated, clickFailed"))
    }

    @Test func theTCStringRowIsNotCheckedWithoutClicksOrForAGPPOnlySave() {
        #expect(ConformanceReport.Row.decodableTCString(saved: Self.tcSave, clicked: false).verdict == .notChecked)
        let gppOnly = ConformanceReport.Row.decodableTCString(saved: Self.gppOnlySave, clicked: true)
        #expect(gppOnly == .init("save produces a decodable TC string", nil, "GPP-only save (no TC string)"))
        #expect(ConformanceReport.Row.decodableTCString(saved: nil, clicked: true)
            == .init("save produces a decodable TC string", false, "no valid save"))
        let saved = ConformanceReport.Row.decodableTCString(saved: Self.tcSave, clicked: true)
        #expect(saved.verdict == .pass)
        #expect(saved.detail == String(Self.tcSave.tcString!.prefix(40)) + "…")
    }

    @Test func theDisclosedVendorsRowFailsOnlyForANewStringWithoutTheSegment() throws {
        let cutOver = DisclosedVendorsTests.cutOver
        let with = ConformanceReport.Row.disclosedVendors(saved: Self.tcSave)
        #expect(with.verdict == .pass)
        #expect(with.detail.hasPrefix("DisclosedVendors segment with 3 vendors"))
        let missing = Self.summary(tcString: try DisclosedVendorsTests.string(created: cutOver + Self.day, disclosed: nil))
        let failed = ConformanceReport.Row.disclosedVendors(saved: missing)
        #expect(failed.verdict == .fail)
        #expect(failed.detail.contains("TCF 2.3 requires it from 2026-02-28"))
        let old = Self.summary(tcString: try DisclosedVendorsTests.string(created: cutOver - Self.day, disclosed: nil))
        #expect(ConformanceReport.Row.disclosedVendors(saved: old).verdict == .notChecked)
        #expect(ConformanceReport.Row.disclosedVendors(saved: Self.summary(tcString: "not a TC string"))
            == .init("TCF 2.3: disclosed vendors present", false, "the saved TC string does not decode"))
        #expect(ConformanceReport.Row.disclosedVendors(saved: nil).detail == "not checked (no save)")
        #expect(ConformanceReport.Row.disclosedVendors(saved: Self.gppOnlySave).detail == "not checked (no TC string saved)")
    }

    @Test func anAbsentTCFAPIFailsUnlessTheSaveWasGPPOnly() {
        #expect(ConformanceReport.Row.tcfapiPing(answer: .object(["cmpId": .number(300)]), saved: nil)
            == .init("__tcfapi answers ping", true, "cmpId 300"))
        #expect(ConformanceReport.Row.tcfapiPing(answer: .null, saved: Self.tcSave)
            == .init("__tcfapi answers ping", false, "absent"))
        #expect(ConformanceReport.Row.tcfapiPing(answer: nil, saved: Self.gppOnlySave)
            == .init("__tcfapi answers ping", nil, "absent (a GPP-only CMP)"))
    }

    @Test func informationalRowsNeverFail() {
        #expect(ConformanceReport.Row.gppPing(answer: .object([:])) == .init("__gpp answers ping", nil, "present"))
        #expect(ConformanceReport.Row.gppPing(answer: nil).detail == "absent (optional)")
        #expect(ConformanceReport.Row.gdprApplies(reported: .bool(false)).detail == "gdprApplies: false")
        #expect(ConformanceReport.Row.gdprApplies(reported: .string("1"))
            == .init("page reports gdprApplies", nil, "not reported (the configured value is used)"))
    }

    @Test func aGPPOnlySaveAnywhereInTheRunPassesTheGPPOnlyRow() {
        let events: [ConsentBridgeEvent] = [.consentReady(Self.tcSave), .consentReady(Self.gppOnlySave)]
        #expect(ConformanceReport.Row.gppOnlyConsent(events).verdict == .pass)
        #expect(ConformanceReport.Row.gppOnlyConsent([.consentReady(Self.tcSave)])
            == .init("GPP-only consent captured", nil, "not GPP-only (a TC string was saved)"))
        #expect(ConformanceReport.Row.gppOnlyConsent([]).detail == "no save")
        #expect(ConsentBridgeEvent.firstSave(in: events) == Self.tcSave)
    }

    @Test func theInjectedRecordIsAcceptedWhenRestoredOrNotReadBackAndNothingFailed() {
        let stored = JSONValue.string(Self.tcSave.tcString!)
        func row(_ restored: JSONValue?, _ events: [ConsentBridgeEvent] = [], _ failures: [ConformanceReport.ToolFailure] = [])
            -> ConformanceReport.Row
        {
            .acceptsInjectedRecord(saved: Self.tcSave, restored: restored, events: events, toolFailures: failures)
        }
        #expect(row(stored) == .init("accepts the injected record", true, "restored the stored TC string"))
        #expect(row(nil) == .init("accepts the injected record", true, "no errors on re-injection"))
        #expect(row(.string("another")) == .init("accepts the injected record", false, "no errors on re-injection"))
        #expect(row(.null, [.failed(.webContentTerminated)]) == .init("accepts the injected record", false, "errors on re-injection"))
        #expect(row(.null, [], [.init(code: "hostTimeout", message: "m")]).verdict == .fail)
    }

    @Test func privacySettingsPassOnlyReadyWithoutErrorsStillOpenAndWithEvidence() {
        func row(_ events: [ConsentBridgeEvent], _ failures: [ConformanceReport.ToolFailure] = [], openedBy: String? = "showUI")
            -> ConformanceReport.Row
        {
            .privacySettings(events, toolFailures: failures, openedBy: openedBy)
        }
        #expect(row([.uiReady(.gravito)])
            == .init("privacy settings on demand", true, "opened by showUI with the stored consent, stays open"))
        #expect(row([.uiReady(.gravito), .failed(.privacySettingsNotOpened("no evidence"))]).detail
            == ConsentBridgeError.privacySettingsNotOpened("no evidence").description)
        #expect(row([.uiReady(.gravito)], [.init(code: "hostTimeout", message: "the run did not finish")]).detail
            == "the run did not finish")
        #expect(row([]) == .init("privacy settings on demand", false, "not ready in settings mode"))
        #expect(row([.uiReady(.gravito), .uiFinished(.closed)]).detail == "finished by itself (closed)")
        #expect(row([.uiReady(.gravito)], openedBy: nil) == .init("privacy settings on demand", false, "the CMP never showed its UI"))
    }

    @Test func theFallbackIsShownWhenADiagnosticNamesItsOriginBeforeTheReadyMessage() {
        let origin = "webcmp-fallback://app"
        let shown = ConformanceReport.Row.fallbackShown(
            [.diagnostic("hosted page failed; showing \(origin)"), .uiReady(.gravito)], origin: origin)
        #expect(shown == [
            .init("hosted failure reported, fallback shown", true, "diagnostic names \(origin)"),
            .init("ready when served from \(origin)", true, "ready after the fallback load"),
        ])
        let readyFirst = ConformanceReport.Row.fallbackShown([.uiReady(.gravito), .diagnostic("via \(origin)")], origin: origin)
        #expect(readyFirst.map(\.verdict) == [.pass, .fail])
        let notLoaded = ConformanceReport.Row.fallbackShown([.diagnostic("something else")], origin: origin)
        #expect(notLoaded.map(\.verdict) == [.fail, .fail])
        #expect(notLoaded.map(\.detail) == ["the fallback was not loaded (did the URL fail?)", "no ready message"])
    }

    @Test func aFallbackSaveMustBeStoredWithTheFallbackAsItsSource() {
        #expect(ConformanceReport.Row.savedFromFallback(stored: .fallbackPage)
            == .init("save stored with source fallbackPage", true, "source: fallbackPage"))
        #expect(ConformanceReport.Row.savedFromFallback(stored: .cmpPage).verdict == .fail)
        #expect(ConformanceReport.Row.savedFromFallback(stored: nil).detail == "nothing stored")
    }

    @Test func keysMustBeWrittenOnlyAfterClicks() {
        #expect(ConformanceReport.Row.keysWritten(count: 0, clicked: true) == .init("IAB keys written", false, "0 keys"))
        #expect(ConformanceReport.Row.keysWritten(count: 12, clicked: true).verdict == .pass)
        #expect(ConformanceReport.Row.keysWritten(count: 0, clicked: false).verdict == .notChecked)
    }
}
