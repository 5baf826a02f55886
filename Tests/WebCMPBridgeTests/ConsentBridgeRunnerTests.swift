import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// ``ConsentBridge`` as the runner of ``BridgeMachine``: it owns every timer and task it starts, and after
/// ``ConsentBridge/invalidate()`` nothing it started runs.
@MainActor
@Suite struct ConsentBridgeRunnerTests {
    /// Invalidating a live run in settings mode (the settings attempt timer and the finish delay under way) cancels
    /// both: no timer is left with the clock, no task with the bridge, no handler or script with the web view, and
    /// advancing time afterwards reports nothing.
    @Test func invalidateStopsEveryTimerTheBridgeStarted() async {
        let harness = BridgeHarness(dialect: .tcf) { $0.mode = .settings }
        harness.webView.post("webcmpTCF", .object(["type": .string("ready")]))
        #expect(harness.webView.evaluated.count == 1)   // the first settings call, with its attempt timer
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.acceptAll),
        ]))   // stored; the finish delay runs
        #expect(harness.clock.pendingCount == 2)   // the settings attempt and the finish delay
        let events = harness.events.count

        harness.bridge.invalidate()
        await settle()
        #expect(harness.bridge.state == .invalidated)
        #expect(harness.clock.pendingCount == 0)
        #expect(harness.bridge.tasks.count == 0)
        #expect(harness.webView.handlers.isEmpty)
        #expect(harness.webView.removedAllUserScripts == 1)
        #expect(harness.webView.eventHandler == nil && harness.webView.navigationPolicy == nil)
        harness.clock.advance(by: 3_600)
        #expect(harness.events.count == events)
    }

    /// The tracking task after the UI is the bridge's: invalidating while it waits for the app to become active
    /// cancels it, and no prompt follows.
    @Test func invalidateCancelsTheTrackingTask() async {
        let harness = BridgeHarness(dialect: .gravito) { $0.tracking = .afterConsent() }
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.tracking.active = false
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        #expect(harness.tracking.waitingCount == 1)
        harness.bridge.invalidate()
        await settle()
        #expect(harness.tracking.waitingCount == 0)
        #expect(harness.bridge.tasks.count == 0)
        harness.tracking.becomeActive()
        await settle()
        #expect(harness.tracking.requests == 0)
    }

    /// The runner answers each commit with the request the machine asked it to commit (the machine keeps no copy):
    /// every save of a run is announced, and no answer is ignored as stray.
    @Test func eachCommitIsAnsweredWithItsOwnRequest() {
        let harness = BridgeHarness(dialect: .tcf)
        for (status, tcString) in [("tcloaded", TestStrings.analyticsOnly), ("useractioncomplete", TestStrings.acceptAll)] {
            harness.webView.post("webcmpTCF", .object([
                "type": .string("tcf"), "eventStatus": .string(status), "tcString": .string(tcString),
            ]))
        }
        let announced = harness.events.compactMap { event -> String? in
            if case .consentReady(let summary) = event { return summary.strings.tcString }
            return nil
        }
        #expect(announced == [TestStrings.analyticsOnly, TestStrings.acceptAll])
        #expect(!harness.events.contains { event in
            if case .diagnostic(let text) = event { return text.hasPrefix("ignored the store's answer") }
            return false
        })
    }

    /// A timer the machine replaced never fires late: the runner tells a replaced timer's work apart.
    @Test func aReplacedReadyTimerDoesNotFire() {
        let harness = BridgeHarness(dialect: .gravito) { $0.readyTimeout = 10 }
        harness.clock.advance(by: 6)
        harness.webView.terminateContentProcess()   // reloads once: the ready timeout starts again
        harness.clock.advance(by: 6)
        #expect(harness.bridge.state == .loading)
        harness.clock.advance(by: 4)
        #expect(harness.bridge.state == .invalidated)
        #expect(harness.errorCodes == ["timeout"])
    }

    /// Tracking before the CMP: invalidating while the prompt waits for the app to become active cancels the wait;
    /// no prompt follows and nothing loads.
    @Test func invalidateCancelsTheTrackingTaskWaitingBeforeTheCMP() async {
        let tracking = FakeTrackingAuthorizer()
        tracking.active = false
        let (bridge, webView) = startBridgeAskingForTrackingFirst(tracking)
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
}
