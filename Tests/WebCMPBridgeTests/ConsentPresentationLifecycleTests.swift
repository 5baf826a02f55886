import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Table tests of ``ConsentPresentationLifecycle``: every fact in every phase, then the sequences UIKit and SwiftUI
/// produce (an embedded screen under a tab switch, a page that finishes while the presentation animates, a sheet that
/// never appears, a dismissal reported twice).
@Suite struct ConsentPresentationLifecycleTests {
    typealias Lifecycle = ConsentPresentationLifecycle
    typealias Phase = Lifecycle.Phase
    typealias Input = Lifecycle.Input
    typealias Effect = Lifecycle.Effect

    /// The facts that lead a presentation UIKit presents (it holds the gate) into each phase.
    static let setups: [Phase: [Input]] = [
        .idle: [],
        .presenting: [.willPresent],
        .shown: [.willPresent, .shown],
        .covered: [.willPresent, .shown, .covered],
        .ended: [.willPresent, .shown, .dismissed],
        .released: [.willPresent, .presentationRefused],
    ]

    /// Every fact in every phase: the actions of that fact and the phase it leaves.
    static let table: [Phase: [Input: ([Effect], Phase)]] = [
        .idle: [
            .willPresent: ([], .presenting),
            .presentationRefused: ([.release], .released),
            .shown: ([.beginPresentation], .shown),   // embedded: no gate to confirm
            .covered: ([], .idle),
            .uncovered: ([], .idle),
            .removedFromParent: ([.release], .released),
            .dismissed: ([.release], .released),
            .pageFinished(closes: true): ([], .idle),
            .pageFinished(closes: false): ([], .idle),
            .closeRequested: ([], .idle),
            .runEnded: ([], .idle),
            .presentAgain: ([], .idle),
            .tornDown: ([.release], .released),
        ],
        .presenting: [
            .willPresent: ([], .presenting),
            .presentationRefused: ([.releaseGate, .release], .released),
            .shown: ([.beginPresentation, .confirmGate], .shown),
            .covered: ([], .presenting),
            .uncovered: ([], .presenting),
            .removedFromParent: ([.releaseGate, .release], .released),
            .dismissed: ([.releaseGate, .release], .released),
            .pageFinished(closes: true): ([], .presenting),   // deferred until shown
            .pageFinished(closes: false): ([], .presenting),
            .closeRequested: ([], .presenting),
            .runEnded: ([], .presenting),
            .presentAgain: ([], .presenting),
            .tornDown: ([.releaseGate, .release], .released),
        ],
        .shown: [
            .willPresent: ([], .shown),
            .presentationRefused: ([], .shown),   // a stale refusal: it is on screen
            .shown: ([], .shown),
            .covered: ([.coverPresentation], .covered),
            .uncovered: ([], .shown),
            .removedFromParent: ([.endPresentation, .releaseGate], .ended),
            .dismissed: ([.endPresentation, .releaseGate], .ended),
            .pageFinished(closes: true): ([.dismiss], .shown),
            .pageFinished(closes: false): ([], .shown),   // an error stays on screen with its Close button
            .closeRequested: ([.dismiss], .shown),
            .runEnded: ([], .shown),   // the outcome waits until the UI is gone
            .presentAgain: ([], .shown),   // a double tap never tears it down
            .tornDown: ([.endPresentation, .releaseGate], .ended),
        ],
        .covered: [
            .willPresent: ([], .covered),
            .presentationRefused: ([], .covered),
            .shown: ([.uncoverPresentation], .shown),
            .covered: ([], .covered),
            .uncovered: ([.uncoverPresentation], .shown),
            .removedFromParent: ([.endPresentation, .releaseGate], .ended),
            .dismissed: ([.endPresentation, .releaseGate], .ended),
            .pageFinished(closes: true): ([], .covered),   // deferred until it shows again
            .pageFinished(closes: false): ([], .covered),
            .closeRequested: ([], .covered),
            .runEnded: ([], .covered),
            .presentAgain: ([], .covered),
            .tornDown: ([.endPresentation, .releaseGate], .ended),   // the screen went away under it: the run ends
        ],
        .ended: [
            .willPresent: ([], .ended),
            .presentationRefused: ([], .ended),
            .shown: ([], .ended),
            .covered: ([], .ended),
            .uncovered: ([], .ended),
            .removedFromParent: ([], .ended),
            .dismissed: ([], .ended),
            .pageFinished(closes: true): ([], .ended),
            .pageFinished(closes: false): ([], .ended),
            .closeRequested: ([], .ended),
            .runEnded: ([.deliverOutcome], .ended),
            .presentAgain: ([], .ended),
            .tornDown: ([], .ended),
        ],
        .released: [
            .willPresent: ([], .released),
            .presentationRefused: ([], .released),
            .shown: ([], .released),
            .covered: ([], .released),
            .uncovered: ([], .released),
            .removedFromParent: ([], .released),
            .dismissed: ([], .released),
            .pageFinished(closes: true): ([], .released),
            .pageFinished(closes: false): ([], .released),
            .closeRequested: ([], .released),
            .runEnded: ([], .released),   // never shown: no outcome
            .presentAgain: ([], .released),
            .tornDown: ([], .released),
        ],
    ]

