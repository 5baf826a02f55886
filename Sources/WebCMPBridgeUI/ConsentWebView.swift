#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
import SwiftUI
import WebCMPBridge

/// The CMP web view for SwiftUI: a ``ConsentViewController`` that leaves dismissal to its SwiftUI host.
@MainActor
public struct ConsentWebView: UIViewControllerRepresentable {
    private let bridge: ConsentBridge
    private var prewarmed: PrewarmedConsent?
    private let onEvent: (ConsentBridgeEvent) -> Void
    private let onFinish: (ConsentOutcome) -> Void
    /// Called when the person taps Close under an error (the host closes its sheet); `nil`: nothing.
    var onCloseRequest: (() -> Void)?

    /// Creates the view; `onEvent` receives every bridge event, `onFinish` the run's outcome.
    public init(
        bridge: ConsentBridge, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) {
        self.bridge = bridge
        self.onEvent = onEvent
        self.onFinish = onFinish
    }

    /// Creates the view around a pre-warmed bridge and web view (``ConsentPrewarming/take()``): no new load.
    public init(
        prewarmed: PrewarmedConsent, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) {
        self.init(bridge: prewarmed.bridge, onEvent: onEvent, onFinish: onFinish)
        self.prewarmed = prewarmed
    }

    public func makeUIViewController(context: Context) -> ConsentViewController {
        let controller = prewarmed.map { ConsentViewController(prewarmed: $0, presentation: .fullScreen) }
            ?? ConsentViewController(bridge: bridge, presentation: .fullScreen)
        controller.dismissesItself = false
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
