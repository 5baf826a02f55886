// WebKit for SwiftUI needs the iOS 26 SDK (Xcode 26): with Xcode 16 the sample compiles away.
#if canImport(_WebKit_SwiftUI) && compiler(>=6.2)
import SwiftUI
import WebCMPBridgeUI

/// The CMP page in iOS 26's `WebPage` (WebKit for SwiftUI) instead of a `WKWebView`: the same bridge, another
/// adapter (`WebPageCMPWebView`). `ConsentWebPageView` runs the bridge and reports its presentation (so the tracking
/// prompt waits until the screen is gone); the run ends when the page is done or when the screen goes away, and
/// `onFinish` gets its outcome. The fallback page is served from its scheme as in the `WKWebView` sheet.
@available(iOS 26.0, *)
struct WebPageConsentScreen: View {
    let makeBridge: () -> ConsentBridge
    @State private var bridge: ConsentBridge?
    @State private var webView = (try? WebPageCMPWebView(fallback: ConsentModel.fallbackPage)) ?? WebPageCMPWebView()
    @State private var result = ""

    var body: some View {
        Group {
            if let bridge {
                ConsentWebPageView(bridge: bridge, webView: webView, onFinish: { outcome in
                    result = outcome.errors.isEmpty ? "Run finished" : "Run ended: \(outcome.errors)"
                })
            }
        }
        .safeAreaInset(edge: .bottom) {
            if !result.isEmpty { Text(result).font(.footnote).padding() }
        }
        .navigationTitle("WebPage (iOS 26)")
        .onAppear { if bridge == nil { bridge = makeBridge() } }
    }
}
#endif
