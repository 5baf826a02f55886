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
    ///   is up, `isPresented` is set back to false. A request while the previous sheet is still closing is presented
    ///   once that sheet is gone (its `onDismiss`), while `isPresented` is still true.
    /// - What a pre-warmed bridge reports between being taken and its sheet's controller is handed to that controller
    ///   (a page that became ready, or a run that ended, in that gap is shown as such); a pre-warmed bridge whose
    ///   sheet never appears is released.
    /// - The sheet is modal until the user made a choice (``BridgeConfiguration/interactiveDismissal``), re-evaluated
    ///   on every bridge event; a dismissal without a choice ends the run with ``UIFinishReason/dismissedByUser``.
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

/// One presentation's bridge and gate token; the core's `ConsentPromptRequests` decides when a presentation begins
/// and `ConsentPresentationLifecycle` what the bridge and the gate get.
@MainActor
final class ConsentPromptModel: ObservableObject, ConsentBridgeDelegate {
    @Published private(set) var bridge: ConsentBridge?
    /// The pre-warmed bridge taken for this presentation, with what it reported until its controller took over.
    @Published private(set) var prewarmed: PrewarmedConsent?
    @Published var allowsDismissal = false
    @Published private(set) var requests = ConsentPromptRequests()
    private var lifecycle = ConsentPresentationLifecycle(closesItself: false)
    private var token: PresentationGate.Token?

    /// Tells the requests value what happened; returns what to do.
    func report(_ fact: ConsentPromptRequests.Fact) -> [ConsentPromptRequests.Action] {
        requests.handle(fact)
    }

    /// Starts a presentation; `false` when another consent UI is up. A pre-warmed bridge is used only when it was
    /// made for the same request as the one `makeBridge` returns (which is then never attached).
    func begin(_ makeBridge: () -> ConsentBridge) -> Bool {
        guard bridge == nil, let token = PresentationGate.shared.begin(owner: self) else { return false }
        self.token = token
        lifecycle = ConsentPresentationLifecycle(closesItself: false)
        perform(lifecycle.handle(.willPresent))
        let made = makeBridge()
        prewarmed = ConsentPrewarming.shared.take(
            matching: made.configuration, store: made.store, trackingAuthorizer: made.trackingAuthorizer)
        let bridge = prewarmed?.bridge ?? made
        // Until the sheet's controller takes over: nothing the bridge reports in between is lost.
        bridge.delegate = self
        allowsDismissal = bridge.allowsInteractiveDismissal
        self.bridge = bridge
        return true
    }

    /// The sheet's content appeared.
    func confirm() {
        perform(lifecycle.handle(.shown))
    }

    /// The request was withdrawn: a sheet that never appeared is released here (SwiftUI calls no `onDismiss` for
    /// it). Returns whether the presentation is over.
    func withdraw() -> Bool {
        guard lifecycle.phase == .presenting else { return false }
        perform(lifecycle.handle(.presentationRefused))
        clear()
        return true
    }

    /// The sheet is gone (`onDismiss`).
    func sheetGone() {
        perform(lifecycle.handle(.dismissed))
        clear()
    }

    func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
        guard bridge === self.bridge else { return }
        prewarmed?.handover.eventsBeforePresentation.append(event)
        allowsDismissal = bridge.allowsInteractiveDismissal
    }

    private func perform(_ actions: [ConsentPresentationLifecycle.Action]) {
        for action in actions {
            if let bridge, bridge.perform(action) { continue }
            switch action {
            case .beginPresentation, .endPresentation, .coverPresentation, .uncoverPresentation:
                break   // the bridge's part (performed above; no bridge: nothing to tell)
            case .confirmGate: PresentationGate.shared.confirm(token)
            case .releaseGate:
                PresentationGate.shared.end(token)
                token = nil
            case .release:
                bridge?.invalidate()
                if let adapter = prewarmed?.webView {
                    adapter.webView.removeFromSuperview()
                    adapter.invalidate()
                }
            case .dismiss, .deliverOutcome:
                break   // the sheet's controller closes it and delivers the outcome
            }
        }
    }

    private func clear() {
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
            .onAppear { if isPresented { report(.requested) } }
            .onChange(of: isPresented) { presented in report(presented ? .requested : .withdrawn) }
            // A swipe sets the binding before the sheet is gone: withdrawn first, so that its onDismiss never
            // finds it still requested.
            .sheet(isPresented: Binding(get: { model.requests.showsSheet }, set: { shown in
                       guard !shown else { return }
                       isPresented = false
                       report(.withdrawn)
                   }),
                   onDismiss: {
                       model.sheetGone()
                       report(.sheetGone)
                   }) {
                ConsentPromptSheet(
                    model: model, onEvent: onEvent, onFinish: onFinish, close: { isPresented = false })
            }
    }

    private func report(_ fact: ConsentPromptRequests.Fact) {
        for action in model.report(fact) {
            switch action {
            case .begin: report(model.begin(makeBridge) ? .began : .refused)
            case .withdraw: if model.withdraw() { report(.sheetGone) }
            case .clearRequest: isPresented = false
            }
        }
    }
}

/// The sheet's content: observes the model, so that `interactiveDismissDisabled` follows the bridge on every event.
private struct ConsentPromptSheet: View {
    @ObservedObject var model: ConsentPromptModel
    let onEvent: (ConsentBridgeEvent) -> Void
    let onFinish: (ConsentOutcome) -> Void
    let close: () -> Void

    var body: some View {
        if let bridge = model.bridge {
            let handle: (ConsentBridgeEvent) -> Void = { [model] event in
                model.allowsDismissal = bridge.allowsInteractiveDismissal
                onEvent(event)
                // An error stays on screen with its Close button; every other end closes the sheet.
                if case .uiFinished(let reason) = event, !reason.keepsErrorOnScreen { close() }
            }
            (model.prewarmed.map { ConsentWebView(prewarmed: $0, onEvent: handle, onFinish: onFinish) }
                ?? ConsentWebView(bridge: bridge, onEvent: handle, onFinish: onFinish))
            .closing(close)
            .interactiveDismissDisabled(!model.allowsDismissal)
            .ignoresSafeArea(edges: .bottom)
            .onAppear { model.confirm() }
        }
    }
}
#endif
