import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge
@testable import WebCMPConformance

/// The conformance report `webcmp-host check` prints, computed from the bridge's typed events and the store: each
/// row's verdict and detail, and whether the page conforms.
@Suite struct ConformanceReportTests {
    static let day: Int64 = 864_000

    static func summary(tcString: String? = nil, gppString: String? = nil, usPrivacy: String? = nil) -> ConsentSummary {
        let strings = ConsentStrings(tcString: tcString, gppString: gppString, usPrivacy: usPrivacy)
        return ConsentSummary(
            record: ConsentRecord(strings: strings, gdprApplies: true,
                savedAt: Date(timeIntervalSince1970: 1_790_000_000)),
            decoded: tcString.flatMap { try? TCString(decoding: $0) })
    }

    static let tcSave = summary(tcString: try! DisclosedVendorsTests.string(created: DisclosedVendorsTests.cutOver + day))
    static let gppOnlySave = summary(gppString: "DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
    /// A US CMP's opt-out (the usnat string of SampleHost's US mode) with its US Privacy string.
    static let usOptOut = summary(gppString: "DBABLA~CVVVkkkkkpFY.YA", usPrivacy: "1YYN")
    /// A save with a US Privacy string only (a dialect whose page posts `uspstring` without a TC string).
    static let uspOnlySave = summary(usPrivacy: "1YYN")

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
        // A page that sent nothing has no valid messages to show: not checked, never a pass.
        #expect(ConformanceReport.Row.messagesValid([.diagnostic("d"), .uiFinished(.timedOut)], toolFailures: [])
            == .init("messages valid", nil, "not checked (the page sent no message)"))
        #expect(ConformanceReport.Row.messagesValid([.consentReady(Self.uspOnlySave)], toolFailures: []).verdict == .pass)
        let failed = ConformanceReport.Row.messagesValid(
            [.failed(.timeout(seconds: 5)), .uiReady(.tcf), .failed(.webContentTerminated)],
            toolFailures: [.init(code: "clickFailed", message: "no element")])
        #expect(failed == .init("messages valid", false, "timeout, webContentTerminated, clickFailed"))
    }

    @Test func theTCStringRowIsNotCheckedWithoutClicksOrForAGPPOnlySave() {
        #expect(ConformanceReport.Row.decodableTCString(saved: Self.tcSave, clicked: false).verdict == .notChecked)
        let gppOnly = ConformanceReport.Row.decodableTCString(saved: Self.gppOnlySave, clicked: true)
        #expect(gppOnly == .init("save produces a decodable TC string", nil, "GPP-only save (no TC string)"))
        #expect(ConformanceReport.Row.decodableTCString(saved: Self.uspOnlySave, clicked: true)
            == .init("save produces a decodable TC string", nil, "US Privacy-only save (no TC string)"))
        #expect(ConformanceReport.Row.decodableTCString(saved: Self.summary(tcString: "not a TC string"), clicked: true)
            == .init("save produces a decodable TC string", false, "the saved TC string does not decode"))
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
        #expect(ConformanceReport.Row.tcfapiPing(answer: .null, saved: Self.uspOnlySave)
            == .init("__tcfapi answers ping", nil, "absent (a US Privacy-only CMP)"))
        #expect(ConformanceReport.Row.tcfapiPing(answer: nil, saved: nil) == .init("__tcfapi answers ping", false, "absent"))
    }

    @Test func informationalRowsNeverFail() {
        #expect(ConformanceReport.Row.gppPing(answer: .object([:]), saved: Self.tcSave) == .init("__gpp answers ping", nil, "present"))
        #expect(ConformanceReport.Row.gppPing(answer: nil, saved: nil).detail == "absent (optional)")
        #expect(ConformanceReport.Row.uspapiAnswer(.object(["version": .number(1), "uspString": .string("1YYN")]))
            == .init("__uspapi answers getUSPData", nil, "uspString \"1YYN\""))
        #expect(ConformanceReport.Row.uspapiAnswer(.null) == .init("__uspapi answers getUSPData", nil, "absent (optional)"))
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
        #expect(ConformanceReport.Row.gppOnlyConsent([.consentReady(Self.uspOnlySave)])
            == .init("GPP-only consent captured", nil, "not GPP-only (a US Privacy-only save)"))
        #expect(ConsentBridgeEvent.firstSave(in: events) == Self.tcSave)
    }

    @Test func theInjectedRecordIsAcceptedOnlyWhenThePageReportsTheStoredStringsAndNothingFailed() {
        let stored = Self.tcSave.record.strings
        let tc = Self.tcSave.tcString!
        func row(_ reported: JSONValue?, _ events: [ConsentBridgeEvent] = [], _ failures: [ConformanceReport.ToolFailure] = [])
            -> ConformanceReport.Row
        {
            .acceptsInjectedRecord(stored: stored, reported: reported, events: events, toolFailures: failures)
        }
        #expect(row(.object(["tcString": .string(tc)])) == .init("accepts the injected record", true, "restored the stored TC string"))
        // The page has no API that reports the stored string: nothing to compare, not a pass.
        #expect(row(nil) == .init("accepts the injected record", nil, "not checked (the page reports none of the stored TC string)"))
        #expect(row(.object(["gppString": .string("DBAA")])).verdict == .notChecked)
        #expect(row(.object(["tcString": .string("another")]))
            == .init("accepts the injected record", false, "TC string: the page reports \"another\", stored \(UntrustedText.quoted(tc))"))
        #expect(row(.object(["tcString": .null])).verdict == .fail)
        #expect(row(.object([:]), [.failed(.webContentTerminated)])
            == .init("accepts the injected record", false, "errors on re-injection: webContentTerminated"))
        #expect(row(.object(["tcString": .string(tc)]), [], [.init(code: "hostTimeout", message: "m")]).verdict == .fail)
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

    // MARK: - Every row for a US CMP: a GPP-only one and a US Privacy-only one

    /// One row of the table below: the row computed for a US CMP's run, and its expected verdict and detail.
    struct USRow: Sendable, CustomTestStringConvertible {
        var name: String
        var row: ConformanceReport.Row
        var verdict: ConformanceReport.Verdict
        var detail: String
        var testDescription: String { name }
    }

    /// Each row of `check` for a GPP-only CMP (its GPP string and US Privacy string, no `__tcfapi`) and a US
    /// Privacy-only save: where there is nothing to compare the row is not checked, never passed; where there is,
    /// the row compares it.
    static let usRows: [USRow] = {
        let gpp = Self.usOptOut
        let usp = Self.uspOnlySave
        let gppPing = JSONValue.object(["gppVersion": .string("1.1"), "cmpStatus": .string("loaded")])
        let uspAnswer = JSONValue.object(["version": .number(1), "uspString": .string("1YYN")])
        typealias Row = ConformanceReport.Row
        return [
            USRow(name: "GPP: ready", row: .ready([.uiReady(.tcf), .consentReady(gpp)], timeout: 5),
                  verdict: .pass, detail: "dialect: tcf"),
            USRow(name: "GPP: messages valid", row: .messagesValid([.uiReady(.tcf), .consentReady(gpp)], toolFailures: []),
                  verdict: .pass, detail: "no rejected messages"),
            USRow(name: "GPP: decodable TC string", row: .decodableTCString(saved: gpp, clicked: true),
                  verdict: .notChecked, detail: "GPP-only save (no TC string)"),
            USRow(name: "GPP: disclosed vendors", row: .disclosedVendors(saved: gpp),
                  verdict: .notChecked, detail: "not checked (no TC string saved)"),
            USRow(name: "GPP: __tcfapi ping", row: .tcfapiPing(answer: nil, saved: gpp),
                  verdict: .notChecked, detail: "absent (a GPP-only CMP)"),
            USRow(name: "GPP: __gpp ping present", row: .gppPing(answer: gppPing, saved: gpp),
                  verdict: .pass, detail: "present (a GPP-only CMP)"),
            USRow(name: "GPP: __gpp ping absent", row: .gppPing(answer: nil, saved: gpp),
                  verdict: .fail, detail: "absent (a GPP-only CMP)"),
            USRow(name: "GPP: __uspapi", row: .uspapiAnswer(uspAnswer), verdict: .notChecked, detail: "uspString \"1YYN\""),
            USRow(name: "GPP: gdprApplies", row: .gdprApplies(reported: nil),
                  verdict: .notChecked, detail: "not reported (the configured value is used)"),
            USRow(name: "GPP: GPP-only consent", row: .gppOnlyConsent([.consentReady(gpp)]),
                  verdict: .pass, detail: "a save with a GPP string and no TC string was stored"),
            USRow(name: "GPP: injected record restored",
                  row: .acceptsInjectedRecord(stored: gpp.record.strings,
                                              reported: .object(["gppString": .string(gpp.gppString!), "uspString": .string("1YYN")]),
                                              events: [], toolFailures: []),
                  verdict: .pass, detail: "restored the stored GPP string, US Privacy string"),
            // The vacuous pass of the issue: no __tcfapi (null) and no TC string stored (null) were equal.
            USRow(name: "GPP: injected record, the page has no IAB API",
                  row: .acceptsInjectedRecord(stored: gpp.record.strings, reported: .object([:]), events: [], toolFailures: []),
                  verdict: .notChecked, detail: "not checked (the page reports none of the stored GPP string, US Privacy string)"),
            USRow(name: "GPP: injected record, the opt-out dropped",
                  row: .acceptsInjectedRecord(stored: gpp.record.strings,
                                              reported: .object(["gppString": .string("DBABLA~CAAAAAAAAABA.QA"), "uspString": .string("1YNN")]),
                                              events: [], toolFailures: []),
                  verdict: .fail,
                  detail: "GPP string: the page reports \"DBABLA~CAAAAAAAAABA.QA\", stored \"DBABLA~CVVVkkkkkpFY.YA\"; "
                      + "US Privacy string: the page reports \"1YNN\", stored \"1YYN\""),
            USRow(name: "GPP: injected record, only the US Privacy string dropped",
                  row: .acceptsInjectedRecord(stored: gpp.record.strings,
                                              reported: .object(["gppString": .string(gpp.gppString!), "uspString": .string("1---")]),
                                              events: [], toolFailures: []),
                  verdict: .fail, detail: "US Privacy string: the page reports \"1---\", stored \"1YYN\""),
            USRow(name: "GPP: privacy settings without evidence", row: .privacySettings([.uiReady(.tcf)], toolFailures: [], openedBy: nil),
                  verdict: .fail, detail: "the CMP never showed its UI"),
            USRow(name: "GPP: privacy settings shown", row: .privacySettings([.uiReady(.tcf)], toolFailures: [], openedBy: "cmpDisplayStatus"),
                  verdict: .pass, detail: "opened by cmpDisplayStatus with the stored consent, stays open"),
            USRow(name: "GPP: keys written", row: .keysWritten(count: 14, clicked: true), verdict: .pass, detail: "14 keys"),
            USRow(name: "USP: ready (no IAB API the bridge listens to)", row: .ready([.uiFinished(.timedOut)], timeout: 5),
                  verdict: .fail, detail: "no ready message"),
            USRow(name: "USP: messages valid, nothing sent", row: .messagesValid([.uiFinished(.timedOut)], toolFailures: []),
                  verdict: .notChecked, detail: "not checked (the page sent no message)"),
            USRow(name: "USP: messages valid, a save", row: .messagesValid([.uiReady(.gravito), .consentReady(usp)], toolFailures: []),
                  verdict: .pass, detail: "no rejected messages"),
            USRow(name: "USP: decodable TC string", row: .decodableTCString(saved: usp, clicked: true),
                  verdict: .notChecked, detail: "US Privacy-only save (no TC string)"),
            USRow(name: "USP: decodable TC string without a save", row: .decodableTCString(saved: nil, clicked: true),
                  verdict: .fail, detail: "no valid save"),
            USRow(name: "USP: disclosed vendors", row: .disclosedVendors(saved: usp),
                  verdict: .notChecked, detail: "not checked (no TC string saved)"),
            USRow(name: "USP: __tcfapi ping", row: .tcfapiPing(answer: nil, saved: usp),
                  verdict: .notChecked, detail: "absent (a US Privacy-only CMP)"),
            USRow(name: "USP: __gpp ping", row: .gppPing(answer: nil, saved: usp), verdict: .notChecked, detail: "absent (optional)"),
            USRow(name: "USP: __uspapi", row: .uspapiAnswer(uspAnswer), verdict: .notChecked, detail: "uspString \"1YYN\""),
            USRow(name: "USP: GPP-only consent", row: .gppOnlyConsent([.consentReady(usp)]),
                  verdict: .notChecked, detail: "not GPP-only (a US Privacy-only save)"),
            USRow(name: "USP: injected record restored",
                  row: .acceptsInjectedRecord(stored: usp.record.strings, reported: .object(["uspString": .string("1YYN")]),
                                              events: [], toolFailures: []),
                  verdict: .pass, detail: "restored the stored US Privacy string"),
            USRow(name: "USP: injected record, the page has no __uspapi",
                  row: .acceptsInjectedRecord(stored: usp.record.strings, reported: .object(["tcString": .string("")]),
                                              events: [], toolFailures: []),
                  verdict: .notChecked, detail: "not checked (the page reports none of the stored US Privacy string)"),
            USRow(name: "USP: injected record, the opt-out dropped",
                  row: .acceptsInjectedRecord(stored: usp.record.strings, reported: .object(["uspString": .string("1YNN")]),
                                              events: [], toolFailures: []),
                  verdict: .fail, detail: "US Privacy string: the page reports \"1YNN\", stored \"1YYN\""),
            USRow(name: "USP: injected record, __uspapi without a string",
                  row: .acceptsInjectedRecord(stored: usp.record.strings, reported: .object(["uspString": .null]),
                                              events: [], toolFailures: []),
                  verdict: .fail, detail: "US Privacy string: the page reports null, stored \"1YYN\""),
            USRow(name: "USP: keys written", row: .keysWritten(count: 1, clicked: true), verdict: .pass, detail: "1 keys"),
            USRow(name: "USP: no keys", row: .keysWritten(count: 0, clicked: true), verdict: .fail, detail: "0 keys"),
        ]
    }()

    @Test(arguments: usRows) func everyRowOfAUSCMPComparesSomethingOrIsNotChecked(_ row: USRow) {
        #expect(row.row.verdict == row.verdict)
        #expect(row.row.detail == row.detail)
    }
}
