#if canImport(UIKit) && canImport(WebKit)
import UIKit
import WebKit
import WebCMPBridge
import WebCMPBridgeWebKit

/// Hosts the CMP web view: loading indicator, error message, dismissal when the page is finished, dark mode and
/// Dynamic Type for its own chrome. All decisions are the core's; this controller only reports what UIKit says and
/// shows what it is told.
///
/// - Its run is held by the core's `ConsentSession`, not by the controller: the session owns the bridge, the run, the
///   presentation gate and the delivery of the ``ConsentOutcome`` to ``onFinish``, and keeps itself alive until it
///   delivered. ``onFinish`` is called once, after the run has ended (an App Tracking Transparency prompt included:
///   the run ends after it is answered) **and** the UI is gone, whether or not the app keeps a reference to the
///   controller, and when SwiftUI releases its sheet first.
/// - Until the user made a choice it is modal (`isModalInPresentation`), as ``BridgeConfiguration/interactiveDismissal``
///   says; when a dismissal is allowed and the user swipes the sheet away, the run ends with
///   ``UIFinishReason/dismissedByUser``. It takes the presentation controller's delegate only when UIKit presents the
///   controller itself: inside a SwiftUI sheet, `presentationController` is the sheet's, whose delegate is SwiftUI's.
/// - It only reports what UIKit says happened to it — will present, refused, shown, covered, uncovered, removed from
///   its parent, dismissed, torn down — to its session, which decides what the bridge, the presentation gate and
///   ``onFinish`` get. A controller that disappears without being dismissed or removed from its parent while its
///   window still holds it (a tab switch, a screen pushed over it: embedded uses) is **covered**, not finished: the run
///   goes on and the person can come back to it. A real dismissal (`isBeingDismissed` of itself or an ancestor, the
///   presentation controller's `presentationControllerDidDismiss(_:)`), a removal from its parent (`isMovingFromParent`
///   of itself or an ancestor, `didMove(toParent: nil)`), or a screen torn down without either (its window's root view
///   controller replaced, its window or scene gone: `UIScene.didDisconnectNotification`) ends it.
/// - A second ``present(from:animated:)`` while it is presenting or shown (a double tap) returns `false` and leaves
///   the first presentation as it is.
/// - ``onFinish`` is called once the run is over **and** the controller is gone from the screen; a page that finishes
///   while the presentation animation is still running (or while the controller is covered) is dismissed once it
///   shows (UIKit ignores a dismissal during a transition).
/// - A presentation that never shows (refused by ``present(from:animated:)``) is released: its bridge is invalidated
///   and its web view (a pre-warmed one leaves the window it waited in) released; make a new controller to try
///   again. ``onFinish`` is not called.
/// - A pre-warmed bridge (``init(prewarmed:presentation:)``) released by ``ConsentPrewarming`` before the controller
///   showed it (its handover time passed) is replaced by a fresh bridge for the same request when the view loads:
///   ``bridge`` is then the fresh one.
/// - Its own texts (loading, errors, the close button, accessibility labels) come from the target's String Catalog in
///   13 languages, in the CMP page's language when ``BridgeConfiguration/language`` is set, otherwise in the app's
///   preferred localization (``ConsentChromeText``). Errors show ``ConsentBridgeError/userFacingText``, never the
///   diagnostic text, and stay on screen with a Close button until the person closes them.
/// - Accessibility: the view is the modal accessibility container; VoiceOver moves to the web content when the page
///   is ready; the spinner and the button have labels and hints; its text follows Dynamic Type; presentation does not
///   animate with Reduce Motion on.
@MainActor
public final class ConsentViewController: UIViewController, UIAdaptivePresentationControllerDelegate {
    /// The bridge driving the page (a fresh one when a released pre-warm was replaced; see the type's notes).
    public var bridge: ConsentBridge { session.bridge }
    /// Called for every bridge event (after the controller reacted to it).
    public var onEvent: ((ConsentBridgeEvent) -> Void)?
    /// Called once with the run's outcome, after the run has ended and the UI is gone: after the App Tracking
    /// Transparency prompt was answered, when the app enabled it and the prompt was due.
    public var onFinish: ((ConsentOutcome) -> Void)? {
        get { session.onFinish }
        set { session.onFinish = newValue }
    }
    /// Whether the controller dismisses itself when the page is finished (SwiftUI hosts manage that themselves).
    public var dismissesItself = true {
        didSet { session.closesItself = dismissesItself }
    }

