#if canImport(UIKit) && canImport(WebKit)
import UIKit
import WebKit
import WebCMPBridge
import WebCMPBridgeWebKit

/// Hosts the CMP web view: loading indicator, error message, dismissal when the page is finished, dark mode and
/// Dynamic Type for its own chrome. All decisions are the bridge's; this controller only shows them.
///
/// - It drives one run of the bridge (``ConsentBridge/run(in:)``) and delivers its ``ConsentOutcome`` to
///   ``onFinish`` once the UI is gone and a tracking request (if the app enabled one) has been answered.
/// - Until the user made a choice it is modal (`isModalInPresentation`), as ``BridgeConfiguration/interactiveDismissal``
///   says; when a dismissal is allowed and the user swipes the sheet away, the run ends with
///   ``UIFinishReason/dismissedByUser``. It takes the presentation controller's delegate only when UIKit presents the
///   controller itself: inside a SwiftUI sheet, `presentationController` is the sheet's, whose delegate is SwiftUI's.
/// - It only reports what UIKit says happened to it — will present, refused, shown, covered, uncovered, removed from
///   its parent, dismissed — to the core's `ConsentPresentationLifecycle`, which decides what the bridge, the
///   presentation gate and ``onFinish`` get. A controller that disappears without being dismissed or removed from its
///   parent (a tab switch, a screen pushed over it: embedded uses) is **covered**, not finished: the run goes on and
///   the person can come back to it. Only a real dismissal (`isBeingDismissed` of itself or an ancestor, the
///   presentation controller's `presentationControllerDidDismiss(_:)`) or a removal from its parent
///   (`isMovingFromParent` of itself or an ancestor, `didMove(toParent: nil)`) ends it.
/// - ``onFinish`` is called once the run is over **and** the controller is gone from the screen; a page that finishes
///   while the presentation animation is still running (or while the controller is covered) is dismissed once it
///   shows (UIKit ignores a dismissal during a transition).
/// - A presentation that never shows (refused by ``present(from:animated:)``) is released: its bridge is invalidated
///   and its web view (a pre-warmed one leaves the window it waited in) released; make a new controller to try
///   again. ``onFinish`` is not called.
/// - Its own texts (loading, errors, the close button, accessibility labels) come from the target's String Catalog in
///   13 languages, in the CMP page's language when ``BridgeConfiguration/language`` is set, otherwise in the app's
///   preferred localization (``ConsentChromeText``). Errors show ``ConsentBridgeError/userFacingText``, never the
///   diagnostic text, and stay on screen with a Close button until the person closes them.
/// - Accessibility: the view is the modal accessibility container; VoiceOver moves to the web content when the page
///   is ready; the spinner and the button have labels and hints; its text follows Dynamic Type; presentation does not
///   animate with Reduce Motion on.
@MainActor
public final class ConsentViewController: UIViewController, ConsentBridgeDelegate,
    UIAdaptivePresentationControllerDelegate
{
    /// The bridge driving the page.
    public let bridge: ConsentBridge
    /// Called for every bridge event (after the controller reacted to it).
    public var onEvent: ((ConsentBridgeEvent) -> Void)?
    /// Called once with the run's outcome, after the UI is gone (and after App Tracking Transparency when enabled).
    /// Bound by promise 1 of WebCMPBridge's article "The kit's promises over a session" (SessionPromises).
    public var onFinish: ((ConsentOutcome) -> Void)?
    /// Whether the controller dismisses itself when the page is finished (SwiftUI hosts manage that themselves).
    public var dismissesItself = true {
        didSet { lifecycle.closesItself = dismissesItself }
    }

    private let presentation: ConsentPresentation
    private let adapter: WKCMPWebView
    private let spinner = UIActivityIndicatorView(style: .large)
    private let messageLabel = UILabel()
    private let closeButton = UIButton(type: .system)
    private let chrome: ConsentChrome
    /// Closes the UI when the person taps Close after an error: dismisses this controller, or (in SwiftUI) sets the
    /// sheet's binding.
    var onCloseRequest: (() -> Void)?
    private var gateToken: PresentationGate.Token?
    private var lifecycle = ConsentPresentationLifecycle()
    private var eventsBeforePresentation: [ConsentBridgeEvent] = []
    private var outcome: ConsentOutcome?

    /// Creates the controller; present it with ``present(from:animated:)`` to get double-presentation safety.
    public convenience init(bridge: ConsentBridge, presentation: ConsentPresentation = .sheet(.twoThirds)) {
        self.init(
            bridge: bridge, adapter: WKCMPWebView.forConsentUI(fallback: bridge.configuration.fallback),
            presentation: presentation)
    }

    /// Creates the controller around a pre-warmed bridge and web view (``ConsentPrewarming/take()``): the page is
    /// already loading or loaded off-screen, so presenting shows it without a new load. The events reported before
    /// the presentation are delivered to ``onEvent`` first.
    public convenience init(
        prewarmed: PrewarmedConsent, presentation: ConsentPresentation = .sheet(.twoThirds)
    ) {
        self.init(bridge: prewarmed.bridge, adapter: prewarmed.webView, presentation: presentation)
        eventsBeforePresentation = prewarmed.handover.eventsBeforePresentation + eventsBeforePresentation
    }

    private init(bridge: ConsentBridge, adapter: WKCMPWebView, presentation: ConsentPresentation) {
        self.bridge = bridge
        self.presentation = presentation
        self.adapter = adapter
        chrome = ConsentChrome(configuration: bridge.configuration)
        super.init(nibName: nil, bundle: nil)
        // From now on: an event between taking a pre-warmed bridge and viewDidLoad is kept, not lost.
        bridge.delegate = self
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
        isModalInPresentation = !bridge.allowsInteractiveDismissal
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
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
        let early = eventsBeforePresentation
        eventsBeforePresentation = []
        for event in early { bridge(bridge, didReceive: event) }
        // A pre-warmed page may have become ready, or its run may have ended, before anyone listened: read the
        // state, not only the events.
        switch bridge.state {
        case .ready: pageBecameReady()
        case .finished, .invalidated: spinner.stopAnimating()
        case .idle, .loading: break
        }
        Task { @MainActor [weak self, bridge, adapter] in
            let outcome = await bridge.run(in: adapter)
            adapter.invalidate()
            self?.runEnded(outcome)
        }
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
        } else {
            report(.covered)
        }
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
        guard presenter.viewIfLoaded?.window != nil, presenter.presentedViewController == nil,
            !presenter.isBeingDismissed, !presenter.isBeingPresented, presenter.transitionCoordinator == nil,
            presentingViewController == nil, parent == nil, lifecycle.phase == .idle,
            let token = PresentationGate.shared.begin(owner: self)
        else {
            report(.presentationRefused)
            return false
        }
        gateToken = token
        report(.willPresent)
        presenter.present(self, animated: animated && ConsentChrome.animates) { [weak self] in
            self?.report(.shown)
        }
        return true
    }

    /// Tells the lifecycle what happened and does what it answers.
    private func report(_ fact: ConsentPresentationLifecycle.Fact) {
        for action in lifecycle.handle(fact) where !bridge.perform(action) {
            switch action {
            case .beginPresentation, .endPresentation, .coverPresentation, .uncoverPresentation:
                break   // the bridge's part, performed above
            case .confirmGate: PresentationGate.shared.confirm(gateToken)
            case .releaseGate:
                PresentationGate.shared.end(gateToken)
                gateToken = nil
            case .dismiss:
                if let onCloseRequest {
                    onCloseRequest()
                } else if presentingViewController != nil {
                    dismiss(animated: ConsentChrome.animates)
                }
            case .release:
                bridge.invalidate()
                adapter.webView.removeFromSuperview()
                adapter.invalidate()
            case .deliverOutcome:
                if let outcome { onFinish?(outcome) }
            }
        }
    }

    private func runEnded(_ outcome: ConsentOutcome) {
        self.outcome = outcome
        report(.runEnded)
    }

    /// Tells the controller that its SwiftUI host removed it (`dismantleUIViewController`).
    func hostRemoved() {
        report(.removedFromParent)
    }

    // MARK: UIAdaptivePresentationControllerDelegate

    public func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
        report(.dismissed)
    }

    // MARK: ConsentBridgeDelegate

    public func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
        guard isViewLoaded else { return eventsBeforePresentation.append(event) }
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
        // An error stays on screen (with Close) until the person closes it; any other end closes the UI.
        if case .uiFinished(let reason) = event {
            report(.pageFinished(closes: !(reason.keepsErrorOnScreen && !messageLabel.isHidden)))
        }
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
