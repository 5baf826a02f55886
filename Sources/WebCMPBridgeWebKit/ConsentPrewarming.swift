#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge
#if canImport(UIKit)
import UIKit
#endif

/// The app's one prewarmer for `WKWebView` (over the core's `ConsentPrewarmer`): call ``prewarm(configuration:store:trackingAuthorizer:)`` at
/// launch; `ConsentViewController` and `.consentPrompt` (WebCMPBridgeUI) take the pre-warmed bridge when they
/// present the same request (``take(matching:store:trackingAuthorizer:)``). The core decides when to pre-warm, what
/// matches, which window the view waits in (`PrewarmPlacement`), when to try again and when to release (also a taken
/// bridge whose presentation has not begun within the handover time: a `ConsentViewController` or `ConsentWebView`
/// that shows such a released pre-warm later starts a fresh bridge for the same request, never the dead page); this
/// glue creates the ``WKCMPWebView`` (with the configuration's fallback page
/// registered), reports the app's scenes and windows, puts the view into the chosen window, invalidates released
/// views, and forwards memory warnings and scene activations.
///
/// On iOS WebKit counts a web view as visible — and runs its timers and animation frames at full rate — when it is
/// in a window and the app is not in the background; `isHidden` and `alpha` are not considered
/// (`PageClientImpl::isViewVisible()` in WebKit's `PageClientImplIOS.mm`). A view outside any window is throttled. So
/// the pre-warmed web view is added, hidden and without user interaction or accessibility, to a window of a
/// foreground-active scene, else of a foreground-inactive one (at `application(_:didFinishLaunchingWithOptions:)` or
/// an `App`'s `init` no scene is active yet), the scene's key window first; with no such window yet it is placed when
/// a scene activates (`UIScene.didActivateNotification`, `UIScene.willEnterForegroundNotification`). The consent UI
/// then moves it into its own view. The ready timeout starts only when the UI presents the page, so a page throttled
/// anyway (no window yet) does not time out off-screen.
///
/// Pre-warming is for apps (it needs the app's windows): ``prewarm(configuration:store:trackingAuthorizer:)`` is
/// unavailable in app extensions; ``take(matching:store:trackingAuthorizer:)`` is available and finds nothing there.
@MainActor
public final class ConsentPrewarming {
    /// The shared instance.
    public static let shared = ConsentPrewarming()

    /// The core prewarmer (idle time 120 s, handover time 10 s).
    package let prewarmer = ConsentPrewarmer<WKCMPWebView>(
        release: { adapter in
            adapter.webView.removeFromSuperview()
            adapter.invalidate()
        },
        place: { adapter in ConsentPrewarming.shared.placeInWindow?(adapter.webView) ?? false })
    /// Puts a web view into the window the core chooses; set by ``prewarm(configuration:store:trackingAuthorizer:)``
    /// (the app's windows are not reachable from an app extension).
    private var placeInWindow: ((WKWebView) -> Bool)?
    private var observers: [any NSObjectProtocol] = []

    private init() {
        #if canImport(UIKit)
        let center = NotificationCenter.default
        observers.append(center.addObserver(
            forName: UIApplication.didReceiveMemoryWarningNotification, object: nil, queue: .main
        ) { _ in
            MainActor.assumeIsolated { ConsentPrewarming.shared.prewarmer.didReceiveMemoryWarning() }
        })
        for name in [UIScene.didActivateNotification, UIScene.willEnterForegroundNotification] {
            observers.append(center.addObserver(forName: name, object: nil, queue: .main) { _ in
                MainActor.assumeIsolated { ConsentPrewarming.shared.prewarmer.sceneActivated() }
            })
        }
        #endif
    }

    /// Loads the CMP page off-screen when ``ConsentBridge/needsConsentUI(store:expiry:now:migration:)`` says consent
    /// is needed, read with the configuration's expiry and migration (and the configuration does not ask for App
    /// Tracking Transparency before the CMP). Returns whether a pre-warmed bridge is held. A page pre-warmed off-screen
    /// does not hold the consent gate until a UI shows it (promise 2 of "The kit's promises over a session"). Apps
    /// only (see the type's notes).
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    @discardableResult
    public func prewarm(
        configuration: BridgeConfiguration, store: ConsentStore, trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) -> Bool {
        placeInWindow = { Self.keepRunning($0) }
        return prewarmer.prewarm(
            configuration: configuration, store: store, trackingAuthorizer: trackingAuthorizer
        ) {
            WKCMPWebView.forConsentUI(fallback: configuration.fallback)
        }
    }

    /// Hands over the pre-warmed bridge and web view when they were made for the same request — the same store,
    /// page, commit rules and tracking client (then the caller owns them and presents the bridge within the
    /// prewarmer's handover time, or it is released); `nil` otherwise.
    public func take(
        matching configuration: BridgeConfiguration, store: ConsentStore,
        trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) -> PrewarmedConsent? {
        prewarmer.take(matching: configuration, store: store, trackingAuthorizer: trackingAuthorizer)
            .map(PrewarmedConsent.init)
    }

    /// Hands over the pre-warmed bridge and web view, whatever they were made for. Prefer
    /// ``take(matching:store:trackingAuthorizer:)``.
    public func take() -> PrewarmedConsent? {
        prewarmer.take().map(PrewarmedConsent.init)
    }

    /// Puts `webView`, hidden, into the window `PrewarmPlacement` chooses among the app's scenes: WebKit then treats
    /// the page as visible (not throttled). `false` when there is no such window yet.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    private static func keepRunning(_ webView: WKWebView) -> Bool {
        #if canImport(UIKit)
        let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
        let reported = scenes.map { scene in
            PrewarmPlacement.Scene(placementState(scene.activationState), windowIsKey: scene.windows.map(\.isKeyWindow))
        }
        guard let choice = PrewarmPlacement.window(in: reported) else { return false }
        let window = scenes[choice.scene].windows[choice.window]
        webView.frame = window.bounds
        webView.isHidden = true
        webView.isUserInteractionEnabled = false
        webView.accessibilityElementsHidden = true
        window.insertSubview(webView, at: 0)
        return true
        #else
        return false
        #endif
    }

    #if canImport(UIKit)
    private static func placementState(_ state: UIScene.ActivationState) -> PrewarmPlacement.SceneState {
        switch state {
        case .foregroundActive: return .foregroundActive
        case .foregroundInactive: return .foregroundInactive
        case .background: return .background
        case .unattached: return .unattached
        @unknown default: return .unattached
        }
    }
    #endif
}
#endif
