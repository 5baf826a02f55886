// Every ```swift block of README.md, docs/ and the DocC articles, pasted verbatim (imports aside) into a function below,
// so that the samples compile with the package. DocumentationSamplesTests fails when a block is missing here or
// differs. To change a sample: change it in the document and here. (AddingADialect.md's samples use internal names:
// they are in AddingADialectTests.swift, which has `@testable import`; this file imports what an app imports. The
// README's UIKit and SwiftUI quick start needs UIKit: it is in the ExampleApp's Sources/QuickStartSamples.swift.)
import Foundation
import WebCMPBridge
import WebCMPBridgeTesting

enum DocumentationSamples {
    // GettingStarted.md — Decide at launch
    static func gettingStartedLaunch() {
        let store = ConsentStore.userDefaults()
        let expiry = ConsentExpiryPolicy(currentConfigVersion: "7")
        if let reason = ConsentBridge.needsConsentUI(store: store, expiry: expiry) {
            print("show the CMP:", reason)   // .noConsent, .expired, .tooOld, .configurationChanged …
        }
    }

    // GettingStarted.md — Show the CMP
    static func gettingStartedBridge() {
        @MainActor
        func makeBridge() -> ConsentBridge {
            var configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app")!)
            configuration.dialect = .gravito
            configuration.language = "de"
            configuration.cmpSDKID = 300
            return ConsentBridge(configuration: configuration, store: .userDefaults())
        }
    }

    // SharingConsent.md — Seeding
    static func sharing() {
        let store = ConsentStore.inMemory()
        let sharing = SharingConfiguration(contentOrigins: ["https://www.example.com"], presets: [.euconsentV2])
        let scripts = ConsentSharing.userScripts(record: store.record(), keys: store.iabKeys(), configuration: sharing)
        let cookies = ConsentSharing.cookies(record: store.record(), configuration: sharing)
        print(scripts.count, cookies.count)
    }

    // TrackingAfterConsent.md
    static func tracking() {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app")!)
        configuration.tracking = .afterConsent(marketingPurposes: [3, 4])
        // or: configuration.tracking = .beforeCMP
        print(configuration.tracking)
    }

    // PrivacySettings.md
    static func privacySettings() {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app.html")!, dialect: .tcf)
        configuration.mode = .settings
        configuration.privacySettings = PrivacySettingsOpener(call: PrivacySettingsCall("Didomi.preferences.show"))
        print(configuration.resolvedURL)
    }

    static func rejectAll() throws {
        let store = ConsentStore.userDefaults()
        let summary = try store.rejectAll()
        print(summary.purposeConsents.isEmpty)   // true
    }

    // ConsentStore.changes()
    static func changes() {
        Task {
            for await change in ConsentStore.userDefaults().changes() {
                print("consent changed:", change.record?.tcString ?? "cleared")
            }
        }
    }

    // docs/Offline.md — Offline and fast first launch
    static func readmeFallback(bundledHTML: Data) throws {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app.html")!)
        configuration.fallback = try FallbackPage(files: ["index.html": FallbackPage.File(contents: bundledHTML)])
        _ = configuration
    }

    // OfflineAndFastFirstLaunch.md — Ship a fallback page
    static func offlineFallbackPage() throws {
        let html = Data("<!doctype html><title>Consent</title>…".utf8)   // in an app: FallbackPage.File(contentsOf: url)
        let page = try FallbackPage(
            scheme: "webcmp-fallback", host: "app", entry: "index.html",
            files: ["index.html": FallbackPage.File(contents: html)])
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app.html")!)
        configuration.fallback = page
        _ = configuration
    }

    // OfflineAndFastFirstLaunch.md — Ask for the hosted page again
    static func offlineRetry() {
        let store = ConsentStore.userDefaults()
        if ConsentBridge.needsConsentUI(store: store) == .hostedPageNotShown {
            // The network is back: show the hosted page again. Its save replaces the fallback's consent.
        }
    }

