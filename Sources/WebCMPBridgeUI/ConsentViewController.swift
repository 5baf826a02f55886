#if canImport(UIKit) && canImport(WebKit)
import UIKit
import WebKit
import WebCMPBridge

/// Hosts the CMP web view: loading indicator, error message, dismissal when the page is finished, dark mode and
/// Dynamic Type for its own chrome. All decisions are the bridge's; this controller only shows them.
@MainActor
public final class ConsentViewController: UIViewController, ConsentBridgeDelegate {
    /// The bridge driving the page.
    public let bridge: ConsentBridge
    /// Called for every bridge event (after the controller reacted to it).
    public var onEvent: ((ConsentBridgeEvent) -> Void)?
    /// Whether the controller dismisses itself when the page is finished (SwiftUI hosts manage that themselves).
    public var dismissesItself = true

    private let presentation: ConsentPresentation
    private let adapter = WKCMPWebView()
    private let spinner = UIActivityIndicatorView(style: .large)
    private let messageLabel = UILabel()

    /// Creates the controller; present it with ``present(from:animated:)`` to get double-presentation safety.
    public init(bridge: ConsentBridge, presentation: ConsentPresentation = .sheet(.twoThirds)) {
        self.bridge = bridge
        self.presentation = presentation
        super.init(nibName: nil, bundle: nil)
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
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

    public override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        let webView = adapter.webView
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
        ])
        spinner.startAnimating()
        bridge.delegate = self
        bridge.attach(to: adapter)
        bridge.start()
    }

    public override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        if isBeingDismissed || presentingViewController == nil {
            bridge.invalidate()
            adapter.invalidate()
            PresentationGate.shared.end()
        }
    }

    /// Presents the controller from `presenter` unless a CMP is already being presented or `presenter` is busy
    /// presenting something else. Returns whether it presented.
    @discardableResult
    public func present(from presenter: UIViewController, animated: Bool = true) -> Bool {
        guard presenter.presentedViewController == nil, !presenter.isBeingDismissed, PresentationGate.shared.begin() else {
            return false
        }
        presenter.present(self, animated: animated)
        return true
    }

    // MARK: ConsentBridgeDelegate

    public func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
        switch event {
        case .uiReady:
            spinner.stopAnimating()
        case .error(let error) where error.code == "timeout" || error.code == "loadFailed" || error.code == "webContentTerminated":
            spinner.stopAnimating()
            messageLabel.text = String(describing: error)
            messageLabel.isHidden = false
        default:
            break
        }
        onEvent?(event)
        if event.endsPresentation, dismissesItself, presentingViewController != nil {
            dismiss(animated: true)
        }
    }
}
#endif
