#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
import SwiftUI
import WebCMPBridge
import WebCMPBridgeWebKit

/// The CMP web view for SwiftUI: a ``ConsentViewController`` that leaves dismissal to its SwiftUI host.
///
/// Embedded in a screen of the app's own (not through `.consentPrompt`), nothing the kit knows can close it: when the
/// page ends with an error that stays on screen, the person's Close ends the presentation where it is, and `onFinish`
/// receives the outcome (after the run has ended); remove the view there. A page that finishes without an error
/// ends the run too (see `onEvent`'s ``ConsentBridgeEvent/uiFinished(_:)``); `onFinish` then comes when SwiftUI
/// removes the view.
@MainActor
public struct ConsentWebView: UIViewControllerRepresentable {
    /// What the view shows: an app's bridge, a pre-warmed one, or the session `.consentPrompt` began.
    private enum Source {
        case bridge(ConsentBridge)
        case prewarmed(PrewarmedConsent)
        case session(ConsentSession<WKCMPWebView>)
    }

    private let source: Source
    private let onEvent: (ConsentBridgeEvent) -> Void
    private let onFinish: (ConsentOutcome) -> Void
    /// Called when the person taps Close under an error (the host closes its sheet); `nil`: Close ends the
    /// presentation where it is (see the type's notes).
    var onCloseRequest: (() -> Void)?

    /// Creates the view; `onEvent` receives every bridge event, `onFinish` the run's outcome.
    public init(
        bridge: ConsentBridge, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) {
        source = .bridge(bridge)
        self.onEvent = onEvent
        self.onFinish = onFinish
    }

    /// Creates the view around a pre-warmed bridge and web view (``ConsentPrewarming/take()``): no new load.
    public init(
        prewarmed: PrewarmedConsent, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) {
        source = .prewarmed(prewarmed)
        self.onEvent = onEvent
        self.onFinish = onFinish
    }

    /// The view of `.consentPrompt`'s sheet, around the session that presentation began.
    init(
        session: ConsentSession<WKCMPWebView>, onEvent: @escaping (ConsentBridgeEvent) -> Void,
        onFinish: @escaping (ConsentOutcome) -> Void
    ) {
        source = .session(session)
        self.onEvent = onEvent
        self.onFinish = onFinish
    }

    public func makeUIViewController(context: Context) -> ConsentViewController {
        let controller: ConsentViewController
        switch source {
        case .session(let session):
            controller = ConsentViewController(session: session, presentation: .fullScreen)
        case .prewarmed(let prewarmed):
            controller = ConsentViewController(prewarmed: prewarmed, presentation: .fullScreen)
        case .bridge(let bridge):
            controller = ConsentViewController(bridge: bridge, presentation: .fullScreen)
        }
        controller.dismissesItself = false
        controller.session.endsOnClose = onCloseRequest == nil
        controller.onEvent = onEvent
        controller.onFinish = onFinish
        controller.onCloseRequest = onCloseRequest
        return controller
    }

    public func updateUIViewController(_ controller: ConsentViewController, context: Context) {}

    /// SwiftUI removes the view (its sheet closed, the screen that held it is gone): the controller's presentation
    /// ends as a removal from its parent ("Cleans up the presented UIKit view controller … in anticipation of their
    /// removal": Apple's documentation of `dismantleUIViewController(_:coordinator:)`).
    public static func dismantleUIViewController(_ controller: ConsentViewController, coordinator: ()) {
        controller.hostRemoved()
    }

    /// This view with `action` run when the person taps Close under an error.
    func closing(_ action: @escaping () -> Void) -> ConsentWebView {
        var copy = self
        copy.onCloseRequest = action
        return copy
    }
}
#endif
