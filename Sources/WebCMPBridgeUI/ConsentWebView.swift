#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
import SwiftUI
import WebCMPBridge

/// The CMP web view for SwiftUI: a ``ConsentViewController`` that leaves dismissal to its SwiftUI host.
@MainActor
public struct ConsentWebView: UIViewControllerRepresentable {
    private let bridge: ConsentBridge
    private let onEvent: (ConsentBridgeEvent) -> Void
    private let onFinish: (ConsentOutcome) -> Void

    /// Creates the view; `onEvent` receives every bridge event, `onFinish` the run's outcome.
    public init(
        bridge: ConsentBridge, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) {
        self.bridge = bridge
        self.onEvent = onEvent
        self.onFinish = onFinish
    }

    public func makeUIViewController(context: Context) -> ConsentViewController {
        let controller = ConsentViewController(bridge: bridge, presentation: .fullScreen)
        controller.dismissesItself = false
        controller.onEvent = onEvent
        controller.onFinish = onFinish
        return controller
    }

    public func updateUIViewController(_ controller: ConsentViewController, context: Context) {}
}
#endif
