import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// App Tracking Transparency through the bridge: one prompt after the UI is gone when marketing consent was given,
/// before the CMP when configured, never when rejected or already determined.
@MainActor
@Suite struct BridgeTrackingTests {
    @Test func marketingConsentChainsOnePromptAfterTheUIIsGone() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        await settle()
        #expect(harness.tracking.requests == 0)  // never while the consent UI is up
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        #expect(harness.tracking.requests == 0)  // nor while it is being dismissed
        harness.tracking.active = false
        harness.bridge.endPresentation()
        await settle()
        #expect(harness.tracking.requests == 0)  // nor while the app is inactive
        harness.tracking.becomeActive()
        await settle()
        #expect(harness.tracking.requests == 1)
        #expect(harness.events.suffix(2) == [.uiFinished(.closed), .trackingAuthorization(.authorized)])
        #expect(harness.bridge.state == .invalidated)
    }

    @Test func runDeliversTheTrackingResult() async {
        let webView = FakeWebView()
        let tracking = FakeTrackingAuthorizer()
        tracking.answer = .denied
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/")!, dialect: .gravito)
        configuration.tracking = .afterConsent()
        let bridge = ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: ManualScheduler().scheduler,
            trackingAuthorizer: tracking.client)
        let task = Task { @MainActor in await bridge.run(in: webView) }
        while webView.loadedURLs.isEmpty { await Task.yield() }
        webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        webView.post("jsHandler", .object(["type": .string("close")]))
        let outcome = await task.value
        #expect(outcome.finishReason == .closed)
        #expect(outcome.trackingAuthorization == .denied)
        #expect(tracking.requests == 1)
    }

    @Test func rejectedMarketingNeverPrompts() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.analyticsOnly)]))
        await settle()
        #expect(harness.tracking.requests == 0)
    }

    @Test func disabledByDefaultAndNeverWhenDetermined() async {
        let disabled = BridgeHarness()
        disabled.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        let determined = BridgeHarness { $0.tracking = .afterConsent() }
        determined.tracking.status = .denied
        determined.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        await settle()
        #expect(disabled.tracking.requests == 0)
        #expect(determined.tracking.requests == 0)
    }

    @Test func promptBeforeTheCMPLoads() async {
        let tracking = FakeTrackingAuthorizer()
        tracking.answer = .denied
        let (bridge, webView) = startBridgeAskingForTrackingFirst(tracking)
        #expect(webView.loadedURLs.isEmpty)
        await settle()
        #expect(tracking.requests == 1)
        #expect(webView.loadedURLs.count == 1)
        #expect(bridge.eventLog.first == .trackingAuthorization(.denied))
    }

    @Test func policyDecision() {
        let policy = TrackingPolicy.afterConsent(marketingPurposes: [4])
        #expect(policy.shouldRequestAfterConsent(purposeConsents: [1, 4], status: .notDetermined, alreadyRequestedForThisConsent: false))
        #expect(!policy.shouldRequestAfterConsent(purposeConsents: [1, 2, 3], status: .notDetermined, alreadyRequestedForThisConsent: false))
        #expect(!policy.shouldRequestAfterConsent(purposeConsents: [4], status: .unavailable, alreadyRequestedForThisConsent: false))
        #expect(!TrackingPolicy.disabled.shouldRequestBeforeCMP(status: .notDetermined))
    }
}
