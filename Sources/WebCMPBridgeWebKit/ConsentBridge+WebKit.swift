#if canImport(WebKit)
import Foundation
import WebCMPBridge

// The bridge's entry points for this module's web view adapters. The adapter contract (`CMPWebView`) is the
// package's own: apps use the adapters the kit ships, so the bridge takes them by their concrete types here.
extension ConsentBridge {
    /// Registers the message handlers and user scripts (the app context's first, `BridgeConfiguration.appContext`)
    /// in `webView` and starts receiving its events. Then `start()`.
    public func attach(to webView: WKCMPWebView) {
        attach(to: webView as any CMPWebView)
    }

    /// Attaches, starts, and waits until the run is over: the UI finished, tracking was requested when due, and the
    /// bridge invalidated itself. Cancelling the calling task invalidates the bridge.
    public func run(in webView: WKCMPWebView) async -> ConsentOutcome {
        await run(in: webView as any CMPWebView)
    }

}

#if canImport(_WebKit_SwiftUI) && compiler(>=6.2)
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
extension ConsentBridge {
    /// `attach(to:)` for the `WebPage` adapter (WebKit for SwiftUI).
    public func attach(to webView: WebPageCMPWebView) {
        attach(to: webView as any CMPWebView)
    }

    /// `run(in:)` for the `WebPage` adapter (WebKit for SwiftUI).
    public func run(in webView: WebPageCMPWebView) async -> ConsentOutcome {
        await run(in: webView as any CMPWebView)
    }
}
#endif
#endif