    /// The run's owner.
    let session: ConsentSession<WKCMPWebView>
    private let presentation: ConsentPresentation
    private var adapter: WKCMPWebView { session.webView }
    private let spinner = UIActivityIndicatorView(style: .large)
    private let messageLabel = UILabel()
    private let closeButton = UIButton(type: .system)
    private let chrome: ConsentChrome
    /// Closes the UI when the person taps Close after an error: dismisses this controller, or (in SwiftUI) sets the
    /// sheet's binding.
    var onCloseRequest: (() -> Void)?
    /// The window the view was last shown in, to tell a covering from a screen torn down.
    private weak var formerWindow: UIWindow?
    private var sceneObservation: SceneDisconnection?

    /// Creates the controller; present it with ``present(from:animated:)`` to get double-presentation safety.
    public convenience init(bridge: ConsentBridge, presentation: ConsentPresentation = .sheet(.twoThirds)) {
        self.init(
            session: Self.makeSession(
                bridge: bridge, webView: WKCMPWebView.forConsentUI(fallback: bridge.configuration.fallback)),
            presentation: presentation)
    }

    /// Creates the controller around a pre-warmed bridge and web view (``ConsentPrewarming/take()``): the page is
    /// already loading or loaded off-screen, so presenting shows it without a new load. The events reported before
    /// the presentation are delivered to ``onEvent`` first.
    public convenience init(
        prewarmed: PrewarmedConsent, presentation: ConsentPresentation = .sheet(.twoThirds)
    ) {
        self.init(
            session: Self.makeSession(
                bridge: prewarmed.bridge, webView: prewarmed.webView,
                eventsBeforePresentation: prewarmed.handover.eventsBeforePresentation),
            presentation: presentation)
    }

    /// The session of a consent UI with the kit's `WKWebView` adapter: a fresh web view for a released pre-warm, the
    /// adapter invalidated when the run is over, and a released one taken out of the window it waited in.
    static func makeSession(
        bridge: ConsentBridge, webView: WKCMPWebView, eventsBeforePresentation: [ConsentBridgeEvent] = [],
        closesItself: Bool = true, endsOnClose: Bool = false
    ) -> ConsentSession<WKCMPWebView> {
        let fallback = bridge.configuration.fallback
        return ConsentSession(
            bridge: bridge, webView: webView, eventsBeforePresentation: eventsBeforePresentation,
            closesItself: closesItself, endsOnClose: endsOnClose, gate: PresentationGate.shared,
            makeWebView: { WKCMPWebView.forConsentUI(fallback: fallback) },
            runEnded: { adapter in adapter.invalidate() },
            release: { adapter in
                adapter.webView.removeFromSuperview()
                adapter.invalidate()
            })
    }

