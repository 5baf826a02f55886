#if canImport(SwiftUI) && canImport(UIKit) && canImport(WebKit)
import SwiftUI
import WebCMPBridge
import WebCMPBridgeWebKit

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
    /// - `onFinish` receives the ``ConsentOutcome`` once, after the run has ended and the sheet is gone: after the App
    ///   Tracking Transparency prompt was answered, when the app enabled it and the prompt was due. The run is held by
    ///   the core's `ConsentSession`, which outlives the sheet until it delivered: SwiftUI may tear the sheet down
    ///   before the prompt is answered.
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

/// The presentation's ``ConsentSession`` (the core's owner of the run: bridge, gate token, outcome); the core's
/// `ConsentPromptRequests` decides when a presentation begins, the session what the bridge and the gate get.
@MainActor
final class ConsentPromptModel: ObservableObject {
    @Published private(set) var session: ConsentSession<WKCMPWebView>?
    @Published var allowsDismissal = false
    @Published private(set) var requests = ConsentPromptRequests()

    /// Tells the requests value what happened; returns what to do.
    func report(_ input: ConsentPromptRequests.Input) -> [ConsentPromptRequests.Effect] {
        requests.handle(input)
    }

    /// Starts a presentation; `false` when another consent UI is up. A pre-warmed bridge is used only when it was
    /// made for the same request as the one `makeBridge` returns (which is then never attached).
    func begin(_ makeBridge: () -> ConsentBridge) -> Bool {
        // Asked before a bridge is made or a pre-warm taken: a refused request must not consume the pre-warm.
        guard session == nil, !PresentationGate.shared.isPresenting else { return false }
        let made = makeBridge()
        let prewarmed = ConsentPrewarming.shared.take(
            matching: made.configuration, store: made.store, trackingAuthorizer: made.trackingAuthorizer)
        let session = ConsentViewController.makeSession(
            bridge: prewarmed?.bridge ?? made,
            webView: prewarmed?.webView ?? WKCMPWebView.forConsentUI(fallback: made.configuration.fallback),
            eventsBeforePresentation: prewarmed?.handover.eventsBeforePresentation ?? [], closesItself: false)
        guard session.requestPresentation(allowed: true) else { return false }
        allowsDismissal = session.bridge.allowsInteractiveDismissal
        self.session = session
        return true
    }

    /// The sheet's content appeared.
    func confirm() {
        session?.report(.shown)
    }

    /// The request was withdrawn: a sheet that never appeared is released here (SwiftUI calls no `onDismiss` for
    /// it). Returns whether the presentation is over.
    func withdraw() -> Bool {
        guard let session, session.phase == .presenting else { return false }
        session.report(.presentationRefused)
        self.session = nil
        return true
    }

    /// The sheet is gone (`onDismiss`).
    func sheetGone() {
        session?.report(.dismissed)
        session = nil
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

    private func report(_ input: ConsentPromptRequests.Input) {
        for effect in model.report(input) {
            switch effect {
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
        if let session = model.session {
            let handle: (ConsentBridgeEvent) -> Void = { [model] event in
                model.allowsDismissal = session.bridge.allowsInteractiveDismissal
                onEvent(event)
                // An error stays on screen with its Close button; every other end closes the sheet.
                if case .uiFinished(let reason) = event, !reason.keepsErrorOnScreen { close() }
            }
            ConsentWebView(session: session, onEvent: handle, onFinish: onFinish)
                .closing(close)
                .interactiveDismissDisabled(!model.allowsDismissal)
                .ignoresSafeArea(edges: .bottom)
                .onAppear { model.confirm() }
        }
    }
}
#endif
