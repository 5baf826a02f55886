import SwiftUI
import UIKit
import WebKit
import WebCMPBridgeUI

/// The Apple API of the migration table in `ExampleApp/README.md`, as an app calls it when it replaces a CMP's native
/// SDK: what this app does not need on its own screens (it presents with `.consentPrompt`). Nothing here runs;
/// `scripts/check-apple` type-checks it with the app, which sees only the package's public API, so every name used
/// here is public (the root README's "Public surface").
@MainActor
enum MigrationSamples {
    /// Sourcepoint `loadMessage()`: present the CMP from UIKit when consent is needed, the pre-warmed page if one
    /// was made for the same request (`ConsentPrewarming.shared.prewarm` at launch).
    static func showConsentIfNeeded(from presenter: UIViewController, configuration: BridgeConfiguration) {
        let store = ConsentStore.userDefaults()
        guard ConsentBridge.needsConsentUI(store: store, expiry: configuration.expiry) != nil else { return }
        let controller = ConsentPrewarming.shared.take(matching: configuration, store: store)
            .map { ConsentViewController(prewarmed: $0, presentation: .fullScreen) }
            ?? ConsentViewController(
                bridge: ConsentBridge(configuration: configuration, store: store), presentation: .sheet(.half))
        controller.onEvent = { event in print("consent:", event) }
        controller.onFinish = { outcome in print("finished:", outcome.finishReason?.rawValue ?? "cancelled") }
        if !controller.present(from: presenter) {
            print("not presented: another consent UI is up, or the presenter is busy")
        }
    }

    /// Sourcepoint `loadPrivacyManager(…)`: "Privacy settings", with App Tracking Transparency after consent (the app
    /// declares `NSUserTrackingUsageDescription`; without it the kit reports an error instead of asking).
    static func privacySettings(from presenter: UIViewController, configuration: BridgeConfiguration) {
        var configuration = configuration
        configuration.tracking = .afterConsent()
        let controller = ConsentViewController(
            configuration: configuration, store: .userDefaults(), mode: .settings,
            trackingAuthorizer: .appTrackingTransparency, presentation: .sheet(.twoThirds))
        controller.present(from: presenter, animated: true)
    }

    /// The same in SwiftUI: a new bridge in settings mode per presentation.
    static func privacySettingsButton(isPresented: Binding<Bool>, configuration: BridgeConfiguration) -> some View {
        Button("Privacy settings") { isPresented.wrappedValue = true }
            .consentPrompt(
                isPresented: isPresented, configuration: configuration, store: .userDefaults(), mode: .settings)
    }

    /// The CMP page inside a screen of the app's own (the app closes it on `.uiFinished`).
    static func embeddedConsent(bridge: ConsentBridge, onFinish: @escaping (ConsentOutcome) -> Void) -> some View {
        let prewarmed = ConsentPrewarming.shared.take()
        return Group {
            if let prewarmed {
                ConsentWebView(prewarmed: prewarmed, onFinish: onFinish)
            } else {
                ConsentWebView(bridge: bridge, onEvent: { print("consent:", $0) }, onFinish: onFinish)
            }
        }
    }

    /// The consent UI as a child of a container of the app's own, which removes it when the run is over.
    static func embedAsChild(of container: UIViewController, bridge: ConsentBridge) -> ConsentViewController {
        let controller = ConsentViewController(bridge: bridge, presentation: .fullScreen)
        controller.dismissesItself = false
        container.addChild(controller)
        controller.view.frame = container.view.bounds
        container.view.addSubview(controller.view)
        controller.didMove(toParent: container)
        return controller
    }

    /// The app's own `WKWebView` for the CMP page: the adapter keeps its delegates; links the page opens go to the
    /// system browser.
    static func runInOwnWebView(_ webView: WKWebView, configuration: BridgeConfiguration) async -> ConsentOutcome {
        let adapter = WKCMPWebView(webView: webView)
        adapter.openExternally = { url in WKCMPWebView.openInSystemBrowser(url) }
        let outcome = await ConsentBridge(configuration: configuration, store: .userDefaults()).run(in: adapter)
        adapter.invalidate()
        return outcome
    }

    /// A web view of the app's own configuration that can show the bundled fallback page.
    static func webViewsServingTheFallback(_ fallback: FallbackPage) throws -> [WKCMPWebView] {
        let appConfiguration = WKWebViewConfiguration()
        let adapter = try WKCMPWebView(fallback: fallback, configuration: appConfiguration)   // registers on a copy
        let own = WKWebViewConfiguration()
        try own.registerFallback(fallback)   // throws instead of letting WebKit raise for a taken scheme
        let plain = WKCMPWebView(configuration: own)
        plain.openExternally = { [weak plain] url in
            if let webView = plain?.webView { WKCMPWebView.openFromWindow(url, of: webView) }
        }
        return [adapter, plain]
    }

    /// Sourcepoint `_sp_pass_consent` / `preloadConsent`: the stored consent in the app's article pages, seeded into
    /// their CMP's own storage, and handed again after it changed.
    static func openArticle(in webView: WKWebView, url: URL) async {
        let sharing = SharingConfiguration(
            contentOrigins: ["https://www.example.com"], presets: [.euconsentV2, .didomi])
        await webView.loadSharingConsent(URLRequest(url: url), from: .userDefaults(), sharing: sharing)
        for await _ in ConsentStore.userDefaults().changes() {
            await webView.preloadConsent(from: .userDefaults(), sharing: sharing)
        }
    }

    /// A page without a CMP of its own gets the native-backed `__tcfapi` only.
    static func openPageWithoutCMP(in webView: WKWebView, url: URL) {
        webView.loadSharingConsent(URLRequest(url: url), from: .userDefaults())
    }

    /// Reset for QA, for a consent web view with a data store of its own.
    static func resetForQA(configuration: BridgeConfiguration, dataStore: WKWebsiteDataStore) async {
        await ConsentBridge.resetForQA(
            store: .userDefaults(), configuration: configuration, websiteData: .webKit(dataStore))
    }
}
