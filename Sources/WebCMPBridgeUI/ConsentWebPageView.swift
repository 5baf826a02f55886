// WebKit for SwiftUI (`WebPage`, `WebView`) is in the iOS 26, macOS 26 and visionOS 26 SDKs (Xcode 26, Swift 6.2):
// the file compiles away with older SDKs and compilers.
#if canImport(SwiftUI) && canImport(WebKit) && canImport(_WebKit_SwiftUI) && compiler(>=6.2)
import SwiftUI
import WebKit
import WebCMPBridge
import WebCMPBridgeWebKit

/// The CMP page of a ``WebPageCMPWebView`` in SwiftUI's `WebView`, with links the core sends out of the consent UI
/// opened by the environment's `openURL` (unless the adapter already has an ``WebPageCMPWebView/openExternally``).
///
/// It runs the bridge and reports its presentation like ``ConsentWebView`` (through the core's `ConsentSession`, which
/// holds the run and delivers its outcome): the view's `onAppear` begins the presentation, so that "open Settings"
/// works, the App Tracking Transparency prompt waits until the view is gone, and `window.open` behaves as with the
/// `WKWebView` adapter. `onDisappear` covers it (a tab switch, a screen pushed over it: the run goes on); the run
/// ends when SwiftUI discards the view (its `@StateObject` storage released: the presentation ends as a screen torn
/// down). When the page is finished the view calls the environment's `dismiss` (a sheet closes, a navigation stack
/// pops); `onFinish` receives the outcome once, after the run has ended and the view is gone.
///
/// ```swift
/// @available(iOS 26.0, *)
/// struct ConsentSheet: View {
///     let bridge: ConsentBridge
///     @State private var webView = try? WebPageCMPWebView(fallback: nil)
///
///     var body: some View {
///         if let webView {
///             ConsentWebPageView(bridge: bridge, webView: webView, onFinish: { outcome in startSDKs(outcome) })
///         }
///     }
/// }
/// ```
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor
public struct ConsentWebPageView: View {
    @StateObject private var holder: ConsentWebPageSession
    @Environment(\.openURL) private var openURL
    @Environment(\.dismiss) private var dismiss

    /// Runs `bridge` in `webView`'s page; `onEvent` receives every bridge event, `onFinish` the run's outcome once,
    /// after the run has ended and the view is gone.
    public init(
        bridge: ConsentBridge, webView: WebPageCMPWebView, onEvent: @escaping (ConsentBridgeEvent) -> Void = { _ in },
        onFinish: @escaping (ConsentOutcome) -> Void = { _ in }
    ) {
        _holder = StateObject(wrappedValue: ConsentWebPageSession(
            bridge: bridge, webView: webView, onEvent: onEvent, onFinish: onFinish))
    }

    public var body: some View {
        WebView(holder.session.webView.page)
            .onAppear {
                let session = holder.session
                if session.webView.openExternally == nil {
                    session.webView.openExternally = { [openURL] url in openURL(url) }
                }
                // "Open iOS Settings" has its own path, never the app's link opener (promise 6).
                session.webView.openAppSettingsURL = { [openURL] url in openURL(url) }
                session.onDismiss = { [dismiss] in dismiss() }
                session.start()
                session.report(.shown)
            }
            .onDisappear { holder.session.report(.covered) }
    }
}

/// The session of one ``ConsentWebPageView``, kept in the view's `@StateObject` storage: released when SwiftUI
/// discards the view, which then ends its presentation (the session lives on until it delivered its outcome).
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor
final class ConsentWebPageSession: ObservableObject {
    let session: ConsentSession<WebPageCMPWebView>

    init(
        bridge: ConsentBridge, webView: WebPageCMPWebView, onEvent: @escaping (ConsentBridgeEvent) -> Void,
        onFinish: @escaping (ConsentOutcome) -> Void
    ) {
        // The WebPage adapter is never pre-warmed: a fresh bridge (for a bridge invalidated before it was shown)
        // runs in the same page, whose handlers the fresh bridge registers again.
        session = ConsentSession(bridge: bridge, webView: webView, makeWebView: { webView })
        session.onEvent = onEvent
        session.onFinish = onFinish
    }

    deinit {
        Task { @MainActor [session] in session.report(.tornDown) }
    }
}
#endif
