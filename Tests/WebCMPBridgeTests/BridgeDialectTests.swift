import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
@Suite struct BridgeDialectTests {
    @Test func onesecondbeforeConsentAsJSONString() throws {
        let harness = BridgeHarness(dialect: .onesecondbefore)
        #expect(harness.webView.handlers == ["osbCmpMessageHandler"])
        harness.webView.finishLoading()
        #expect(harness.events.first == .uiReady(.onesecondbefore))
        let consent = JavaScriptLiteral.expression(.object([
            "tcString": .string(TestStrings.analyticsOnly),
            "purposes": .array([.number(1), .number(8), .number(9)]),
            "vendorConsents": .array([.number(2)]),
            "addtlConsent": .string("1~1.35"),
        ]))
        harness.webView.post("osbCmpMessageHandler", .object([
            "consent": .string(consent), "cduid": .string("user-1"), "expirationDate": .number(1_800_000_000_000),
        ]))
        #expect(harness.errorCodes == [])
        let record = try #require(harness.store.record())
        #expect(record.tcString == TestStrings.analyticsOnly)
        #expect(record.crossDomainUserID == "user-1")
        #expect(record.expirationDate == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(!harness.events.contains { if case .diagnostic = $0 { return true } else { return false } })
    }

    @Test func onesecondbeforeObjectWhoseArraysDisagreeReportsADiagnostic() throws {
        let harness = BridgeHarness(dialect: .onesecondbefore)
        harness.webView.post("osbCmpMessageHandler", .object([
            "consent": .object([
                "tcString": .string(TestStrings.rejectAll),
                "purposes": .array([.number(1), .number(2), .number(3)]),
            ]),
        ]))
        #expect(harness.storedTCString() == TestStrings.rejectAll)
        #expect(try #require(harness.savedSummaries.last).purposeConsents.isEmpty)
        #expect(harness.events.contains { if case .diagnostic(let text) = $0 { return text.contains("purposes") } else { return false } })
    }

    @Test func onesecondbeforeRejectsMalformedConsent() {
        let harness = BridgeHarness(dialect: .onesecondbefore)
        harness.webView.post("osbCmpMessageHandler", .object(["consent": .number(1)]))
        harness.webView.post("osbCmpMessageHandler", .object(["consent": .object(["purposes": .array([])])]))
        harness.webView.post("osbCmpMessageHandler", .object([
            "consent": .object(["tcString": .string(TestStrings.rejectAll)]), "expirationDate": .string("soon"),
        ]))
        #expect(harness.errorCodes == ["invalidMessage", "invalidMessage", "invalidMessage"])
        #expect(harness.store.record() == nil)
    }

