// WebKit for SwiftUI needs the iOS 26 SDK (Xcode 26): with Xcode 16 the sample compiles away.
#if canImport(_WebKit_SwiftUI) && compiler(>=6.2)
import SwiftUI
import WebCMPBridgeUI

/// The CMP page in iOS 26's `WebPage` (WebKit for SwiftUI) instead of a `WKWebView`: the same bridge, another
/// adapter (`WebPageCMPWebView`). The run ends when the page is done or when the screen goes away (the task's
/// cancellation invalidates the bridge). The fallback page is served from its scheme as in the `WKWebView` sheet.
@available(iOS 26.0, *)
struct WebPageConsentScreen: View {
    let makeBridge: () -> ConsentBridge
    @State private var webView = (try? WebPageCMPWebView(fallback: ConsentModel.fallbackPage)) ?? WebPageCMPWebView()
    @State private var result = ""

    var body: some View {
        ConsentWebPageView(webView)
            .safeAreaInset(edge: .bottom) {
                if !result.isEmpty { Text(result).font(.footnote).padding() }
            }
            .navigationTitle("WebPage (iOS 26)")
            .task {
                let outcome = await makeBridge().run(in: webView)
                result = outcome.errors.isEmpty ? "Run finished" : "Run ended: \(outcome.errors)"
            }
    }
}
#endif