    // TestingYourConsentFlow.md — the test doubles
    @MainActor
    static func testingYourConsentFlow() throws -> IABKeySet {
        @MainActor
        func consentFlowStoresTheChoiceAndSurvivesTheFallback() throws -> IABKeySet {
            let webView = FakeWebView()
            let clock = ManualScheduler()
            let store = ConsentStore.inMemory()
            var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .gravito)
            configuration.fallback = try FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("…".utf8))])
            let bridge = ConsentBridge(configuration: configuration, store: store, scheduler: clock)
            bridge.attach(to: webView)
            bridge.start()

            clock.advance(by: 30)              // a slow network: the ready timeout loads the bundled fallback page …
            webView.deliverPendingEvents()     // … and WebKit reports the replaced hosted load as cancelled: not a failure
            let fallback = "webcmp-fallback://app"
            webView.post("jsHandler", json: #"{"type":"CMP-loaded"}"#, origin: fallback)
            webView.post("jsHandler", json: #"{"type":"save","tcstring":"COwAdDhOwAdDhN4ABAENAPCgAAQAAv___wAAAFP_AAp_4AI6ACACAA"}"#,
                         origin: fallback)
            webView.post("jsHandler", json: #"{"type":"close"}"#, origin: fallback)
            return store.iabKeys()             // IABTCF_TCString, IABTCF_PurposeConsents, … as an ad SDK reads them
        }
        return try consentFlowStoresTheChoiceAndSurvivesTheFallback()
    }

    // TestingYourConsentFlow.md — the app in the background
    @MainActor
    static func testingTheBackground() -> ConsentBridge.State {
        @MainActor
        func aUserWhoSwitchesAwayWhileTheBannerLoadsStillGetsTheBanner() -> ConsentBridge.State {
            let webView = FakeWebView()
            let clock = ManualScheduler()
            let configuration = BridgeConfiguration(
                cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .gravito, readyTimeout: 30)
            let bridge = ConsentBridge(configuration: configuration, store: .inMemory(), scheduler: clock)
            bridge.attach(to: webView)
            bridge.start()

            clock.advance(by: 10)
            webView.enterBackground()          // willResignActive, didEnterBackground: 20 s of the timeout are kept
            clock.advance(by: 120)
            webView.enterForeground()          // willEnterForeground, didBecomeActive
            clock.advance(by: 15)
            webView.post("jsHandler", json: #"{"type":"CMP-loaded"}"#, origin: "https://cmp.example.com")
            return bridge.state                // .ready
        }
        return aUserWhoSwitchesAwayWhileTheBannerLoadsStillGetsTheBanner()
    }

    // UsingConsentInAppExtensions.md — reading consent in an extension
    static func usingConsentInAppExtensions() {
        let store = ConsentStore.userDefaults(suiteName: "group.com.example.news")
        let keys = store.iabKeys()                  // exactly the keys the app wrote, as an ad SDK reads them
        if case .string(let tcString)? = keys["IABTCF_TCString"] {
            print("the user's TC string:", tcString)
        }
        // Read-only in the extension: no migration of a previous SDK's keys.
        let consentInForce = ConsentBridge.needsConsentUI(store: store, migration: .disabled) == nil
        _ = consentInForce
    }

    // TheAppContextInTheCMPPage.md — Overview
    static func appContext(cmpURL: URL) -> BridgeConfiguration {
        var configuration = BridgeConfiguration(cmpURL: cmpURL, dialect: .tcf)
        configuration.appContext = AppContext(
            platform: .iOS, osVersion: "18.6", language: "de", trackingStatus: .denied,
            colorScheme: .dark, dynamicTypeSize: .large, reduceMotion: true)
        configuration.appContext?.osVersion = nil   // a field set to nil is sent nowhere
        return configuration
    }
}

// StartingSDKsAfterConsent.md — Overview
@MainActor
func startSDKsWhenConsentIsSettled(store: ConsentStore) async {
    let gate = ConsentGate(store: store, expiry: ConsentExpiryPolicy())
    switch await gate.wait(timeout: 30) {
    case .consentInForce, .notRequired:
        startAdSDKs()
    case .timedOut:
        break   // no settled choice yet: start nothing personalised, wait again later
    }
}

