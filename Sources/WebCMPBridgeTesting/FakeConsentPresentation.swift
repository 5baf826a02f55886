import Foundation
import WebCMPBridge

/// A consent UI for tests: what `ConsentViewController`, `.consentPrompt` and `ConsentWebView` (WebCMPBridgeUI) report
/// about their presentation, as calls a test makes, over the same core session that owns their run. Drive the page
/// with ``webView`` and time with ``ManualScheduler``.
///
/// ```swift
/// let clock = ManualScheduler()
/// let bridge = ConsentBridge(configuration: configuration, store: store, scheduler: clock)
/// let ui = FakeConsentPresentation(bridge: bridge)
/// ui.onFinish = { outcome in startSDKs(outcome) }
/// ui.present()          // present(from:)
/// ui.shown()            // the presentation's completion / viewDidAppear
/// ui.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
/// ui.dismissed()        // the sheet is gone; onFinish comes once the run has ended
/// ```
///
/// The outcome reaches ``onFinish`` once, after the run has ended (an App Tracking Transparency prompt included) and
/// the UI is gone, whether or not the test keeps a reference to this value.
@MainActor
public final class FakeConsentPresentation {
    /// The page's web view.
    public var webView: FakeWebView { session.webView }
    /// The bridge of the run (a fresh one when the bridge given was released before ``present()``).
    public var bridge: ConsentBridge { session.bridge }
    /// Called once with the run's outcome, after the run has ended and the UI is gone.
    public var onFinish: ((ConsentOutcome) -> Void)? {
        get { session.onFinish }
        set { session.onFinish = newValue }
    }
    /// How many times the UI was asked to close itself (the page finished, or Close after an error).
    public private(set) var dismissalRequests = 0
    /// Whether the UI shows an error with its Close button.
    public var showsError: Bool { session.showsError }
    /// Whether the outcome was delivered.
    public var hasFinished: Bool { session.hasDelivered }

    private let session: ConsentSession<FakeWebView>

    /// A UI that presents `bridge` in `webView`. `embedded`: shown inside an app's own screen (`ConsentWebView`
    /// outside `.consentPrompt`): nothing closes it, and Close under an error ends it where it is.
    public init(bridge: ConsentBridge, webView: FakeWebView = FakeWebView(), embedded: Bool = false) {
        session = ConsentSession(
            bridge: bridge, webView: webView, closesItself: !embedded, endsOnClose: embedded,
            gate: PresentationGate(), makeWebView: { FakeWebView() })
        session.onDismiss = { [weak self] in self?.dismissalRequests += 1 }
    }

    /// The app presents the UI (`present(from:)`, or `.consentPrompt`'s binding set): the run starts. Returns `false`
    /// when it was presented already (a double tap leaves the first presentation as it is).
    @discardableResult
    public func present() -> Bool {
        guard session.requestPresentation(allowed: true) else { return false }
        session.start()
        return true
    }

    /// The app presents the same UI again while it is presenting or shown (a double tap): nothing changes.
    @discardableResult
    public func presentAgain() -> Bool {
        session.requestPresentation(allowed: false)
    }

    /// An embedded UI appears in the app's own screen: the run starts and its presentation begins.
    public func embed() {
        session.start()
        session.report(.shown)
    }

    /// The UI is on screen (the presentation's completion, `viewDidAppear`, SwiftUI's `onAppear`).
    public func shown() { session.report(.shown) }
    /// Another screen covers the UI (a push, a tab switch, a full-screen presentation over it): the run goes on.
    public func covered() { session.report(.covered) }
    /// The covered UI shows again.
    public func uncovered() { session.report(.uncovered) }
    /// The UI was dismissed (a swipe, the page's own end, the sheet's `onDismiss`).
    public func dismissed() { session.report(.dismissed) }
    /// The UI was removed from its parent (an embedded screen popped, SwiftUI dismantling it).
    public func removed() { session.report(.removedFromParent) }
    /// The screen was torn down without a dismissal (the window's root replaced, the scene disconnected).
    public func tornDown() { session.report(.tornDown) }
    /// The person taps Close under an error.
    public func closeTapped() { session.report(.closeRequested) }
}
