import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
@Suite struct BridgeGravitoTests {
    @Test func loadsTheConfiguredURLWithLanguageAndExtraParameters() {
        let harness = BridgeHarness { configuration in
            configuration.language = "de"
            configuration.additionalQueryItems = [URLQueryItem(name: "uid", value: "a+b&c")]
        }
        let url = harness.webView.loadedURLs.last?.absoluteString
        #expect(url == "https://cmp.example.com/app/index.html?platform=ios&lang=de&uid=a%2Bb%26c")
        #expect(harness.webView.handlers == ["jsHandler"])
    }

    @Test func firstRunInjectsAnEmptyRecordThenSaveStoresKeys() throws {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        let injected = try harness.lastInjection()
        #expect(injected["type"] == .string("cookieData"))
        #expect(injected["tcstring"] == .string(""))
        #expect(harness.events.first == .uiReady(.gravito))

        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll),
            "nontcfdata": .object(["analytics": .bool(true)]), "acString": .string("2~1.35~dv.9.21"),
            "configversion": .number(7), "isRejectAll": .bool(false),
        ]))
        #expect(harness.errorCodes == [])
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(harness.store.iabKeys()["IABTCF_AddtlConsent"] == .string("2~1.35~dv.9.21"))
        #expect(harness.store.iabKeys()["IABTCF_gdprApplies"] == .int(1))
        let record = try #require(harness.store.record())
        #expect(record.configVersion == "7")
        #expect(record.nonTCFData == .object(["analytics": .bool(true)]))
        let summary = try #require(harness.savedSummaries.last)
        #expect(summary.purposeConsents == IDSet(1...11))
        #expect(summary.vendorConsents.contains(1001))
        #expect(harness.events.contains(.userAction(isRejectAll: false)))

        // The save neither re-injects nor announces readiness again; a repeated ready message re-injects only.
        #expect(harness.webView.evaluated.count == 1)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.webView.evaluated.count == 2)
        #expect(harness.events.filter { $0 == .uiReady(.gravito) }.count == 1)

        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        #expect(harness.events.last == .uiFinished(.closed))
    }

    @Test func secondRunReinjectsTheStoredRecord() throws {
        let store = ConsentStore.inMemory()
        let first = BridgeHarness(store: store)
        first.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        first.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.analyticsOnly),
            "nontcfdata": .string("{\"x\":\"</script>\\u2028\"}"), "acString": .string("1~1.35"),
        ]))
        first.bridge.invalidate()

        let second = BridgeHarness(store: store)
        second.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        let injected = try second.lastInjection()
        #expect(injected["tcstring"] == .string(TestStrings.analyticsOnly))
        #expect(injected["nontcfdata"] == .string("{\"x\":\"</script>\\u2028\"}"))
        #expect(injected["acstring"] == .string("1~1.35"))
    }

    @Test func legacyEventShape() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["event": .string("start")]))
        #expect(harness.events.first == .uiReady(.gravito))
        harness.webView.post("jsHandler", .object(["event": .string("save"), "data": .string(TestStrings.rejectAll)]))
        #expect(harness.storedTCString() == TestStrings.rejectAll)
        harness.webView.post("jsHandler", .object(["event": .string("close")]))
        #expect(harness.events.last == .uiFinished(.closed))
    }

    @Test func bodyAsJSONStringIsAccepted() {
        let harness = BridgeHarness()
        let inner = JavaScriptLiteral.expression(.object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        harness.webView.post("jsHandler", .string(inner))
        #expect(harness.storedTCString() == TestStrings.rejectAll)
    }

    @Test func undecodableTCStringKeepsThePreviousConsent() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        let before = harness.store.iabKeys()
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string("CO!!not-a-string")]))
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string("BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA")]))
        #expect(harness.errorCodes == ["invalidConsent", "invalidConsent"])
        #expect(harness.consentCodes == ["invalidTCString", "invalidTCString"])
        #expect(harness.store.iabKeys() == before)
        #expect(harness.storedTCString() == TestStrings.acceptAll)
    }

    @Test func invalidAdditionalConsentWritesNothing() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll), "acString": .string("9~not~valid"),
        ]))
        #expect(harness.errorCodes == ["invalidConsent"])
        #expect(harness.store.record() == nil)
        #expect(harness.store.iabKeys().values.isEmpty)
    }

    @Test func doubleSaveReplacesKeysAndRemovesStaleOnes() {
        let harness = BridgeHarness()
        let restricted = TestStrings.make(
            purposes: [1, 2], vendors: [5],
            restrictions: [PublisherRestriction(purposeID: 7, restrictionType: .notAllowed, vendors: [5])])
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(restricted)]))
        #expect(harness.store.iabKeys()["IABTCF_PublisherRestrictions7"] != nil)
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        #expect(harness.store.iabKeys()["IABTCF_PublisherRestrictions7"] == nil)
        #expect(harness.storedTCString() == TestStrings.rejectAll)
        #expect(harness.savedSummaries.count == 2)
    }

    @Test func loadMessageRecordsTheConfigVersion() throws {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("load"), "configversion": .string("42")]))
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        #expect(try #require(harness.store.record()).configVersion == "42")
    }

    @Test func usPrivacyOnlySaveWithGPP() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "cmpType": .string("usprivacy"), "gppstring": .string("DBABTA~1YNN"),
        ]))
        #expect(harness.errorCodes == [])
        #expect(harness.store.iabKeys()["IABGPP_HDR_GppString"] == .string("DBABTA~1YNN"))
        #expect(harness.storedTCString() == nil)
    }

    @Test func cookieDataIsPostedToTheCMPPagesOriginNotToEveryone() throws {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]), origin: "https://cmp.example.com")
        let (message, target) = try harness.lastInjectionAndTarget()
        #expect(message["type"] == .string("cookieData"))
        #expect(target == "https://cmp.example.com")
        #expect(!(harness.webView.evaluated.last ?? "").contains("\"*\""))
        // An adapter that cannot tell the sender's origin: the loaded page's origin.
        let unknown = BridgeHarness()
        unknown.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]), origin: nil)
        #expect(try unknown.lastInjectionAndTarget().targetOrigin == "https://cmp.example.com")
    }
}
