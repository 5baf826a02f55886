import Foundation
import Testing
import WebCMPBridgeTesting
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The app's lifecycle through the public surface: ``FakeWebView`` reports UIKit's notifications in their order
/// (``FakeWebView/enterBackground()``, ``FakeWebView/enterForeground()``), ``ManualScheduler`` moves time. The machine's
/// rules are in `BridgeMachineTests+Lifecycle`; these tests prove the runner keeps the time a timer had left.
@MainActor
@Suite struct AppLifecycleTests {
    @Test func theReadyTimeoutDoesNotRunWhileTheAppIsInTheBackground() {
        let harness = BridgeHarness()   // ready timeout 30 s
        harness.clock.advance(by: 10)
        harness.webView.enterBackground()   // the user switches away while the banner loads
        harness.clock.advance(by: 600)
        #expect(harness.bridge.state == .loading)
        #expect(harness.errorCodes == [])
        harness.webView.enterForeground()
        harness.clock.advance(by: 19)
        #expect(harness.bridge.state == .loading, "20 s of the 30 were left")
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.bridge.state == .ready)
        #expect(harness.errorCodes == [])
    }

    @Test func theRestOfTheReadyTimeoutRunsOutAfterTheReturn() {
        let harness = BridgeHarness()
        harness.clock.advance(by: 25)
        harness.webView.enterBackground()
        harness.clock.advance(by: 60)
        harness.webView.enterForeground()
        harness.clock.advance(by: 4.9)
        #expect(harness.errorCodes == [])
        harness.clock.advance(by: 0.2)
        #expect(harness.errorCodes == ["timeout"])
    }

    @Test func aPageThatLoadsAfterTheReturnIsNotReplacedByTheFallbackPage() throws {
        let harness = BridgeHarness {
            $0.fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("x".utf8))])
        }
        harness.webView.enterBackground()
        harness.clock.advance(by: 45)   // longer than the ready timeout
        harness.webView.enterForeground()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(harness.webView.loadedURLs.count == 1, "no fallback page was loaded")
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll),
        ]))
        #expect(harness.savedSummaries.count == 1)
        #expect(harness.store.record()?.source == .cmpPage)
    }

    @Test func aCoveredConsentScreenPausesItsTimeoutAndStillStoresTheChoice() {
        let harness = BridgeHarness()
        harness.bridge.beginPresentation()
        harness.clock.advance(by: 5)
        harness.bridge.coverPresentation()   // a push over an embedded consent screen, a tab switch
        harness.clock.advance(by: 120)
        harness.bridge.uncoverPresentation()
        harness.clock.advance(by: 24)
        #expect(harness.bridge.state == .loading)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll),
        ]))
        #expect(harness.storedTCString() == TestStrings.acceptAll)
    }

    @Test func aProcessTerminatedInTheBackgroundReloadsWhenTheAppReturns() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.webView.enterBackground()   // the user opened a vendor's policy in the browser
        harness.webView.terminateContentProcess()
        #expect(harness.webView.loadedURLs.count == 1, "nothing loads in the background")
        harness.webView.enterForeground()
        #expect(harness.webView.loadedURLs.count == 2)
        #expect(harness.bridge.state == .loading)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.webView.enterBackground()   // a second policy
        harness.webView.terminateContentProcess()
        harness.webView.enterForeground()
        #expect(harness.webView.loadedURLs.count == 3)
        #expect(harness.errorCodes == [])
    }

    @Test func anEarlyTrackingDenialIsReadAgainAtTheNextActivation() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.tracking.answer = .denied
        harness.tracking.settlesStatusOnRequest = false   // iOS 17.4: `.denied` while the alert is still up
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        #expect(harness.tracking.requests == 1)
        // The app is still active: an answer now would be the early one. Nothing is reported yet.
        #expect(!harness.events.contains { if case .trackingAuthorization = $0 { true } else { false } })
        harness.webView.resignActive()   // the alert shows
        harness.tracking.status = .authorized   // the user allows tracking
        harness.webView.becomeActive()   // and the alert goes away
        #expect(harness.events.last == .trackingAuthorization(.authorized))
        #expect(harness.bridge.state == .invalidated)
    }

    @Test func anEarlyTrackingDenialWithoutAnAlertStandsAfterTenSeconds() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.tracking.answer = .denied
        harness.tracking.settlesStatusOnRequest = false
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        harness.clock.advance(by: 9.9)
        #expect(harness.bridge.state != .invalidated)
        harness.clock.advance(by: 0.1)
        #expect(harness.events.last == .trackingAuthorization(.denied))
        #expect(harness.bridge.state == .invalidated)
    }

    @Test func invalidateLeavesNoPausedTimerBehind() {
        let harness = BridgeHarness()
        harness.webView.enterBackground()
        harness.bridge.invalidate()
        #expect(harness.clock.pendingCount == 0)
        harness.webView.enterForeground()   // the handler is gone: nothing resumes
        #expect(harness.clock.pendingCount == 0)
        harness.clock.advance(by: 60)
        #expect(harness.errorCodes == [])
    }
}
