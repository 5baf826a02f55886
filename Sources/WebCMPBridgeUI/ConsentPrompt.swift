#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
import SwiftUI
import WebCMPBridge

extension View {
    /// Presents the CMP in a sheet while `isPresented` is true, with one new bridge per presentation, and sets
    /// `isPresented` to false when the page is finished.
    ///
    /// - `bridge` is called once each time a presentation begins (never on a mere `body` evaluation); the bridge
    ///   lives until its run is over. When ``ConsentPrewarming/shared`` holds a pre-warmed bridge, that one is
    ///   presented instead (its page is already loaded: no new load) and `bridge` is not called.
    /// - At most one consent UI is presented in the process (the same gate as ``ConsentViewController``): when another
    ///   is up, `isPresented` is set back to false.
    /// - The sheet is modal until the user made a choice (``BridgeConfiguration/interactiveDismissal``); a dismissal
    ///   without a choice ends the run with ``UIFinishReason/dismissedByUser``.
    /// - `onFinish` receives the ``ConsentOutcome`` once the sheet is gone (after the App Tracking Transparency prompt,
    ///   when the app enabled it).
    public func consentPrompt(
        isPresented: Binding<Bool>,
        bridge: @escaping @MainActor () -> ConsentBridge,
        onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) -> some View {
        modifier(ConsentPromptModifier(
            isPresented: isPresented, makeBridge: bridge, onEvent: onEvent, onFinish: onFinish))
    }
}

/// One presentation's bridge and gate token.
@MainActor
final class ConsentPromptModel: ObservableObject {
    @Published private(set) var bridge: ConsentBridge?
    private(set) var prewarmed: ConsentPrewarmer<WKCMPWebView>.Prewarmed?
    @Published var allowsDismissal = false
    private var token: PresentationGate.Token?
    private var shown = false

    /// Starts a presentation; `false` when another consent UI is up. A pre-warmed bridge is used only when it was
    /// made for the same page and tracking client as the one `makeBridge` returns (which is then never attached).
    func begin(_ makeBridge: () -> ConsentBridge) -> Bool {
        guard bridge == nil else { return true }
        guard let token = PresentationGate.shared.begin(owner: self) else { return false }
        self.token = token
        let made = makeBridge()
        prewarmed = ConsentPrewarming.shared.take(
            matching: made.configuration, trackingAuthorizer: made.trackingAuthorizer)
        let bridge = prewarmed?.bridge ?? made
        allowsDismissal = bridge.allowsInteractiveDismissal
        self.bridge = bridge
        return true
    }

    /// The sheet's content appeared: the presentation holds the gate until it ends. A sheet that never appears
    /// releases the gate after ``PresentationGate/confirmationTimeout``.
    func confirm() {
        shown = true
        PresentationGate.shared.confirm(token)
    }

    /// `isPresented` went back to false without the sheet ever appearing (SwiftUI refused it): end the presentation
    /// here, as no `onDismiss` will come.
    func endIfNeverShown() {
        if bridge != nil, !shown { end() }
    }

    /// Ends the presentation (the sheet is gone, whichever way it went).
    func end() {
        shown = false
        bridge?.endPresentation()
        PresentationGate.shared.end(token)
        token = nil
        bridge = nil
        prewarmed = nil
    }
}

struct ConsentPromptModifier: ViewModifier {
    @Binding var isPresented: Bool
    let makeBridge: @MainActor () -> ConsentBridge
    let onEvent: (ConsentBridgeEvent) -> Void
    let onFinish: (ConsentOutcome) -> Void
    @StateObject private var model = ConsentPromptModel()

    func body(content: Content) -> some View {
        content
            .onAppear { if isPresented { begin() } }
            .onChange(of: isPresented) { presented in if presented { begin() } else { model.endIfNeverShown() } }
            .sheet(isPresented: Binding(get: { isPresented && model.bridge != nil }, set: { isPresented = $0 }),
                   onDismiss: { model.end() }) {
                if let bridge = model.bridge {
                    let handle: (ConsentBridgeEvent) -> Void = { event in
                        model.allowsDismissal = bridge.allowsInteractiveDismissal
                        onEvent(event)
                        // An error stays on screen with its Close button; every other end closes the sheet.
                        if case .uiFinished(let reason) = event, !reason.keepsErrorOnScreen { isPresented = false }
                    }
                    (model.prewarmed.map { ConsentWebView(prewarmed: $0, onEvent: handle, onFinish: onFinish) }
                        ?? ConsentWebView(bridge: bridge, onEvent: handle, onFinish: onFinish))
                    .closing { isPresented = false }
                    .interactiveDismissDisabled(!model.allowsDismissal)
                    .ignoresSafeArea(edges: .bottom)
                    .onAppear { model.confirm() }
                }
            }
    }

    private func begin() {
        if !model.begin(makeBridge) { isPresented = false }
    }
}
#endif