    /// Creates the controller around `session` (`.consentPrompt`'s sheet and ``ConsentWebView``).
    init(session: ConsentSession<WKCMPWebView>, presentation: ConsentPresentation) {
        self.session = session
        self.presentation = presentation
        chrome = ConsentChrome(configuration: session.bridge.configuration)
        super.init(nibName: nil, bundle: nil)
        session.closesItself = dismissesItself
        session.onDismiss = { [weak self] in self?.dismissUI() }
        switch presentation {
        case .fullScreen:
            modalPresentationStyle = .fullScreen
        case .sheet(let height):
            modalPresentationStyle = .pageSheet
            if #available(iOS 16.0, *), let sheet = sheetPresentationController {
                let fraction = height.fraction
                sheet.detents = [.custom { context in context.maximumDetentValue * CGFloat(fraction) }]
                sheet.prefersGrabberVisible = true
            } else if let sheet = sheetPresentationController {  // iOS 15: the system detents only
                sheet.detents = height == .full ? [.large()] : [.medium(), .large()]
            }
        }
        isModalInPresentation = !session.bridge.allowsInteractiveDismissal
    }

    /// A controller released while its session is still presenting or shown (its screen went away without a
    /// dismissal UIKit reported) ends its presentation; one never presented releases its run. The session itself
    /// lives on until it delivered.
    deinit {
        Task { @MainActor [session] in session.report(.tornDown) }
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        // Started before the web view is read: a released pre-warm is replaced here by a fresh bridge and web view.
        session.start()
        let webView = adapter.webView
        webView.removeFromSuperview()   // a pre-warmed view waits in the key window, hidden (ConsentPrewarming)
        webView.isHidden = false
        webView.isUserInteractionEnabled = true
        webView.accessibilityElementsHidden = false
        webView.translatesAutoresizingMaskIntoConstraints = false
        webView.isOpaque = false
        webView.backgroundColor = .systemBackground
        view.addSubview(webView)
        spinner.translatesAutoresizingMaskIntoConstraints = false
        spinner.hidesWhenStopped = true
        view.addSubview(spinner)
        messageLabel.translatesAutoresizingMaskIntoConstraints = false
        messageLabel.font = UIFont.preferredFont(forTextStyle: .body)
        messageLabel.adjustsFontForContentSizeCategory = true
        messageLabel.textColor = .secondaryLabel
        messageLabel.numberOfLines = 0
        messageLabel.textAlignment = .center
        messageLabel.isHidden = true
        view.addSubview(messageLabel)
        closeButton.translatesAutoresizingMaskIntoConstraints = false
        closeButton.setTitle(chrome.text(.close), for: .normal)
        closeButton.titleLabel?.font = UIFont.preferredFont(forTextStyle: .headline)
        closeButton.titleLabel?.adjustsFontForContentSizeCategory = true
        closeButton.accessibilityHint = chrome.text(.closeHint)
        closeButton.isHidden = true
        closeButton.addAction(UIAction { [weak self] _ in self?.closeAfterError() }, for: .primaryActionTriggered)
        view.addSubview(closeButton)
        spinner.accessibilityLabel = chrome.text(.loading)
        view.accessibilityViewIsModal = true
        view.accessibilityLabel = chrome.text(.sheet)
        NSLayoutConstraint.activate([
            webView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            webView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            webView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            webView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            spinner.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            spinner.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            messageLabel.centerYAnchor.constraint(equalTo: view.centerYAnchor),
            messageLabel.leadingAnchor.constraint(equalTo: view.readableContentGuide.leadingAnchor),
            messageLabel.trailingAnchor.constraint(equalTo: view.readableContentGuide.trailingAnchor),
            closeButton.topAnchor.constraint(equalTo: messageLabel.bottomAnchor, constant: 16),
            closeButton.centerXAnchor.constraint(equalTo: view.centerXAnchor),
        ])
        spinner.startAnimating()
        // A pre-warmed page may have become ready, or its run may have ended, before anyone listened: read the
        // state, not only the events.
        switch bridge.state {
        case .ready: pageBecameReady()
        case .finished, .invalidated: spinner.stopAnimating()
        case .idle, .loading: break
        }
        // From now on the session hands over every event, those it kept so far first.
        session.onEvent = { [weak self] event in self?.show(event) }
    }

    public override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        // Only a controller UIKit presents itself; inside a SwiftUI sheet this is the sheet's presentation
        // controller, and replacing SwiftUI's delegate would leave `isPresented` true after a swipe.
        if let controller = presentationController, controller.presentedViewController === self {
            controller.delegate = self
        }
    }

    public override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        formerWindow = view.window
        if let scene = view.window?.windowScene, sceneObservation?.scene !== scene {
            sceneObservation = SceneDisconnection(scene: scene) { [session] in session.report(.tornDown) }
        }
        report(.shown)
    }

    public override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        // `isBeingDismissed` and `isMovingFromParent` are meaningful inside viewWillDisappear/viewDidDisappear; an
        // ancestor's count too (inside a SwiftUI sheet the presented controller is the sheet's hosting controller).
        // Anything else is a covering: a tab switch, a push, a full-screen presentation over it.
        let chain = sequence(first: self as UIViewController, next: \.parent)
        if chain.contains(where: \.isBeingDismissed) {
            report(.dismissed)
        } else if chain.contains(where: \.isMovingFromParent) {
            report(.removedFromParent)
        } else if screenIsGone {
            report(.tornDown)
        } else {
            report(.covered)
        }
    }

    /// Whether the screen that showed this controller went away without dismissing it: the window it was shown in is
    /// gone or has no scene any more, or that window's root view controller is no longer the root of this
    /// controller's chain of parents and presenters (the app replaced `rootViewController`). A covering (a tab
    /// switch, a push, a presentation over it) keeps the chain under the same root.
    private var screenIsGone: Bool {
        guard let window = formerWindow, window.windowScene != nil else { return true }
        var root: UIViewController = self
        while let next = root.parent ?? root.presentingViewController { root = next }
        return window.rootViewController !== root
    }

    public override func didMove(toParent parent: UIViewController?) {
        super.didMove(toParent: parent)
        if parent == nil { report(.removedFromParent) }
    }

    /// Presents the controller from `presenter` unless a CMP is already being presented, or UIKit's documented
    /// preconditions do not hold: `presenter` in a window, not presenting, not being presented or dismissed, no
    /// transition under way (`transitionCoordinator`), and this controller neither presented nor embedded (UIKit
    /// raises for those). Returns whether UIKit was asked to present it.
    ///
    /// UIKit does not raise when it refuses a presentation for other reasons (it logs "whose view is not in the window
    /// hierarchy" or "which is already presenting"), and when it shows the controller is told only by the completion
    /// handler ("called after the viewDidAppear(_:) method is called on the presented view controller"). So the result
    /// is decided before the call; the presentation is confirmed by the completion or `viewDidAppear`; and the
    /// process-wide gate is released on every path — a refused presentation, the dismissal, this controller's
    /// deallocation, or a confirmation that never comes (``PresentationGate``). A refused controller is released:
    /// make a new one to try again.
    @discardableResult
    public func present(from presenter: UIViewController, animated: Bool = true) -> Bool {
        let allowed = presenter.viewIfLoaded?.window != nil && presenter.presentedViewController == nil
            && !presenter.isBeingDismissed && !presenter.isBeingPresented && presenter.transitionCoordinator == nil
            && presentingViewController == nil && parent == nil
        // The session decides: a second request while this one presents or shows changes nothing; a refused one
        // (a precondition failed, another consent UI holds the gate) is released.
        guard session.requestPresentation(allowed: allowed) else { return false }
        presenter.present(self, animated: animated && ConsentChrome.animates) { [session] in
            session.report(.shown)
        }
        return true
    }

    /// Tells the session what UIKit reported.
    private func report(_ input: ConsentPresentationLifecycle.Input) {
        session.report(input)
    }

    /// The session's dismissal: the SwiftUI host's close, or UIKit's when UIKit presented this controller.
    private func dismissUI() {
        if let onCloseRequest {
            onCloseRequest()
        } else if presentingViewController != nil {
            dismiss(animated: ConsentChrome.animates)
        }
    }

    /// Tells the controller that its SwiftUI host removed it (`dismantleUIViewController`).
    func hostRemoved() {
        report(.removedFromParent)
    }

    // MARK: UIAdaptivePresentationControllerDelegate

    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
        report(.dismissed)
    }

    // MARK: What the session hands over

    /// Shows what the bridge reported (the session reports a finished page to itself afterwards).
    private func show(_ event: ConsentBridgeEvent) {
        switch event {
        case .uiReady:
            pageBecameReady()
        case .failed(let error):
            showError(error)
        default:
            break
        }
        isModalInPresentation = !bridge.allowsInteractiveDismissal
        onEvent?(event)
    }

    private func pageBecameReady() {
        spinner.stopAnimating()
        // VoiceOver moves to the CMP's content.
        UIAccessibility.post(notification: .screenChanged, argument: adapter.webView)
    }

    private func showError(_ error: ConsentBridgeError) {
        spinner.stopAnimating()
        adapter.webView.isHidden = true
        messageLabel.text = chrome.text(error.userFacingText)
        messageLabel.isHidden = false
        closeButton.isHidden = false
        UIAccessibility.post(notification: .screenChanged, argument: messageLabel)
    }

    private func closeAfterError() {
        report(.closeRequested)
    }
}
#endif
