#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge
#if canImport(UIKit)
import UIKit
#endif

/// The app's one ``ConsentPrewarmer`` for `WKWebView`: call ``prewarm(configuration:store:trackingAuthorizer:)`` at
/// launch; `ConsentViewController` and `.consentPrompt` (WebCMPBridgeUI) take the pre-warmed bridge when they
/// present the same page (``take(matching:trackingAuthorizer:)``). The core decides when to pre-warm, what matches
/// and when to release; this glue creates the ``WKCMPWebView`` (with the configuration's fallback page registered),
/// keeps it where WebKit keeps pages running, invalidates released views, and forwards memory warnings.
///
/// On iOS WebKit counts a web view as visible — and runs its timers and animation frames at full rate — when it is
/// in a window and the app is not in the background; `isHidden` and `alpha` are not considered
/// (`PageClientImpl::isViewVisible()` in WebKit's `PageClientImplIOS.mm`). A view outside any window is throttled. So
/// the pre-warmed web view is added, hidden and without user interaction or accessibility, to the app's key window
/// when there is one; the consent UI then moves it into its own view. The ready timeout starts only when the UI
/// presents the page, so a page throttled anyway (no window yet) does not time out off-screen.
///
/// Pre-warming is for apps (it needs the app's windows): ``prewarm(configuration:store:trackingAuthorizer:)`` is
/// unavailable in app extensions; ``take(matching:trackingAuthorizer:)`` is available and finds nothing there.
@MainActor
public final class ConsentPrewarming {
    /// The shared instance.
    public static let shared = ConsentPrewarming()

    /// The core prewarmer (idle time 120 s).
    package let prewarmer = ConsentPrewarmer<WKCMPWebView>(release: { adapter in
        adapter.webView.removeFromSuperview()
        adapter.invalidate()
    })
    private var observer: (any NSObjectProtocol)?

    private init() {
        #if canImport(UIKit)
        observer = NotificationCenter.default.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main
        ) { _ in
            MainActor.assumeIsolated { ConsentPrewarming.shared.prewarmer.didReceiveMemoryWarning() }
        }
        #endif
    }

    /// Loads the CMP page off-screen when ``ConsentBridge/needsConsentUI(store:expiry:now:)`` says consent is
    /// needed (and the configuration does not ask for App Tracking Transparency before the CMP). Returns whether a
    /// pre-warmed bridge is held. Apps only (see the type's notes).
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @discardableResult
    public func prewarm(
        configuration: BridgeConfiguration, store: ConsentStore, trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) -> Bool {
        prewarmer.prewarm(configuration: configuration, store: store, trackingAuthorizer: trackingAuthorizer) {
            let adapter = WKCMPWebView.forConsentUI(fallback: configuration.fallback)
            Self.keepRunning(adapter.webView)
            return adapter
        }
    }

    /// Hands over the pre-warmed bridge and web view when they were made for the same page and tracking client
    /// (then the caller owns them); `nil` otherwise.
    public func take(
        matching configuration: BridgeConfiguration, trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) -> ConsentPrewarmer<WKCMPWebView>.Prewarmed? {
        prewarmer.take(matching: configuration, trackingAuthorizer: trackingAuthorizer)
    }

    /// Hands over the pre-warmed bridge and web view, whatever they were made for. Prefer
    /// ``take(matching:trackingAuthorizer:)``.
    public func take() -> ConsentPrewarmer<WKCMPWebView>.Prewarmed? {
        prewarmer.take()
    }

    /// Puts `webView` into the key window, hidden: WebKit then treats the page as visible (not throttled).
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    private static func keepRunning(_ webView: WKWebView) {
        #if canImport(UIKit)
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        let windows = scenes.filter { $0.activationState == .foregroundActive }.flatMap(\.windows)
        guard let window = windows.first(where: \.isKeyWindow) ?? windows.first else { return }
        webView.frame = window.bounds
        webView.isHidden = true
        webView.isUserInteractionEnabled = false
        webView.accessibilityElementsHidden = true
        window.insertSubview(webView, at: 0)
        #endif
    }
}
#endif
