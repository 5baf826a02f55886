import Foundation

/// One consent UI's presentation, decided from the facts UIKit and SwiftUI report: `ConsentViewController`,
/// `.consentPrompt` and `ConsentWebView` (WebCMPBridgeUI) only report what happened to them (``Fact``) and perform
/// what this value answers (``Action``). A pure value, like `BridgeMachine`: every fact in every phase is table-tested.
///
/// The rules:
/// - The bridge's presentation begins when the UI is **confirmed** on screen (``Fact/shown``: UIKit's completion,
///   `viewDidAppear`, SwiftUI's `onAppear`), not when it was asked for: a presentation UIKit queued or refused never
///   began one. The process-wide presentation gate is confirmed then too.
/// - A UI that disappears without being dismissed or removed from its parent (a tab switch, a screen pushed or
///   presented over it) is **covered**: the run goes on (``ConsentBridge/coverPresentation()``), and shows again with
///   ``Fact/uncovered`` or ``Fact/shown``. Only ``Fact/dismissed`` and ``Fact/removedFromParent`` end it.
/// - A presentation that never showed (``Fact/presentationRefused``, or dismissed before it was shown) is
///   **released**: the gate is freed, the bridge invalidated and its web view released (a pre-warmed one leaves the
///   window it waited in). Its outcome is never delivered: the UI was never there.
/// - A dismissal the page asks for (``Fact/pageFinished(closes:)``) or the person asks for (``Fact/closeRequested``)
///   waits while a presentation transition animates or the UI is covered (UIKit ignores a dismissal during a
///   transition), and is sent once the UI is shown.
/// - The outcome is delivered once, when the run ended **and** the UI is gone.
package struct ConsentPresentationLifecycle: Sendable, Hashable {
    /// Where the presentation is.
    package enum Phase: Sendable, Hashable, CaseIterable {
        /// Nothing reported yet (an embedded UI starts here and goes straight to ``shown``).
        case idle
        /// Asked for (``Fact/willPresent``), not yet on screen.
        case presenting
        /// On screen.
        case shown
        /// Still presented but covered.
        case covered
        /// Dismissed or removed after it was shown: the bridge's presentation ended.
        case ended
        /// Refused, or gone before it was ever shown: released.
        case released
    }

    /// What UIKit or SwiftUI reported.
    package enum Fact: Sendable, Hashable, CaseIterable {
        /// The UI asked UIKit to present it (all of UIKit's documented preconditions held) and holds the gate.
        case willPresent
        /// The presentation will not happen: a precondition failed, or the SwiftUI sheet was withdrawn before it
        /// appeared.
        case presentationRefused
        /// Confirmed on screen: the presentation's completion handler, `viewDidAppear`, SwiftUI's `onAppear`.
        case shown
        /// Disappeared without being dismissed or removed from its parent.
        case covered
        /// Appears again after ``covered``.
        case uncovered
        /// Removed from its parent container (`isMovingFromParent`, `didMove(toParent: nil)`, SwiftUI dismantling it).
        case removedFromParent
        /// Really dismissed: `isBeingDismissed` of itself or an ancestor, the presentation controller's
        /// `presentationControllerDidDismiss(_:)`, the SwiftUI sheet's `onDismiss`.
        case dismissed
        /// The page is finished (``ConsentBridgeEvent/uiFinished(_:)``): `closes` when the UI closes now (not an error
        /// that stays on screen with its Close button).
        case pageFinished(closes: Bool)
        /// The person tapped Close under an error.
        case closeRequested
        /// The bridge's run is over: its outcome is known.
        case runEnded

        /// Every fact, with both values of ``pageFinished(closes:)``.
        package static let allCases: [Fact] = [
            .willPresent, .presentationRefused, .shown, .covered, .uncovered, .removedFromParent, .dismissed,
            .pageFinished(closes: true), .pageFinished(closes: false), .closeRequested, .runEnded,
        ]
    }

    /// What the UI does.
    package enum Action: Sendable, Hashable {
        /// ``ConsentBridge/beginPresentation()``.
        case beginPresentation
        /// ``ConsentBridge/endPresentation()``.
        case endPresentation
        /// ``ConsentBridge/coverPresentation()``.
        case coverPresentation
        /// ``ConsentBridge/uncoverPresentation()``.
        case uncoverPresentation
        /// Confirm the presentation gate (``PresentationGate/confirm(_:)``).
        case confirmGate
        /// Free the presentation gate (``PresentationGate/end(_:)``).
        case releaseGate
        /// Close the UI: UIKit's `dismiss(animated:)`, or the SwiftUI host's binding.
        case dismiss
        /// The UI never showed: invalidate the bridge and release its web view.
        case release
        /// Deliver the run's outcome (`onFinish`).
        case deliverOutcome
    }

    /// Whether the UI closes itself when the page is finished (`ConsentViewController.dismissesItself`; a SwiftUI
    /// host or an app's container closes it otherwise).
    package var closesItself: Bool
    /// Where the presentation is.
    package private(set) var phase: Phase = .idle
    private var holdsGate = false
    private var dismissPending = false
    private var dismissSent = false
    private var runIsOver = false
    private var outcomeDelivered = false

    /// A presentation that has not begun; `closesItself`: see ``closesItself``.
    package init(closesItself: Bool = true) {
        self.closesItself = closesItself
    }

    /// Takes one fact in and answers what to do, in order.
    package mutating func handle(_ fact: Fact) -> [Action] {
        var out: [Action] = []
        switch fact {
        case .willPresent:
            guard phase == .idle else { break }
            phase = .presenting
            holdsGate = true
        case .presentationRefused:
            guard phase == .idle || phase == .presenting else { break }
            release(&out)
        case .shown:
            switch phase {
            case .idle, .presenting:
                phase = .shown
                out.append(.beginPresentation)
                if holdsGate { out.append(.confirmGate) }
                sendPendingDismissal(&out)
            case .covered:
                uncover(&out)
            case .shown, .ended, .released:
                break
            }
        case .uncovered:
            guard phase == .covered else { break }
            uncover(&out)
        case .covered:
            guard phase == .shown else { break }
            phase = .covered
            out.append(.coverPresentation)
        case .removedFromParent, .dismissed:
            switch phase {
            case .idle, .presenting:
                release(&out)
            case .shown, .covered:
                phase = .ended
                out.append(.endPresentation)
                if holdsGate { out.append(.releaseGate) }
                holdsGate = false
                deliverIfDone(&out)
            case .ended, .released:
                break
            }
        case .pageFinished(let closes):
            guard closes, closesItself else { break }
            requestDismissal(&out)
        case .closeRequested:
            requestDismissal(&out)
        case .runEnded:
            runIsOver = true
            deliverIfDone(&out)
        }
        return out
    }

    private mutating func release(_ out: inout [Action]) {
        phase = .released
        if holdsGate { out.append(.releaseGate) }
        holdsGate = false
        out.append(.release)
    }

    private mutating func uncover(_ out: inout [Action]) {
        phase = .shown
        out.append(.uncoverPresentation)
        sendPendingDismissal(&out)
    }

    private mutating func requestDismissal(_ out: inout [Action]) {
        guard !dismissSent else { return }
        switch phase {
        case .shown:
            dismissSent = true
            out.append(.dismiss)
        case .idle, .presenting, .covered:
            dismissPending = true
        case .ended, .released:
            break
        }
    }

    private mutating func sendPendingDismissal(_ out: inout [Action]) {
        guard dismissPending, !dismissSent else { return }
        dismissPending = false
        dismissSent = true
        out.append(.dismiss)
    }

    private mutating func deliverIfDone(_ out: inout [Action]) {
        guard runIsOver, phase == .ended, !outcomeDelivered else { return }
        outcomeDelivered = true
        out.append(.deliverOutcome)
    }
}
