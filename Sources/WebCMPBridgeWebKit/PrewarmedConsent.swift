#if canImport(WebKit)
import Foundation
import WebCMPBridge

/// A consent run loaded off-screen by ``ConsentPrewarming``, handed over by ``ConsentPrewarming/take()`` or
/// ``ConsentPrewarming/take(matching:store:trackingAuthorizer:)``: pass it to `ConsentViewController(prewarmed:)` or
/// `ConsentWebView(prewarmed:)` (WebCMPBridgeUI), which present its page within the prewarmer's handover time (one
/// presented later finds it released and starts a fresh bridge for the same request).
@MainActor
public struct PrewarmedConsent {
    /// What the core's prewarmer handed over: the bridge, its web view and the events it sent before presentation.
    package var handover: ConsentPrewarmer<WKCMPWebView>.Prewarmed

    /// The pre-warmed bridge (attached and started).
    public var bridge: ConsentBridge { handover.bridge }
    /// The web view the page loaded in.
    public var webView: WKCMPWebView { handover.webView }

    /// Wraps a handover of the core's prewarmer.
    package init(_ handover: ConsentPrewarmer<WKCMPWebView>.Prewarmed) {
        self.handover = handover
    }
}
#endif
