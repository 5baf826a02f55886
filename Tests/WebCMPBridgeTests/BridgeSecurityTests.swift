import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
@Suite struct BridgeSecurityTests {
    private func save(_ tcString: String) -> JSONValue {
        .object(["type": .string("save"), "tcstring": .string(tcString)])
    }

    @Test func iframeAndForeignOriginSavesAreRejected() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", save(TestStrings.acceptAll))
        harness.webView.post("jsHandler", save(TestStrings.rejectAll), isMainFrame: false)
        harness.webView.post("jsHandler", save(TestStrings.rejectAll), origin: "https://evil.example")
        harness.webView.post("jsHandler", save(TestStrings.rejectAll), origin: "http://cmp.example.com")
        harness.webView.post("jsHandler", save(TestStrings.rejectAll), origin: "https://cmp.example.com:8443")
        harness.webView.post("jsHandler", save(TestStrings.rejectAll), origin: "null")
        #expect(harness.errorCodes == ["notMainFrame", "forbiddenOrigin", "forbiddenOrigin", "forbiddenOrigin", "forbiddenOrigin"])
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(harness.events.compactMap { if case .error(let e) = $0 { return e.isSecurityEvent } else { return nil } }
            .allSatisfy { $0 })
    }

    @Test func originComparisonIsNormalised() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", save(TestStrings.acceptAll), origin: "HTTPS://CMP.example.com:443")
        #expect(harness.errorCodes == [])
        #expect(harness.storedTCString() == TestStrings.acceptAll)
    }

    @Test func additionalAllowedOrigins() {
        let harness = BridgeHarness { $0.allowedOrigins.insert("https://consent.partner.example") }
        harness.webView.post("jsHandler", save(TestStrings.rejectAll), origin: "https://consent.partner.example")
        #expect(harness.storedTCString() == TestStrings.rejectAll)
    }

    @Test(arguments: [
        ("deep", String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000), "invalidMessage"),
        ("huge", "{\"type\":\"save\",\"tcstring\":\"" + String(repeating: "A", count: 300_000) + "\"}", "invalidMessage"),
        ("long string", "{\"type\":\"save\",\"tcstring\":\"" + String(repeating: "A", count: 70_000) + "\"}", "invalidMessage"),
        ("not json", "{type: save}", "invalidMessage"),
        ("array", "[1,2,3]", "invalidMessage"),
        ("number", "42", "invalidMessage"),
        ("wrong type", "{\"type\":\"save\",\"tcstring\":42}", "invalidMessage"),
        ("unknown type", "{\"type\":\"hack\"}", "invalidMessage"),
        ("no type", "{\"hello\":\"world\"}", "invalidMessage"),
        ("save without string", "{\"type\":\"save\"}", "invalidMessage"),
        ("trailing garbage", "{\"type\":\"close\"} x", "invalidMessage"),
        ("lone surrogate escape", "{\"type\":\"save\",\"tcstring\":\"\\ud800\"}", "invalidConsent"),
        ("proto", "{\"__proto__\":{\"type\":\"save\"},\"constructor\":1,\"type\":\"save\",\"tcstring\":\"x\"}", "invalidConsent"),
    ])
    func hostileBodiesChangeNothing(name: String, body: String, code: String) {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", save(TestStrings.acceptAll))
        let before = harness.store.iabKeys()
        let record = harness.store.record()
        harness.webView.post("jsHandler", json: body)
        #expect(harness.errorCodes == [code], "\(name)")
        #expect(harness.consentCodes == (code == "invalidConsent" ? ["invalidTCString"] : []), "\(name)")
        #expect(harness.store.iabKeys() == before)
        #expect(harness.store.record() == record)
    }

    @Test func timeoutReportsAndIgnoresLaterMessages() {
        let harness = BridgeHarness()
        harness.clock.advance(by: 29)
        #expect(harness.errorCodes == [])
        harness.clock.advance(by: 2)
        #expect(harness.errorCodes == ["timeout"])
        #expect(harness.events.last == .uiFinished(.timedOut))
        #expect(harness.bridge.state == .invalidated)
        harness.webView.post("jsHandler", save(TestStrings.acceptAll))
        #expect(harness.store.record() == nil)
        #expect(harness.events.count == 2)
    }

    @Test func timeoutLeavesStoredConsentUnlessOptedIn() {
        let store = ConsentStore.inMemory()
        let first = BridgeHarness(store: store)
        first.webView.post("jsHandler", save(TestStrings.acceptAll))
        first.bridge.invalidate()

        let keeping = BridgeHarness(store: store)
        keeping.clock.advance(by: 31)
        #expect(keeping.storedTCString() == TestStrings.acceptAll)

        let clearing = BridgeHarness(store: store) { $0.clearsConsentOnTimeout = true }
        clearing.clock.advance(by: 31)
        #expect(clearing.store.record() == nil)
        #expect(clearing.store.iabKeys().values.isEmpty)
    }

    @Test func readyMessageCancelsTheTimeout() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.clock.advance(by: 120)
        #expect(harness.errorCodes == [])
        harness.webView.post("jsHandler", save(TestStrings.rejectAll))
        #expect(harness.storedTCString() == TestStrings.rejectAll)
    }

    @Test func invalidateRemovesHandlersAndScriptsAndIgnoresMessages() async {
        let harness = BridgeHarness(dialect: nil)
        let stream = harness.bridge.events()
        #expect(harness.webView.handlers == Set(CMPDialect.allCases.map(\.handlerName)))
        #expect(harness.webView.userScripts.count == 1)
        let handler = harness.webView.eventHandler
        harness.bridge.invalidate()
        #expect(harness.webView.handlers.isEmpty)
        #expect(harness.webView.userScripts.isEmpty)
        #expect(harness.webView.eventHandler == nil)
        // A message already in flight through a retained handler is ignored too.
        handler?(.message(ScriptMessage(handlerName: "jsHandler", body: .json("{\"type\":\"save\",\"tcstring\":\"\(TestStrings.acceptAll)\"}"), isMainFrame: true, origin: nil)))
        #expect(harness.store.record() == nil)
        #expect(harness.bridge.state == .invalidated)
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count == 0)
    }

    @Test func loadFailureIsReported() {
        let harness = BridgeHarness()
        harness.webView.eventHandler?(.didFailLoading(WebViewLoadFailure(url: nil, description: "offline")))
        #expect(harness.errorCodes == ["loadFailed"])
        #expect(harness.events.last == .uiFinished(.failed))
    }

    @Test func notServiceSpecificStringsAreRejected() {
        let harness = BridgeHarness()
        var model = TCString(cmpID: 300, vendorListVersion: 1, policyVersion: 5)
        model.isServiceSpecific = false
        let string = (try? model.encoded()) ?? ""
        harness.webView.post("jsHandler", save(string))
        #expect(harness.errorCodes == ["invalidConsent"])
        #expect(harness.store.record() == nil)
    }

    /// Page text in error messages cannot forge log lines, reorder what a reader sees, or flood a log.
    @Test func pageTextInErrorMessagesIsNeutralised() throws {
        let harness = BridgeHarness()
        let forged = "x'\nERROR consent saved\u{202E}gnp.exe\u{200B}\u{2028}"
        harness.webView.post("jsHandler", .object(["type": .string(forged)]))
        harness.webView.post("jsHandler", .object(["type": .string(String(repeating: "é", count: 5_000))]))
        harness.webView.post("jsHandler", save("CPc\nBAAAA"))
        let messages = harness.events.compactMap { if case .error(let error) = $0 { return error.description } else { return nil } }
        try #require(messages.count == 3)
        #expect(messages[0] == "rejected a message on 'jsHandler': unknown message type \"x'\\u{A}ERROR consent saved\\u{202E}gnp.exe\\u{200B}\\u{2028}\"")
        // The page's type is cut where it is quoted (64 scalars), so a flood cannot reach the log.
        #expect(messages[1] == "rejected a message on 'jsHandler': unknown message type \"" + String(repeating: "é", count: 64) + "…\"")
        #expect(messages[2].contains("U+A (\"\\u{A}\") at offset 3"))
        for message in messages {
            #expect(!message.unicodeScalars.contains { [.control, .format, .lineSeparator].contains($0.properties.generalCategory) })
        }
        #expect(harness.storedTCString() == nil)
    }

    @Test func changingTheCMPURLMovesTheAllowedOrigin() {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://a.example/cmp")!)
        #expect(configuration.allowedOrigins == ["https://a.example"])
        configuration.cmpURL = URL(string: "https://b.example:8443/cmp")!
        #expect(configuration.allowedOrigins == ["https://b.example:8443"])
        configuration.allowedOrigins = ["https://c.example"]
        configuration.cmpURL = URL(string: "https://d.example/cmp")!
        #expect(configuration.allowedOrigins == ["https://c.example"])
    }

    /// A "Privacy settings" page the app configured on another origin is one of the configuration's pages: it may
    /// hold the UI and post messages unless the app set the origins itself.
    @Test func theSettingsPageOriginIsAllowedByDefault() {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://a.example/cmp")!)
        configuration.privacySettings = PrivacySettingsOpener(url: URL(string: "https://prefs.a.example:8443/settings")!)
        #expect(configuration.allowedOrigins == ["https://a.example", "https://prefs.a.example:8443"])
        configuration.mode = .settings
        let decision = NavigationPolicy.decide(
            NavigationRequest(url: configuration.resolvedURL, isMainFrame: true),
            allowedOrigins: configuration.allowedOrigins, externalLinks: configuration.externalLinks)
        #expect(decision == .allow)
        configuration.privacySettings = PrivacySettingsOpener(queryItems: [URLQueryItem(name: "layer", value: "settings")])
        #expect(configuration.allowedOrigins == ["https://a.example"])
        configuration.allowedOrigins = ["https://c.example"]
        configuration.privacySettings = PrivacySettingsOpener(url: URL(string: "https://prefs.a.example/settings")!)
        #expect(configuration.allowedOrigins == ["https://c.example"])
    }
}

@MainActor
@Suite struct BridgeEventLogTests {
    @Test func eventLogIsBounded() {
        let harness = BridgeHarness()
        for _ in 0..<1_000 { harness.webView.post("jsHandler", json: "{\"type\":\"nope\"}") }
        #expect(harness.events.count <= ConsentBridge.eventLogCapacity)
        #expect(harness.events.count > ConsentBridge.eventLogCapacity / 2)
        #expect(harness.events.allSatisfy { if case .error = $0 { return true } else { return false } })
    }
}
