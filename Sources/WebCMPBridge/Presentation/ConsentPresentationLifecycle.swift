import Foundation

/// One consent UI's presentation, decided from the facts UIKit and SwiftUI report: `ConsentViewController`,
/// `.consentPrompt` and `ConsentWebView` (WebCMPBridgeUI) only report what happened to them (``Input``) and perform
/// what this value answers (``Effect``). A pure value, like `BridgeMachine`: every fact in every phase is table-tested.
///
/// The rules:
/// - The bridge's presentation begins when the UI is **confirmed** on screen (``Input/shown``: UIKit's completion,
///   `viewDidAppear`, SwiftUI's `onAppear`), not when it was asked for: a presentation UIKit queued or refused never
///   began one. The process-wide presentation gate is confirmed then too.
/// - A UI that disappears without being dismissed or removed from its parent (a tab switch, a screen pushed or
///   presented over it) is **covered**: the run goes on (``ConsentBridge/coverPresentation()``), and shows again with
///   ``Input/uncovered`` or ``Input/shown``. Only ``Input/dismissed`` and ``Input/removedFromParent`` end it.
/// - A presentation that never showed (``Input/presentationRefused``, or dismissed before it was shown) is
///   **released**: the gate is freed, the bridge invalidated and its web view released (a pre-warmed one leaves the
///   window it waited in). Its outcome is never delivered: the UI was never there.
/// - A dismissal the page asks for (``Input/pageFinished(closes:)``) or the person asks for (``Input/closeRequested``)
///   waits while a presentation transition animates or the UI is covered (UIKit ignores a dismissal during a
///   transition), and is sent once the UI is shown.
/// - A second request to present the same UI while it is presenting, shown or covered (a double tap on the button
///   that presents it: ``Input/presentAgain``) changes nothing: it never tears down the first.
/// - A UI whose screen is torn down without a dismissal (``Input/tornDown``: its window's root view controller
///   replaced, its scene closed or disconnected) ends its presentation like a dismissal: the run ends and the outcome
///   is delivered, instead of a covered run whose timers stay paused for good.
/// - An embedded UI that nothing can close (``endsOnClose``: an app's own `ConsentWebView` outside `.consentPrompt`)
///   ends its presentation where it is when the person taps Close under an error: the outcome is delivered, and the
///   app removes the view in its `onFinish`.
/// - The outcome is delivered once, when the run ended **and** the UI is gone.
///
/// ``ConsentSession`` holds one run around this value; the glue reports to the session, not to this value.
package struct ConsentPresentationLifecycle: Sendable, Hashable {
    /// Where the presentation is.
    package enum Phase: Sendable, Hashable, CaseIterable {
        /// Nothing reported yet (an embedded UI starts here and goes straight to ``shown``).
        case idle
        /// Asked for (``Input/willPresent``), not yet on screen.
        case presenting
        /// On screen.
        case shown
        /// Still presented but covered.
        case covered
        /// Dismissed or removed after it was shown: the bridge's presentation ended.
        case ended
        /// Refused, or gone before it was ever shown: released.
        case released

        /// Whether the UI may be on screen: asked for (it may be coming on screen), shown or covered, until it reports
        /// its end.
        package var mayBeOnScreen: Bool { self == .presenting || self == .shown || self == .covered }
    }

    /// What UIKit or SwiftUI reported.
    package enum Input: Sendable, Hashable, CaseIterable {
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
        /// The same UI was asked to present again while it is presenting, shown or covered (a double tap): nothing
        /// changes.
        case presentAgain
        /// The screen that showed the UI went away without dismissing it: the view left its window and that window's
        /// root view controller no longer holds it, or the window's scene disconnected
        /// (`UIScene.didDisconnectNotification`), or SwiftUI destroyed the view's state.
        case tornDown

        /// Every fact, with both values of ``pageFinished(closes:)``.
        package static let allCases: [Input] = [
            .willPresent, .presentationRefused, .shown, .covered, .uncovered, .removedFromParent, .dismissed,
            .pageFinished(closes: true), .pageFinished(closes: false), .closeRequested, .runEnded, .presentAgain,
            .tornDown,
        ]
    }

    /// What the UI does.
    package enum Effect: Sendable, Hashable {
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
    /// Whether the UI is embedded where nothing can close it (an app's own `ConsentWebView`): a Close under an error
    /// then ends the presentation where it is (the outcome is delivered; the app removes the view in `onFinish`).
    package var endsOnClose = false
    /// Where the presentation is.
    package private(set) var phase: Phase = .idle
    private var holdsGate = false
    private var dismissPending = false
    private var dismissSent = false
    private var runIsOver = false
    private var outcomeDelivered = false

    /// A presentation that has not begun; `closesItself`: see ``closesItself``.
    package init(closesItself: Bool = true, endsOnClose: Bool = false) {
        self.closesItself = closesItself
        self.endsOnClose = endsOnClose
    }

    /// Takes one input in and answers what to do, in order.
    package mutating func handle(_ input: Input) -> [Effect] {
        var out: [Effect] = []
        switch input {
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
        case .removedFromParent, .dismissed, .tornDown:
            switch phase {
            case .idle, .presenting:
                release(&out)
            case .shown, .covered:
                end(&out)
            case .ended, .released:
                break
            }
        case .pageFinished(let closes):
            guard closes, closesItself else { break }
            requestDismissal(&out)
        case .closeRequested:
            if endsOnClose, phase == .shown || phase == .covered {
                end(&out)
            } else {
                requestDismissal(&out)
            }
        case .runEnded:
            runIsOver = true
            deliverIfDone(&out)
        case .presentAgain:
            break
        }
        return out
    }

    private mutating func end(_ out: inout [Effect]) {
        phase = .ended
        out.append(.endPresentation)
        if holdsGate { out.append(.releaseGate) }
        holdsGate = false
        deliverIfDone(&out)
    }

    private mutating func release(_ out: inout [Effect]) {
        phase = .released
        if holdsGate { out.append(.releaseGate) }
        holdsGate = false
        out.append(.release)
    }

    private mutating func uncover(_ out: inout [Effect]) {
        phase = .shown
        out.append(.uncoverPresentation)
        sendPendingDismissal(&out)
    }

    private mutating func requestDismissal(_ out: inout [Effect]) {
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

    private mutating func sendPendingDismissal(_ out: inout [Effect]) {
        guard dismissPending, !dismissSent else { return }
        dismissPending = false
        dismissSent = true
        out.append(.dismiss)
    }

    private mutating func deliverIfDone(_ out: inout [Effect]) {
        guard runIsOver, phase == .ended, !outcomeDelivered else { return }
        outcomeDelivered = true
        out.append(.deliverOutcome)
    }
}
