import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
@Suite struct BridgeFallbackTests {
    static let fallbackOrigin = "webcmp-fallback://app"

    static func withFallback(_ configuration: inout BridgeConfiguration) {
        configuration.fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("x".utf8))])
        configuration.language = "de"
    }

    static func save(_ harness: BridgeHarness, origin: String? = fallbackOrigin) {
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]), origin: origin)
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll), "isRejectAll": .bool(false),
        ]), origin: origin)
    }

    var hostedURL: URL { URL(string: "https://cmp.example.com/app/index.html")! }

    @Test func aFailedLoadShowsTheFallbackAndItsSaveIsStoredWithItsSource() throws {
        let harness = BridgeHarness(configure: Self.withFallback)
        harness.webView.failLoading(description: "Could not connect")
        #expect(harness.webView.loadedURLs.last?.absoluteString == "webcmp-fallback://app/index.html?lang=de")
        #expect(harness.bridge.state == .loading)
        #expect(harness.errorCodes == [])
        let diagnostic = harness.events.compactMap { if case .diagnostic(let text) = $0 { text } else { nil } }
        #expect(diagnostic.count == 1)
        #expect(diagnostic.first?.contains("Could not connect") == true)
        #expect(diagnostic.first?.contains(Self.fallbackOrigin) == true)

        // A late event of the abandoned hosted load (load #1), even a failure naming the hosted URL, is stale.
        harness.webView.eventHandler?(.didFailLoading(
            WebViewLoadFailure(url: hostedURL, description: "late"), load: WebViewLoadID(rawValue: 1)))
        harness.webView.eventHandler?(.didReceiveResponse(hostedURL, statusCode: 500, load: WebViewLoadID(rawValue: 1)))
        #expect(harness.bridge.state == .loading)
        #expect(harness.errorCodes == [])

        Self.save(harness)
        #expect(harness.errorCodes == [])
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(harness.store.record()?.source == .fallbackPage)
        #expect(harness.savedSummaries.last?.source == .fallbackPage)
        // The next launch asks for the hosted page again.
        #expect(ConsentBridge.needsConsentUI(store: harness.store, now: harness.clock.now) == .hostedPageNotShown)
    }

    @Test func anHTTPErrorAndTheReadyTimeoutShowTheFallbackOnce() {
        let harness = BridgeHarness(configure: Self.withFallback)
        harness.webView.eventHandler?(.didReceiveResponse(hostedURL, statusCode: 500))
        #expect(harness.webView.loadedURLs.count == 2)
        // The fallback itself times out: the run ends; it is not loaded again.
        harness.clock.advance(by: 31)
        #expect(harness.webView.loadedURLs.count == 2)
        #expect(harness.errorCodes == ["timeout"])
        #expect(harness.events.last == .uiFinished(.timedOut))

        let timedOut = BridgeHarness(configure: Self.withFallback)
        timedOut.clock.advance(by: 30)
        #expect(timedOut.webView.loadedURLs.last?.scheme == "webcmp-fallback")
        #expect(timedOut.errorCodes == [])
        // The hosted page's timeout was replaced: only the fallback's runs.
        timedOut.clock.advance(by: 29)
        #expect(timedOut.bridge.state == .loading)
    }

    @Test func withoutAFallbackALoadFailureEndsTheRunAndConsentIsUnchanged() throws {
        let store = ConsentStore.inMemory()
        let first = BridgeHarness(store: store)
        Self.save(first, origin: "https://cmp.example.com")
        let before = store.iabKeys()
        let harness = BridgeHarness(store: store)
        harness.webView.eventHandler?(.didFailLoading(WebViewLoadFailure(url: hostedURL, description: "Could not connect")))
        #expect(harness.errorCodes == ["loadFailed"])
        #expect(harness.events.last == .uiFinished(.failed))
        #expect(harness.webView.loadedURLs.count == 1)
        #expect(store.iabKeys() == before)
        #expect(store.record()?.source == .cmpPage)
    }

    @Test func theFallbackOriginIsAllowedOnlyWhileTheFallbackIsShown() {
        let harness = BridgeHarness(configure: Self.withFallback)
        let navigation = NavigationRequest(url: URL(string: "webcmp-fallback://app/second.html"), isMainFrame: true)
        #expect(harness.bridge.decidePolicy(for: navigation) == .cancel)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]), origin: Self.fallbackOrigin)
        #expect(harness.errorCodes == ["forbiddenOrigin"])
        harness.webView.eventHandler?(.didFailLoading(WebViewLoadFailure(url: hostedURL, description: "offline")))
        #expect(harness.bridge.decidePolicy(for: navigation) == .allow)
        Self.save(harness)
        #expect(harness.errorCodes == ["forbiddenOrigin"])
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        // Another custom origin is still refused.
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]), origin: "webcmp-fallback://evil")
        #expect(harness.errorCodes == ["forbiddenOrigin", "forbiddenOrigin"])
    }

    @Test func aFailureAfterTheHostedPageWasReadyEndsTheRun() {
        let harness = BridgeHarness(configure: Self.withFallback)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.webView.eventHandler?(.didFailLoading(WebViewLoadFailure(url: hostedURL, description: "offline")))
        #expect(harness.errorCodes == ["loadFailed"])
        #expect(harness.webView.loadedURLs.count == 1)
    }

    @Test func consentFromTheFallbackIsNotAskedOnTheFallbackAgain() {
        let store = ConsentStore.inMemory()
        let first = BridgeHarness(store: store, configure: Self.withFallback)
        first.webView.eventHandler?(.didFailLoading(WebViewLoadFailure(url: hostedURL, description: "offline")))
        Self.save(first)
        first.bridge.invalidate()

        // The retry: the hosted page fails again. The user answered the bundled page already; consent stays.
        let retry = BridgeHarness(store: store, configure: Self.withFallback)
        #expect(retry.bridge.allowsInteractiveDismissal)
        retry.webView.eventHandler?(.didFailLoading(WebViewLoadFailure(url: hostedURL, description: "offline")))
        #expect(retry.errorCodes == ["loadFailed"])
        #expect(retry.webView.loadedURLs.count == 1)
        #expect(store.record()?.source == .fallbackPage)

        // The hosted page is back: its save replaces the source and the retry is over.
        let hosted = BridgeHarness(store: store, configure: Self.withFallback)
        Self.save(hosted, origin: "https://cmp.example.com")
        #expect(store.record()?.source == .cmpPage)
        #expect(ConsentBridge.needsConsentUI(store: store, now: hosted.clock.now) == nil)
    }

    @Test(arguments: [
        (ConsentBridgeError.loadFailed(WebViewLoadError(url: nil, reason: "x")), nil as ConsentRenewalReason?, false, false, true),
        (.timeout(seconds: 30), .noConsent, false, false, true),
        (.timeout(seconds: 30), .expired, false, false, true),
        (.webContentTerminated, .noConsent, false, false, false),
        (.loadFailed(WebViewLoadError(url: nil, reason: "x")), .hostedPageNotShown, false, false, false),
        (.loadFailed(WebViewLoadError(url: nil, reason: "x")), .noConsent, true, false, false),
        (.loadFailed(WebViewLoadError(url: nil, reason: "x")), .noConsent, false, true, false),
    ])
    func decision(
        error: ConsentBridgeError, reason: ConsentRenewalReason?, showing: Bool, ready: Bool, expected: Bool
    ) {
        let situation = FallbackDecision.Situation(
            hasFallback: true, showingFallback: showing, becameReady: ready, error: error, renewalReason: reason)
        #expect(FallbackDecision.loadsFallback(situation) == expected)
        var without = situation
        without.hasFallback = false
        #expect(!FallbackDecision.loadsFallback(without))
    }

    @Test func theRetryIsConfigurable() {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let record = ConsentRecord(
            strings: ConsentStrings(tcString: TestStrings.acceptAll), savedAt: now,
            provenance: ConsentProvenance(.fallbackPage, .userChoice))
        var policy = ConsentExpiryPolicy()
        #expect(policy.renewalReason(for: record, now: now) == .hostedPageNotShown)
        policy.retriesHostedPage = false
        #expect(policy.renewalReason(for: record, now: now) == nil)
        // Stronger reasons come first.
        #expect(ConsentExpiryPolicy().renewalReason(for: record, now: now + 400 * 86_400) == .tooOld)
        var hosted = record
        hosted.provenance.source = .cmpPage
        #expect(ConsentExpiryPolicy().renewalReason(for: hosted, now: now) == nil)
    }
}
