#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge
#if canImport(UIKit)
import UIKit
#endif

/// The app's one ``ConsentPrewarmer`` for `WKWebView`: call ``prewarm(configuration:store:trackingAuthorizer:)`` at
/// launch; `ConsentViewController` and `.consentPrompt` (WebCMPBridgeUI) take the pre-warmed bridge when they
/// present. The core decides when to pre-warm and when to release; this glue creates the ``WKCMPWebView`` (with the
/// configuration's fallback page registered), invalidates released views, and forwards memory warnings.
@MainActor
public final class ConsentPrewarming {
    /// The shared instance.
    public static let shared = ConsentPrewarming()

    /// The core prewarmer (idle time 120 s).
    public let prewarmer = ConsentPrewarmer<WKCMPWebView>(release: { $0.invalidate() })
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
    /// needed. Returns whether a pre-warmed bridge is held.
    @discardableResult
    public func prewarm(
        configuration: BridgeConfiguration, store: ConsentStore, trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) -> Bool {
        prewarmer.prewarm(configuration: configuration, store: store, trackingAuthorizer: trackingAuthorizer) {
            WKCMPWebView(fallback: configuration.fallback)
        }
    }

    /// Hands over the pre-warmed bridge and web view, if any (then the caller owns them).
    public func take() -> ConsentPrewarmer<WKCMPWebView>.Prewarmed? {
        prewarmer.take()
    }
}
#endif
