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
        harness.tracking.prompt = .showsLate   // iOS 17.4: `.denied` before the alert is even up
        harness.tracking.lifecycle = harness.webView
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        #expect(harness.tracking.requests == 1)
        // The app is still active: an answer now would be the early one. Nothing is reported yet.
        #expect(!harness.events.contains { if case .trackingAuthorization = $0 { true } else { false } })
        harness.tracking.showPrompt()   // the alert shows: the app resigns active
        harness.tracking.answerPrompt(.authorized)   // the user allows tracking, and the alert goes away
        #expect(harness.events.last == .trackingAuthorization(.authorized))
        #expect(harness.bridge.state == .invalidated)
    }

    @Test func theSettleWindowCountsOnlyWhileTheAppIsActive() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.tracking.prompt = .showsLate
        harness.tracking.lifecycle = harness.webView
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        harness.clock.advance(by: 5)
        harness.tracking.showPrompt()   // the alert shows 5 s late, and stays up for a minute
        harness.clock.advance(by: 60)
        #expect(harness.bridge.state != .invalidated, "no answer is settled while the alert is up")
        #expect(harness.tracking.requests == 1)
        #expect(harness.store.storage.identity.consentUIHolds.isHeld, "the gate waits while the prompt is up")
        harness.tracking.answerPrompt(.denied)
        #expect(harness.events.last == .trackingAuthorization(.denied))
        #expect(!harness.store.storage.identity.consentUIHolds.isHeld)
    }

    @Test func aPromptThatNeverShowsIsAskedForOnceMoreThenEndsNotDetermined() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.tracking.prompt = .neverShows
        harness.tracking.lifecycle = harness.webView
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        harness.clock.advance(by: 9.9)
        #expect(harness.bridge.state != .invalidated)
        harness.clock.advance(by: 0.1)   // 10 s of active time without an alert: the status still reads "not determined"
        await settle()
        #expect(harness.tracking.requests == 2, "Apple: not determined means another request is needed")
        harness.clock.advance(by: 10)
        await settle()
        #expect(harness.events.last == .trackingAuthorization(.notDetermined), "never reported as denied")
        #expect(!harness.events.contains(.trackingAuthorization(.denied)))
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