    static func lifecycle(in phase: Phase, closesItself: Bool = true) -> Lifecycle {
        var lifecycle = Lifecycle(closesItself: closesItself)
        for fact in setups[phase] ?? [] { _ = lifecycle.handle(fact) }
        return lifecycle
    }

    @Test func everyFactInEveryPhaseHasOneAnswer() {
        #expect(Set(Self.table.keys) == Set(Phase.allCases))
        for phase in Phase.allCases {
            #expect(Self.lifecycle(in: phase).phase == phase, "setup of \(phase)")
            let row = Self.table[phase] ?? [:]
            #expect(Set(row.keys) == Set(Input.allCases), "\(phase) lists every fact")
            for fact in Input.allCases {
                guard let (actions, next) = row[fact] else { continue }
                var lifecycle = Self.lifecycle(in: phase)
                #expect(lifecycle.handle(fact) == actions, "\(fact) in \(phase)")
                #expect(lifecycle.phase == next, "\(fact) in \(phase)")
            }
        }
    }

    @Test func anEmbeddedScreenThatDisappearsIsCoveredAndItsRunGoesOn() {
        var lifecycle = Lifecycle(closesItself: false)
        #expect(lifecycle.handle(.shown) == [.beginPresentation])
        // A tab switch, a push over it: viewDidDisappear without isBeingDismissed or isMovingFromParent.
        #expect(lifecycle.handle(.covered) == [.coverPresentation])
        #expect(lifecycle.handle(.runEnded) == [])   // nothing is delivered while it is still there
        #expect(lifecycle.handle(.shown) == [.uncoverPresentation])
        #expect(lifecycle.handle(.covered) == [.coverPresentation])
        // Only the removal from its parent ends it, then the outcome is delivered.
        #expect(lifecycle.handle(.removedFromParent) == [.endPresentation, .deliverOutcome])
        #expect(lifecycle.handle(.dismissed) == [])
    }

    @Test func aPageThatFinishesWhileThePresentationAnimatesIsDismissedOnceItIsShown() {
        var lifecycle = Lifecycle()
        _ = lifecycle.handle(.willPresent)
        #expect(lifecycle.handle(.pageFinished(closes: true)) == [])
        #expect(lifecycle.handle(.runEnded) == [])
        #expect(lifecycle.handle(.shown) == [.beginPresentation, .confirmGate, .dismiss])
        #expect(lifecycle.handle(.pageFinished(closes: true)) == [])   // one dismissal
        #expect(lifecycle.handle(.dismissed) == [.endPresentation, .releaseGate, .deliverOutcome])
        #expect(lifecycle.handle(.dismissed) == [])   // viewDidDisappear and presentationControllerDidDismiss
        #expect(lifecycle.handle(.runEnded) == [])    // once
    }

