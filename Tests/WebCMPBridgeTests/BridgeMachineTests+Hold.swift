import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// When a bridge holds its storage's consent UI (`BridgeMachine.holdsConsentUI`, what ``ConsentGate`` waits on): while
/// its UI or the tracking prompt it requests may be on screen, and never for a pre-warmed page nobody shows.
extension BridgeMachineTests {
    /// A row: the inputs, and whether the machine holds the consent UI afterwards.
    struct HoldRow: @unchecked Sendable, CustomTestStringConvertible {
        let name: String
        let configure: Configure
        let inputs: [Input]
        let holds: Bool
        var testDescription: String { name }

        init(_ name: String, configure: @escaping Configure = gravitoDialect, _ inputs: [Input], holds: Bool) {
            self.name = name
            self.configure = configure
            self.inputs = inputs
            self.holds = holds
        }
    }

    /// Attached and started as a pre-warmed page (its ready timeout waits for a presentation).
    static var prewarmed: [Input] {
        [.attached(setupFailure: nil), .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined)]
    }

    static let beforeCMP: Configure = {
        $0.dialect = .tcf
        $0.tracking = .beforeCMP
    }

    static var holdRows: [HoldRow] {
        let saved = MachineFlows.savedWithTrackingPending
        let after = MachineFlows.trackingAfterConsent
        return [
            HoldRow("created: nothing", [], holds: false),
            HoldRow("attached, not started: nothing", [.attached(setupFailure: nil)], holds: false),
            HoldRow("started to be shown at once: held", started, holds: true),
            HoldRow("a pre-warmed page nobody shows: not held", prewarmed, holds: false),
            HoldRow("a pre-warmed page ready off-screen: not held", prewarmed + [.gravito(gravitoReady)], holds: false),
            HoldRow("a pre-warmed page shown: held", prewarmed + [.presentationBegan], holds: true),
            HoldRow("a pre-warmed page shown, then covered: held", prewarmed + [.presentationBegan, .presentationCovered],
                    holds: true),
            HoldRow("a pre-warmed page shown, then dismissed: let go",
                    prewarmed + [.presentationBegan, .presentationEnded], holds: false),
            HoldRow("a pre-warmed page released unshown: not held", prewarmed + [.invalidate], holds: false),
            HoldRow("a page shown before the bridge is attached: held", [.presentationBegan], holds: true),
            HoldRow("the UI finished, still on screen while it goes: held",
                    started + [.presentationBegan, .gravito(gravitoReady), .gravito(gravitoClose)],
                    holds: true),
            HoldRow("the UI finished and gone: let go",
                    started + [.presentationBegan, .gravito(gravitoReady), .gravito(gravitoClose),
                               .presentationEnded],
                    holds: false),
            HoldRow("invalidated by the app while shown: held until the UI is gone",
                    started + [.presentationBegan, .invalidate], holds: true),
            HoldRow("invalidated while not shown: let go", started + [.invalidate], holds: false),
            HoldRow("tracking before the CMP, waiting for an active app: held", configure: beforeCMP,
                    [.attached(setupFailure: nil), .start(trackingStatus: .notDetermined)], holds: true),
            HoldRow("tracking before the CMP, prompt showing: held", configure: beforeCMP,
                    [.attached(setupFailure: nil), .start(trackingStatus: .notDetermined), .appActive], holds: true),
            HoldRow("tracking after the UI, waiting for the UI's end: held", configure: after,
                    [.attached(setupFailure: nil), .start(trackingStatus: .notDetermined), .presentationBegan]
                        + Array(saved.dropFirst(2)) + [.timerFired(.finishDelay)],
                    holds: true),
            HoldRow("tracking after the UI, waiting for an active app: held", configure: after,
                    saved + [.timerFired(.finishDelay)], holds: true),
            HoldRow("tracking after the UI, prompt showing: held", configure: after,
                    saved + [.timerFired(.finishDelay), .appActive], holds: true),
            HoldRow("tracking after the UI, an early denial settling: held", configure: after,
                    saved + [.timerFired(.finishDelay), .appActive,
                             .trackingAnswered(.success(.denied), statusNow: .notDetermined)],
                    holds: true),
            HoldRow("tracking after the UI, answered: let go", configure: after,
                    saved + [.timerFired(.finishDelay), .appActive, .trackingAnswered(.success(.authorized))],
                    holds: false),
        ]
    }

    @Test(arguments: holdRows)
    func theBridgeHoldsTheConsentUIOnlyWhileItsUIOrPromptMayBeOnScreen(_ row: HoldRow) {
        var feeder = RowFeeder(MachinePage.machine(row.configure))
        for input in row.inputs { _ = feeder.feed(input) }
        #expect(feeder.machine.holdsConsentUI == row.holds)
    }
}
