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
/// The bridge runs where the view's owner wants it; dismissal is the owner's too:
///
/// ```swift
/// @available(iOS 26.0, *)
/// struct ConsentSheet: View {
///     let bridge: ConsentBridge
///     @State private var webView = try? WebPageCMPWebView(fallback: nil)
///     @Environment(\.dismiss) private var dismiss
///
///     var body: some View {
///         if let webView {
///             ConsentWebPageView(webView)
///                 .task {
///                     _ = await bridge.run(in: webView)   // attaches, loads, and returns when the run is over
///                     dismiss()
///                 }
///         }
///     }
/// }
/// ```
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
@available(macCatalyst, unavailable)
@MainActor
public struct ConsentWebPageView: View {
    private let webView: WebPageCMPWebView
    @Environment(\.openURL) private var openURL

    /// Shows `webView`'s page.
    public init(_ webView: WebPageCMPWebView) {
        self.webView = webView
    }

    public var body: some View {
        WebView(webView.page)
            .onAppear {
                guard webView.openExternally == nil else { return }
                webView.openExternally = { [openURL] url in openURL(url) }
            }
    }
}
#endif
