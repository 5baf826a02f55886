import SwiftUI
import WebCMPBridgeUI

@main
struct ExampleApp: App {
    @StateObject private var consent = ConsentModel()

    var body: some Scene {
        WindowGroup {
            ContentView()
                .environmentObject(consent)
        }
    }
}

/// Owns the bridge configuration and the store; decides, at launch, whether to show the CMP (no web view needed).
@MainActor
final class ConsentModel: ObservableObject {
    /// The hosted CMP page. Default: SampleHost served from the Mac
    /// (`python3 -m http.server 8000 --directory SampleHost` in the repository), reachable from the simulator.
    @AppStorage("cmpURL") var cmpURL = "http://localhost:8000/index.html?platform=ios&dialect=gravito"
    @Published var isPresented = false
    /// `.settings` while "Privacy settings" is open (the CMP reopens with the stored consent).
    @Published private(set) var mode: ConsentUIMode = .consent
    @Published private(set) var lastEvent = ""
    @Published private(set) var keys: [(String, String)] = []
    let store = ConsentStore.userDefaults()

    init() {
        refreshKeys()
        // First launch (or expired consent, or consent given on the fallback page while offline): load the CMP page
        // off-screen now, so that the banner shows at once, and show it.
        if ConsentBridge.needsConsentUI(store: store) != nil {
            ConsentPrewarming.shared.prewarm(configuration: makeConfiguration(), store: store)
            isPresented = true
        }
    }

    func makeConfiguration() -> BridgeConfiguration {
        let url = URL(string: cmpURL) ?? URL(string: "http://localhost:8000/index.html")!
        var configuration = BridgeConfiguration(cmpURL: url, dialect: nil)
        configuration.cmpSDKID = 300
        configuration.mode = mode
        // Offline (or the Mac's server is not running): SampleHost from the app bundle, under webcmp-fallback://app.
        configuration.fallback = Self.fallbackPage
        // To chain App Tracking Transparency: add NSUserTrackingUsageDescription to the app's Info.plist, then
        // configuration.tracking = .afterConsent() and pass trackingAuthorizer: .appTrackingTransparency.
        return configuration
    }

    func makeBridge() -> ConsentBridge {
        ConsentBridge(configuration: makeConfiguration(), store: store)
    }

    /// SampleHost as shipped in the app (`Resources/fallback.html`), registered as `index.html`.
    static let fallbackPage: FallbackPage? = {
        // The resource is in the main bundle or in the resource bundle SwiftPM makes for the app target.
        let bundles = [Bundle.main] + (Bundle.main.urls(forResourcesWithExtension: "bundle", subdirectory: nil) ?? [])
            .compactMap(Bundle.init(url:))
        guard let url = bundles.lazy.compactMap({ $0.url(forResource: "fallback", withExtension: "html") }).first,
            let file = try? FallbackPage.File(contentsOf: url)
        else { return nil }
        return try? FallbackPage(files: ["index.html": file])
    }()

    /// "Privacy settings": the CMP with the stored consent, open until the user acts.
    func openPrivacySettings() {
        mode = .settings
        isPresented = true
    }

    func handle(_ event: ConsentBridgeEvent) {
        lastEvent = String(describing: event)
        if case .consentReady = event { refreshKeys() }
    }

    func finished(_ outcome: ConsentOutcome) {
        lastEvent = "finished: \(outcome.finishReason.map(\.rawValue) ?? "cancelled")"
            + (outcome.trackingAuthorization.map { ", tracking \($0.rawValue)" } ?? "")
        mode = .consent
        refreshKeys()
    }

    /// "Reset consent (QA)": clears the stored consent and the CMP page's own cookies and storage in WebKit, so the
    /// next presentation is a first run in the app and in the page.
    func resetForQA() {
        Task {
            await ConsentBridge.resetForQA(store: store, configuration: makeConfiguration(), websiteData: .webKit)
            refreshKeys()
            lastEvent = "consent reset"
        }
    }

    func refreshKeys() {
        keys = store.iabKeys().map { ($0.key.rawValue, $0.value.description) }.sorted { $0.0 < $1.0 }
    }
}
