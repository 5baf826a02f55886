import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The iOS run-time defects (issue 20), each driven through ``FakeWebView``, which reports events in `WKWebView`'s
/// order: a replaced load fails as cancelled after the new one began, a failure names the URL that failed, the
/// navigation policy's refusals fail with WebKit error 102, new windows reach the policy as `createWebViewWith` does.
@MainActor
@Suite struct WebKitEventOrderTests {
    static let hosted = URL(string: "https://cmp.example.com/app/index.html")!

    private func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }

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

    // MARK: 1. A handler name someone else registered

    @Test func item1_aHandlerNameTakenBySomeoneElseIsATypedErrorAndNothingLoads() {
        let webView = FakeWebView()
        webView.foreignHandlerNames = ["jsHandler"]   // the app still registers Gravito's handler itself
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito), store: .inMemory(),
            scheduler: ManualScheduler().scheduler)
        bridge.attach(to: webView)
        bridge.start()
        #expect(bridge.eventLog.first == .error(.webViewSetupFailed(.messageHandlerNameInUse("jsHandler"))))
        #expect(bridge.eventLog.contains(.uiFinished(.failed)))
        #expect(webView.loadedURLs.isEmpty)
        #expect(bridge.state == .invalidated)
        #expect(webView.handlers.isEmpty)            // nothing of ours left registered
        #expect(webView.foreignHandlerNames == ["jsHandler"])   // and the app's handler never touched
        #expect(ConsentBridgeError.webViewSetupFailed(.urlSchemeInUse("x")).endsUI)
    }

    // MARK: 4. Load identity, failing URL, cancellations and policy interruptions

    @Test func item4_theHostedLoadReplacedByTheFallbackAfterTheReadyTimeoutDoesNotEndTheRun() {
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

    @Test func item4_anHTTPErrorAnsweredAtTheResponseIsReplacedWithoutEndingTheRun() {
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

    @Test func item4_aRedirectBeforeReadyAndItsCancellationEndTheRunOnceNamingTheRedirect() {
        let harness = BridgeHarness()
        harness.webView.followLink(to: URL(string: "https://elsewhere.example.net/")!)
        #expect(harness.errorCodes == ["loadFailed"])
        #expect(harness.events.filter { $0 == .uiFinished(.failed) }.count == 1)
        #expect(harness.webView.openedExternally.isEmpty)
    }

    @Test func item4_aLoadFailureNamesTheURLThatFailedNotThePendingOne() throws {
        let harness = BridgeHarness()
        harness.webView.failLoading(description: "offline")
        let failure = try #require(harness.events.compactMap { event -> WebViewLoadError? in
            if case .error(.loadFailed(let error)) = event { return error } else { return nil }
        }.first)
        #expect(failure.url == harness.webView.loadedURLs.first)
    }

    @Test func item4_cancellationsAndPolicyInterruptionsAreNotFailures() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        // A link to another origin: the policy sends it out, WebKit reports the interrupted navigation (102).
        let decision = harness.webView.followLink(to: URL(string: "https://vendor.example.org/privacy")!)
        #expect(decision == .openExternally(URL(string: "https://vendor.example.org/privacy")!))
        #expect(harness.webView.openedExternally.count == 1)
        // The app stopped the current load: cancelled (-999) without a replacement.
        harness.webView.failLoading(description: "cancelled", domain: "NSURLErrorDomain", code: -999)
        #expect(harness.errorCodes == [])
        #expect(harness.bridge.state == .ready)
        // The same codes from WebKitGTK's domains.
        #expect(WebViewLoadFailure(url: nil, domain: "WebKitNetworkError", code: 302, description: "").kind == .cancelled)
        #expect(WebViewLoadFailure(url: nil, domain: "WebKitPolicyError", code: 102, description: "").kind
            == .interruptedByPolicy)
        #expect(WebViewLoadFailure(url: nil, domain: "NSURLErrorDomain", code: -1009, description: "").kind == .failed)
        #expect(WebViewLoadFailure(url: nil, domain: "WKErrorDomain", code: 102, description: "").kind == .failed)
    }

    @Test func item4_loadTrackerTellsStaleLoadsByIdentity() {
        var tracker = LoadTracker()
        #expect(!tracker.isStale(nil))
        let first = tracker.begin(Self.hosted)
        #expect(!tracker.isStale(first))
        let second = tracker.begin(Self.hosted)   // the same URL again: still a different load
        #expect(tracker.isStale(first))
        #expect(!tracker.isStale(second))
        #expect(!tracker.isStale(nil))            // a navigation the page started: the current page
    }

    // MARK: 9 and 10. App Tracking Transparency

    @Test func item10_invalidateEndsTheTrackingTaskBeforeTheCMP() async {
        let tracking = FakeTrackingAuthorizer()
        tracking.active = false
        let webView = FakeWebView()
        var configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito)
        configuration.tracking = .beforeCMP
        let bridge = ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: ManualScheduler().scheduler,
            trackingAuthorizer: tracking.client)
        bridge.attach(to: webView)
        bridge.start()
        await settle()
        #expect(tracking.waitingCount == 1)
        bridge.invalidate()
        await settle()
        #expect(tracking.waitingCount == 0)   // the waiting task was cancelled, not left behind
        tracking.becomeActive()
        await settle()
        #expect(tracking.requests == 0)
        #expect(webView.loadedURLs.isEmpty)
        #expect(bridge.tasks.count == 0)
    }

    @Test func item10_invalidateEndsTheTrackingTaskAfterTheUI() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        harness.tracking.active = false
        await settle()
        harness.bridge.invalidate()   // e.g. the app cancelled the run while the sheet was still up
        await settle()
        harness.tracking.becomeActive()
        await settle()
        #expect(harness.tracking.requests == 0)
        #expect(harness.bridge.tasks.count == 0)
    }

    // MARK: 7. Pre-warming

    @Test func item7_aPrewarmedPagesReadyTimeoutStartsWhenItIsPresented() throws {
        let clock = ManualScheduler()
        let prewarmer = ConsentPrewarmer<FakeWebView>(idleTimeout: 600, scheduler: clock.scheduler)
        let configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito, readyTimeout: 10)
        let store = ConsentStore.inMemory()
        #expect(prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() })
        clock.advance(by: 60)   // off-screen and throttled: no timeout, no fallback, nothing stored
        let taken = try #require(prewarmer.take(matching: configuration, store: store))
        #expect(taken.bridge.state == .loading)
        #expect(taken.eventsBeforePresentation.isEmpty)
        taken.bridge.beginPresentation()
        clock.advance(by: 9.9)
        #expect(taken.bridge.state == .loading)
        clock.advance(by: 0.2)
        #expect(taken.bridge.eventLog.contains(.error(.timeout(seconds: 10))))
    }

    @Test func item7_aPrewarmedBridgeIsHandedOverOnlyForTheSameRequest() throws {
        let prewarmer = ConsentPrewarmer<FakeWebView>(scheduler: ManualScheduler().scheduler)
        let configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito)
        let authorizer = FakeTrackingAuthorizer().client
        let store = ConsentStore.inMemory()
        prewarmer.prewarm(configuration: configuration, store: store, trackingAuthorizer: authorizer) {
            FakeWebView()
        }
        var settings = configuration
        settings.mode = .settings
        #expect(prewarmer.take(matching: settings, store: store, trackingAuthorizer: authorizer) == nil)   // not the first layer
        var other = configuration
        other.cmpURL = URL(string: "https://cmp.example.com/other.html")!
        #expect(prewarmer.take(matching: other, store: store, trackingAuthorizer: authorizer) == nil)
        var tracking = configuration
        tracking.tracking = .afterConsent()
        #expect(prewarmer.take(matching: tracking, store: store, trackingAuthorizer: authorizer) == nil)
        #expect(prewarmer.take(matching: configuration, store: store, trackingAuthorizer: FakeTrackingAuthorizer().client) == nil)
        #expect(prewarmer.take(matching: configuration, store: store) == nil)   // .unavailable is another client
        #expect(prewarmer.isPrewarmed)
        let copy = authorizer
        #expect(prewarmer.take(matching: configuration, store: store, trackingAuthorizer: copy) != nil)
        #expect(!prewarmer.isPrewarmed)
    }

    @Test func item7_trackingBeforeTheCMPNeverPromptsAtLaunchWithoutAUI() async {
        let tracking = FakeTrackingAuthorizer()
        let prewarmer = ConsentPrewarmer<FakeWebView>(scheduler: ManualScheduler().scheduler)
        var configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito)
        configuration.tracking = .beforeCMP
        var created = 0
        let held = prewarmer.prewarm(configuration: configuration, store: .inMemory(), trackingAuthorizer: tracking.client) {
            created += 1
            return FakeWebView()
        }
        await settle()
        #expect(!held)
        #expect(created == 0)
        #expect(tracking.requests == 0)
    }

    // MARK: 11. The Gravito reply's target origin

    @Test func item11_cookieDataIsPostedToTheCMPPagesOriginNotToEveryone() throws {
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

    // MARK: 12. New windows

    @Test func item12_windowOpenAndBlankTargetsGoThroughTheNavigationPolicy() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        let vendor = URL(string: "https://vendor.example.org/privacy")!
        #expect(harness.webView.openNewWindow(vendor) == .openExternally(vendor))
        #expect(harness.webView.openNewWindow(URL(string: "javascript:alert(1)")!) == .cancel)
        #expect(harness.webView.openNewWindow(nil) == .cancel)
        #expect(harness.webView.openedExternally == [vendor])
        #expect(harness.webView.loadedURLs.count == 1)   // nothing loads in the consent view
        #expect(harness.bridge.state == .ready)
        let blocked = BridgeHarness { $0.externalLinks = .block }
        #expect(blocked.webView.openNewWindow(vendor) == .cancel)
    }

    // MARK: 13. Web content process termination

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

    @Test func aReloadAfterTerminationRestartsTheReadyTimeout() {
        let harness = BridgeHarness()
        harness.clock.advance(by: 20)
        harness.webView.terminateContentProcess()
        harness.clock.advance(by: 20)   // 40 s after the first load, 20 after the reload
        #expect(harness.bridge.state == .loading)
        harness.clock.advance(by: 11)
        #expect(harness.errorCodes == ["timeout"])
    }
}
