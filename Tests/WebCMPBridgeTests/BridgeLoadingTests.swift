import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Loads as ``FakeWebView`` reports them, in `WKWebView`'s order: a replaced load fails as cancelled after the new one
/// began, a failure names the URL that failed, the navigation policy's refusals fail with WebKit error 102, and a
/// terminated web content process reloads the page once.
@MainActor
@Suite struct BridgeLoadingTests {
    static let hosted = URL(string: "https://cmp.example.com/app/index.html")!

    private static func withFallback(_ configuration: inout BridgeConfiguration) {
        configuration.fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("x".utf8))])
    }

    private static func saveOnFallback(_ harness: BridgeHarness) {
        let origin = "webcmp-fallback://app"
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]), origin: origin)
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll),
        ]), origin: origin)
    }

    @Test func theHostedLoadReplacedByTheFallbackAfterTheReadyTimeoutDoesNotEndTheRun() {
        let harness = BridgeHarness(configure: Self.withFallback)
        harness.clock.advance(by: 30)   // a slow network: the hosted page is still pending
        #expect(harness.webView.loadedURLs.last?.scheme == "webcmp-fallback")
        // WKWebView now reports the hosted load as cancelled (-999), and webView.url is already the fallback's.
        harness.webView.deliverPendingEvents()
        #expect(harness.errorCodes == [])
        #expect(harness.bridge.state == .loading)
        Self.saveOnFallback(harness)
        #expect(harness.storedTCString() == TestStrings.acceptAll)
        #expect(harness.store.record()?.source == .fallbackPage)
    }

    @Test func anHTTPErrorAnsweredAtTheResponseIsReplacedWithoutEndingTheRun() {
        let harness = BridgeHarness(configure: Self.withFallback)
        harness.webView.respond(statusCode: 503)   // handled at the response: the fallback replaces the hosted load
        #expect(harness.webView.loadedURLs.count == 2)
        harness.webView.deliverPendingEvents()     // the hosted load's cancellation
        harness.webView.finishLoading()            // the fallback finished
        #expect(harness.errorCodes == [])
        #expect(harness.bridge.state == .loading)
        Self.saveOnFallback(harness)
        #expect(harness.events.contains { if case .consentReady = $0 { true } else { false } })
    }

    @Test func aRedirectBeforeReadyAndItsCancellationEndTheRunOnceNamingTheRedirect() {
        let harness = BridgeHarness()
        harness.webView.followLink(to: URL(string: "https://elsewhere.example.net/")!)
        #expect(harness.errorCodes == ["loadFailed"])
        #expect(harness.events.filter { $0 == .uiFinished(.failed) }.count == 1)
        #expect(harness.webView.openedExternally.isEmpty)
    }

    @Test func aLoadFailureNamesTheURLThatFailedNotThePendingOne() throws {
        let harness = BridgeHarness()
        harness.webView.failLoading(description: "offline")
        let failure = try #require(harness.events.compactMap { event -> WebViewLoadError? in
            if case .failed(let error) = event { return error.underlying as? WebViewLoadError } else { return nil }
        }.first)
        #expect(failure.url == harness.webView.loadedURLs.first)
    }

    @Test func cancellationsAndPolicyInterruptionsAreNotFailures() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        // A link to another origin: the policy sends it out, WebKit reports the interrupted navigation (102).
        let decision = harness.webView.followLinkDecision(to: URL(string: "https://vendor.example.org/privacy")!)
        #expect(decision == .openExternally(URL(string: "https://vendor.example.org/privacy")!))
        #expect(harness.webView.openedExternally.count == 1)
        // The app stopped the current load: cancelled (-999) without a replacement.
        harness.webView.failLoading(description: "cancelled", domain: "NSURLErrorDomain", code: -999)
        #expect(harness.errorCodes == [])
        #expect(harness.bridge.state == .ready)
    }

    @Test func aTerminatedContentProcessReloadsOncePerPageThenFailsWithATypedError() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.bridge.state == .ready)
        harness.webView.terminateContentProcess()   // iOS ended it while the user read a vendor's policy
        #expect(harness.bridge.state == .loading)
        #expect(harness.webView.loadedURLs.count == 2)
        #expect(harness.webView.loadedURLs[1] == harness.webView.loadedURLs[0])
        #expect(harness.errorCodes == [])
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.bridge.state == .ready)
        // A second policy read later: the reloaded page was ready, so it reloads again.
        harness.webView.terminateContentProcess()
        #expect(harness.errorCodes == [])
        #expect(harness.webView.loadedURLs.count == 3)
        // The reloaded page's process terminates again before it was ready: no reload loop.
        harness.webView.terminateContentProcess()
        #expect(harness.errorCodes == ["webContentTerminated"])
        #expect(harness.events.last == .uiFinished(.failed))
        #expect(harness.webView.loadedURLs.count == 3)
    }
}