    @Test func genericTCFForwarderFlow() throws {
        let harness = BridgeHarness(dialect: .tcf)
        #expect(harness.webView.userScripts == [CMPScripts.tcfForwarder])
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        #expect(harness.events.first == .uiReady(.tcf))
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.acceptAll), "gdprApplies": .bool(true), "cmpId": .number(10),
            "addtlConsent": .string("2~1.35~dv."),
        ]))
        #expect(harness.errorCodes == [])
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        // The UI stays open for the settle delay: the GPP update a CMP sends right after its TCF event is stored too.
        #expect(!harness.events.contains(.uiFinished(.consentSaved)))
        harness.webView.post("webcmpTCF", .object([
            "type": .string("gpp"), "gppString": .string("DBABMA~" + TestStrings.acceptAll),
            "applicableSections": .array([.number(2)]),
        ]))
        #expect(harness.store.iabKeys()["IABGPP_HDR_GppString"] == .string("DBABMA~" + TestStrings.acceptAll))
        #expect(harness.store.iabKeys()["IABGPP_GppSID"] == .string("2"))
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        harness.clock.advance(by: 0.5)
        #expect(harness.events.last == .uiFinished(.consentSaved))
        #expect(harness.bridge.state == .invalidated)

        // Nothing is stored after the UI finished.
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.rejectAll),
        ]))
        #expect(harness.storedTCString() == TestStrings.acceptAll)
    }

    @Test func reopenedTCFCMPStaysOpenUntilTheUserActs() throws {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        // A CMP that already has consent reports it first (tcloaded): stored, but the UI stays open.
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string(TestStrings.acceptAll),
        ]))
        harness.clock.advance(by: 5)
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(!harness.events.contains { $0.endsPresentation })
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.analyticsOnly),
        ]))
        harness.clock.advance(by: 1)
        #expect(harness.storedTCString() == TestStrings.analyticsOnly)
        #expect(harness.events.last == .uiFinished(.consentSaved))
    }

    @Test func failureEndsTheRunAndALaterSaveIsIgnored() throws {
        let harness = BridgeHarness(dialect: .gravito)
        harness.webView.eventHandler?(.didFailLoading(WebViewLoadFailure(url: nil, description: "offline")))
        #expect(harness.events.last == .uiFinished(.failed))
        #expect(harness.bridge.state == .invalidated)
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        #expect(harness.store.record() == nil)
    }

    @Test func httpErrorStatusIsALoadFailure() throws {
        let harness = BridgeHarness(dialect: .gravito)
        harness.webView.eventHandler?(.didReceiveResponse(URL(string: "https://cmp.example.com/app/"), statusCode: 200))
        #expect(harness.errorCodes == [])
        let failing = BridgeHarness(dialect: .gravito)
        failing.webView.eventHandler?(.didReceiveResponse(URL(string: "https://cmp.example.com/app/"), statusCode: 503))
        #expect(failing.events.contains(.failed(.loadFailed(WebViewLoadError(
            url: URL(string: "https://cmp.example.com/app/"), statusCode: 503, reason: "the server answered an error")))))
        #expect(failing.events.last == .uiFinished(.failed))
    }

    @Test func automaticModeNeedsARealSignalNotJustALoad() throws {
        let harness = BridgeHarness(dialect: nil)
        harness.webView.finishLoading()
        #expect(harness.bridge.state == .loading)
        harness.clock.advance(by: 31)
        #expect(harness.errorCodes == ["timeout"])
        #expect(harness.events.last == .uiFinished(.timedOut))
        #expect(harness.store.record() == nil)
    }

    @Test func onesecondbeforeConsentEndsTheUI() throws {
        let harness = BridgeHarness(dialect: .onesecondbefore)
        harness.webView.finishLoading()
        #expect(harness.events.first == .uiReady(.onesecondbefore))
        harness.webView.post("osbCmpMessageHandler", .object([
            "consent": .object(["tcString": .string(TestStrings.acceptAll)]),
        ]))
        harness.clock.advance(by: 1)
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(harness.events.last == .uiFinished(.consentSaved))
    }

    @Test func gppOnlyCMPIsConsent() throws {
        let harness = BridgeHarness(dialect: .tcf)
        // A GPP header with no section is no consent yet.
        harness.webView.post("webcmpTCF", .object(["type": .string("gpp"), "gppString": .string("DBAA")]))
        #expect(harness.store.record() == nil)
        #expect(harness.errorCodes == ["invalidConsent"])
        harness.webView.post("webcmpTCF", .object([
            "type": .string("gpp"), "gppString": .string("DBABTA~1YNN"), "applicableSections": .array([.number(6)]),
        ]))
        #expect(harness.store.iabKeys()["IABGPP_HDR_GppString"] == .string("DBABTA~1YNN"))
        #expect(harness.store.iabKeys()["IABGPP_6_String"] == .string("1YNN"))
        #expect(harness.store.iabKeys()["IABTCF_gdprApplies"] == nil)
        #expect(ConsentBridge.needsConsentUI(store: harness.store, now: harness.clock.now) == nil)
    }

    @Test func automaticDetectionPrefersTheAppProtocol() throws {
        let harness = BridgeHarness(dialect: nil)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.bridge.dialect == .gravito)
        #expect(harness.webView.evaluated.count == 1)
        // The forwarder's view of the same save is ignored once the page speaks Gravito.
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"), "tcString": .string(TestStrings.rejectAll),
        ]))
        #expect(harness.store.record() == nil)
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        harness.webView.post("osbCmpMessageHandler", .object(["consent": .object(["tcString": .string(TestStrings.rejectAll)])]))
        #expect(harness.errorCodes == ["unexpectedDialect"])
        #expect(harness.storedTCString() == TestStrings.acceptAll)
    }

    @Test func automaticDetectionOfAGenericTCFPage() {
        let harness = BridgeHarness(dialect: nil)
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string(TestStrings.analyticsOnly),
        ]))
        #expect(harness.bridge.dialect == .tcf)
        #expect(harness.storedTCString() == TestStrings.analyticsOnly)
    }

    @Test func runReturnsTheSavedConsent() async throws {
        let webView = FakeWebView()
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/")!, dialect: .gravito),
            store: .inMemory(), scheduler: ManualScheduler().scheduler)
        let task = Task { @MainActor in await bridge.run(in: webView) }
        while webView.loadedURLs.isEmpty { await Task.yield() }
        webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        webView.post("jsHandler", .object(["type": .string("close")]))
        let outcome = await task.value
        #expect(outcome.summary?.tcString == TestStrings.acceptAll)
        #expect(outcome.finishReason == .closed)
        #expect(outcome.errors.isEmpty)
        // run(in:) leaves nothing registered in the web view.
        #expect(bridge.state == .invalidated)
        #expect(webView.handlers.isEmpty)
        #expect(webView.userScripts.isEmpty)
    }
}