// StartingSDKsAfterConsent.md — Recipe: Google Mobile Ads and AppLovin MAX
@MainActor
func startAdsAfterConsent(store: ConsentStore) async {
    let outcome = await ConsentGate(store: store).wait(timeout: 30)
    guard outcome != .timedOut else { return }

    // US users without a TC string: pass the opt-out of sale to AppLovin's flag.
    if let record = store.record(includingNonTCFData: false), record.tcString == nil,
        let gpp = record.gppString,
        let signals = try? USPrivacySignals(gppString: gpp, applicableSections: record.strings.gppApplicableSections)
    {
        ALPrivacySettings.setDoNotSell(signals.isSaleOptedOut)
    }

    MobileAds.shared.start(completionHandler: nil)
    let configuration = ALSdkInitializationConfiguration(sdkKey: "YOUR_SDK_KEY") { builder in
        builder.mediationProvider = ALMediationProviderMAX
    }
    ALSdk.shared().initialize(with: configuration) { _ in
        // load ads here
    }
}

/// What the app starts once the gate is open (stand-in).
func startAdSDKs() {}

// Stand-ins for the Google Mobile Ads SDK and the AppLovin MAX SDK, with the names and signatures their documentation
// gives (developers.google.com/admob/ios/quick-start; support.axon.ai/en/max/ios/overview/integration), so that the
// recipe compiles without either SDK.
final class GADInitializationStatus {}
final class MobileAds: Sendable {
    static let shared = MobileAds()
    func start(completionHandler: (@Sendable (GADInitializationStatus) -> Void)?) {}
}
final class ALSdkConfiguration {}
final class ALSdkInitializationConfigurationBuilder {
    var mediationProvider: String?
}
final class ALSdkInitializationConfiguration {
    init(sdkKey: String, builderBlock: ((ALSdkInitializationConfigurationBuilder) -> Void)? = nil) {
        builderBlock?(ALSdkInitializationConfigurationBuilder())
    }
}
final class ALSdk {
    static func shared() -> ALSdk { ALSdk() }
    func initialize(
        with configuration: ALSdkInitializationConfiguration,
        completionHandler: ((ALSdkConfiguration) -> Void)? = nil
    ) {}
}
let ALMediationProviderMAX = "max"
enum ALPrivacySettings {
    static func setDoNotSell(_ doNotSell: Bool) {}
}

extension DocumentationSamples {
    // ReaskingAfterRefusal.md — Overview
    static func quietPeriod() {
        var expiry = ConsentExpiryPolicy(currentConfigVersion: "7")
        expiry.quietPeriodAfterRejection = 183 * 86_400   // about six months
        let askAgain = ConsentBridge.needsConsentUI(store: .userDefaults(), expiry: expiry) != nil
        _ = askAgain
    }
}

// ProofOfConsent.md — Overview
func consentProof(store: ConsentStore) -> Data {
    for entry in store.consentHistory() {
        print(entry.date, entry.provenance.source, entry.provenance.action, entry.tcString ?? "no TC string")
    }
    return store.exportConsentHistory()   // JSON: an array of entries, oldest first, ISO 8601 dates
}

// ProofOfConsent.md — Bounded
func storeKeepingMoreHistory() -> ConsentStore {
    var store = ConsentStore.userDefaults()
    store.historyMaximumEntries = 50
    store.historyMaximumBytes = 128 * 1024
    return store
}

// ProofOfConsent.md — Handing each change to your records
func forwardConsentChanges(store: ConsentStore, send: @escaping @Sendable (Data) async -> Void) -> Task<Void, Never> {
    Task {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        for await change in store.changes() {
            guard let entry = change.historyEntry, let json = try? encoder.encode(entry) else { continue }
            await send(json)
        }
    }
}

// HandlingErrors.md — Whether a failure ends the UI
func handle(_ event: ConsentBridgeEvent) {
    switch event {
    case .failed(let error):
        // The UI ends; stored consent is unchanged.
        print("CMP UI failed (\(error.code.rawValue)): \(error.userFacingMessage)")
    case .error(let error) where error.code == .invalidTCString:
        print("The CMP page saved a broken TC string: \(error.consentError?.description ?? error.description)")
    case .error(let error) where error.isSecurityEvent:
        print("Rejected a message: \(error)")
    default:
        break
    }
}

func decodeStoredString(_ raw: String) -> TCString? {
    do {
        return try TCString(decoding: raw)
    } catch {
        switch error.code {
        case .invalidTCString: print("Not a TC string: \(error)")
        default: print("Unexpected \(error.code): \(error)")
        }
        return nil
    }
}