    @Test func aDismissalAskedWhileCoveredWaitsUntilTheScreenShowsAgain() {
        var lifecycle = Self.lifecycle(in: .covered)
        #expect(lifecycle.handle(.closeRequested) == [])
        #expect(lifecycle.handle(.uncovered) == [.uncoverPresentation, .dismiss])
    }

    @Test func aUIThatDoesNotCloseItselfLeavesTheFinishedPageToItsHostButClosesOnClose() {
        var lifecycle = Self.lifecycle(in: .shown, closesItself: false)
        #expect(lifecycle.handle(.pageFinished(closes: true)) == [])
        #expect(lifecycle.handle(.closeRequested) == [.dismiss])
    }

    @Test func aPresentationThatNeverShowsIsReleasedAndDeliversNothing() {
        var refused = Lifecycle()
        _ = refused.handle(.willPresent)
        #expect(refused.handle(.presentationRefused) == [.releaseGate, .release])
        #expect(refused.handle(.shown) == [])   // a late appearance of a released UI begins nothing
        #expect(refused.handle(.runEnded) == [])

        // A SwiftUI sheet withdrawn before it appeared reports its onDismiss as a dismissal.
        var withdrawn = Lifecycle(closesItself: false)
        _ = withdrawn.handle(.willPresent)
        #expect(withdrawn.handle(.dismissed) == [.releaseGate, .release])
    }
}

/// The lifecycle driving a real bridge over `FakeWebView` (what `ConsentViewController` does with UIKit's facts).
@MainActor
@Suite struct ConsentPresentationLifecycleBridgeTests {
    /// Performs the lifecycle's answers on the bridge, as the UI glue does; records the rest.
    @MainActor final class Glue {
        var lifecycle: ConsentPresentationLifecycle
        let bridge: ConsentBridge
        var others: [ConsentPresentationLifecycle.Effect] = []

        init(_ bridge: ConsentBridge, closesItself: Bool) {
            self.bridge = bridge
            lifecycle = ConsentPresentationLifecycle(closesItself: closesItself)
        }

        func report(_ fact: ConsentPresentationLifecycle.Input) {
            for action in lifecycle.handle(fact) where !bridge.perform(action) {
                switch action {
                case .release: bridge.invalidate()
                default: others.append(action)
                }
            }
        }
    }

    @Test func aChoiceMadeAfterAnEmbeddedScreenWasCoveredAndShownAgainIsStored() {
        let harness = BridgeHarness()
        let glue = Glue(harness.bridge, closesItself: false)
        glue.report(.shown)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        glue.report(.covered)   // a tab switch: viewDidDisappear, neither dismissed nor removed
        glue.report(.shown)     // the person comes back
        #expect(harness.bridge.state == .ready)
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll),
        ]))
        #expect(harness.store.record()?.tcString == TestStrings.acceptAll)
        #expect(!harness.events.contains(.uiFinished(.dismissedByUser)))
    }

    @Test func aRealDismissalBeforeAChoiceEndsTheRunAsDismissedByTheUser() {
        let harness = BridgeHarness()
        let glue = Glue(harness.bridge, closesItself: true)
        glue.report(.willPresent)
        glue.report(.shown)
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        glue.report(.dismissed)
        #expect(harness.events.contains(.uiFinished(.dismissedByUser)))
        #expect(glue.others == [.confirmGate, .releaseGate])
    }

    @Test func aRefusedPresentationOfAStartedBridgeEndsItsRun() {
        let harness = BridgeHarness()
        let glue = Glue(harness.bridge, closesItself: true)
        glue.report(.willPresent)
        glue.report(.presentationRefused)
        #expect(harness.bridge.state == .invalidated)
        #expect(harness.webView.handlers.isEmpty)
        #expect(glue.others == [.releaseGate])
    }
}
