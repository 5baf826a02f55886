import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Interactive dismissal of the consent UI: modal until the user chose, a dismissal without a choice ends the run.
@MainActor
@Suite struct BridgeDismissalTests {
    @Test func afterChoiceIsModalUntilTheUserChose() {
        let harness = BridgeHarness()
        #expect(!harness.bridge.allowsInteractiveDismissal)
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        #expect(harness.bridge.allowsInteractiveDismissal)
    }

    @Test func afterChoiceAllowsDismissalWhenValidConsentWasStored() throws {
        let first = BridgeHarness()
        first.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        // A second run over the same store ("Privacy settings"): the user chose before.
        let second = BridgeHarness(store: first.store)
        #expect(second.bridge.allowsInteractiveDismissal)
        #expect(BridgeHarness { $0.interactiveDismissal = .always }.bridge.allowsInteractiveDismissal)
        let never = BridgeHarness(store: first.store) { $0.interactiveDismissal = .never }
        #expect(!never.bridge.allowsInteractiveDismissal)
    }

    @Test func aDismissalWithoutAChoiceIsReportedAndInvalidates() {
        let harness = BridgeHarness { $0.interactiveDismissal = .always }
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.bridge.endPresentation()
        #expect(harness.events.last == .uiFinished(.dismissedByUser))
        #expect(harness.bridge.state == .invalidated)
        #expect(harness.webView.handlers.isEmpty)
        // A save that arrives afterwards is not stored.
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        #expect(harness.store.record() == nil)
    }

    @Test func endingThePresentationAfterTheUIFinishedReportsNothingMore() {
        let harness = BridgeHarness()
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        harness.bridge.endPresentation()
        #expect(harness.events.filter(\.endsPresentation) == [.uiFinished(.closed)])
    }
}
