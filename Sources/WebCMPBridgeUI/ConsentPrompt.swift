#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
import SwiftUI
import WebCMPBridge

/// The CMP web view for SwiftUI.
@MainActor
public struct ConsentWebView: UIViewControllerRepresentable {
    private let bridge: ConsentBridge
    private let onEvent: (ConsentBridgeEvent) -> Void

    /// Creates the view; `onEvent` receives every bridge event.
    public init(bridge: ConsentBridge, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in }) {
        self.bridge = bridge
        self.onEvent = onEvent
    }

    public func makeUIViewController(context: Context) -> ConsentViewController {
        let controller = ConsentViewController(bridge: bridge, presentation: .fullScreen)
        controller.dismissesItself = false
        controller.onEvent = onEvent
        return controller
    }

    public func updateUIViewController(_ controller: ConsentViewController, context: Context) {}
}

extension View {
    /// Presents the CMP in a sheet while `isPresented` is true and sets it to false when the page is finished.
    public func consentPrompt(
        bridge: ConsentBridge, isPresented: Binding<Bool>, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in }
    ) -> some View {
        sheet(isPresented: isPresented) {
            ConsentWebView(bridge: bridge) { event in
                onEvent(event)
                if event.endsPresentation { isPresented.wrappedValue = false }
            }
            .ignoresSafeArea(edges: .bottom)
        }
    }
}
#endif