@MainActor
@Suite struct BridgeSDKIdentityTests {
    private func save(_ harness: BridgeHarness) {
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.acceptAll), "cmpId": .number(10), "cmpVersion": .number(7),
        ]))
    }

    @Test func configuredSDKIDIsNeverPairedWithAnotherCMPsVersion() {
        let configured = BridgeHarness(dialect: .tcf) { $0.cmpSDKID = 99 }
        save(configured)
        #expect(configured.store.iabKeys()["IABTCF_CmpSdkID"] == .int(99))
        #expect(configured.store.iabKeys()["IABTCF_CmpSdkVersion"] == nil)

        let reported = BridgeHarness(dialect: .tcf)
        save(reported)
        #expect(reported.store.iabKeys()["IABTCF_CmpSdkID"] == .int(10))
        #expect(reported.store.iabKeys()["IABTCF_CmpSdkVersion"] == .int(7))
    }
}

@MainActor
@Suite struct AutomaticDetectionReadinessTests {
    /// A TCF or GPP CMP that shows its UI is ready, even before any consent (a reopened page, a first layer).
    @Test func theCMPShowingItsUIFixesTheGenericDialect() {
        let harness = BridgeHarness(dialect: nil)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        #expect(!harness.events.contains(.uiReady(.tcf)))  // a ready forwarder alone proves nothing about the dialect
        harness.webView.post("webcmpTCF", .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]))
        #expect(harness.events.contains(.uiReady(.tcf)))
        // An app protocol still takes over afterwards (its ready message injects the record).
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.bridge.dialect == .gravito)
        #expect(harness.webView.evaluated.count == 1)
    }

    /// A GPP CMP that follows the spec keeps `signalStatus: not ready` while its UI is up.
    @Test func aGPPCMPShowingItsUIIsReady() {
        let harness = BridgeHarness(dialect: nil)
        harness.webView.post("webcmpTCF", .object([
            "type": .string("gpp"), "eventName": .string("cmpDisplayStatus"), "signalStatus": .string("not ready"),
            "cmpDisplayStatus": .string("visible"),
        ]))
        #expect(harness.events == [.uiReady(.tcf)])
        #expect(harness.store.record() == nil)
    }
}
