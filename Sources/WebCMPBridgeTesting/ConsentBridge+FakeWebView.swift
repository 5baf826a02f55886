import Foundation
import WebCMPBridge

// The bridge's entry points for the test double. The adapter contract (`CMPWebView`) is the package's own: apps and
// their tests use the adapters the kit ships, so the bridge takes them by their concrete types.
extension ConsentBridge {
    /// Registers the message handlers and user scripts (the app context's first, `BridgeConfiguration.appContext`)
    /// in `webView` and starts receiving its events, as with `WKCMPWebView`. Then `start()`.
    public func attach(to webView: FakeWebView) {
        attach(to: webView as any CMPWebView)
    }

    /// Attaches, starts, and waits until the run is over: the UI finished, tracking was requested when due, and the
    /// bridge invalidated itself. Cancelling the calling task invalidates the bridge.
    public func run(in webView: FakeWebView) async -> ConsentOutcome {
        await run(in: webView as any CMPWebView)
    }
}
