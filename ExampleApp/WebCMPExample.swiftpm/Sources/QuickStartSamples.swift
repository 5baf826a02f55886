import SwiftUI
import UIKit
import WebCMPBridgeUI

// The root README's quick start for UIKit and SwiftUI, verbatim: the root package's DocumentationSamplesTests checks
// that every ```swift block of the README appears here or in Tests/WebCMPBridgeTests/DocumentationSamples.swift, and
// scripts/check-apple type-checks this file with the app against the iOS SDK. The app itself does not call it.

@MainActor
func showConsentIfNeeded(from presenter: UIViewController) {
    let configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app.html")!)
    let store = ConsentStore.userDefaults()
    // At launch: this check creates no web view.
    guard ConsentBridge.needsConsentUI(store: store, expiry: configuration.expiry) != nil else { return }
    let bridge = ConsentBridge(configuration: configuration, store: store)
    let controller = ConsentViewController(bridge: bridge, presentation: .sheet(.half))
    controller.onFinish = { outcome in print("consent finished:", outcome.finishReason?.rawValue ?? "cancelled") }
    controller.present(from: presenter)
}

struct QuickStartRootView: View {
    @State private var showsConsent = false

    var body: some View {
        Text("Your app")
            .onAppear { showsConsent = ConsentBridge.needsConsentUI(store: .userDefaults()) != nil }
            // One bridge per presentation: the modifier calls makeBridge when the sheet is about to show.
            .consentPrompt(isPresented: $showsConsent, bridge: makeBridge,
                           onFinish: { outcome in print("consent finished:", outcome.finishReason?.rawValue ?? "cancelled") })
    }

    func makeBridge() -> ConsentBridge {
        let configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app.html")!)
        return ConsentBridge(configuration: configuration, store: .userDefaults())
    }
}

// The README's quick start with the app's own web view and the core's bridge (no UI module).
@MainActor
func showConsentIfNeeded(in webView: WKCMPWebView) async -> ConsentOutcome? {
    let store = ConsentStore.userDefaults()
    let configuration = BridgeConfiguration(
        cmpURL: URL(string: "https://www.example.com/consent/app.html")!,
        dialect: .gravito,          // or nil: detect from the first message
        language: "de",
        cmpSDKID: 300,              // your CMP's SDK id, written to IABTCF_CmpSdkID
        tracking: .afterConsent()   // optional: ask for ATT after marketing consent
    )
    // At launch: this check creates no web view.
    guard ConsentBridge.needsConsentUI(store: store, expiry: configuration.expiry) != nil else { return nil }
    let bridge = ConsentBridge(configuration: configuration, store: store)
    return await bridge.run(in: webView)    // WKCMPWebView(webView:) wraps your WKWebView and keeps its delegates
}
