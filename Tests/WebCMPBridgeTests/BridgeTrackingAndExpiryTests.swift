import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
@Suite struct BridgeTrackingTests {
    private func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }

    @Test func marketingConsentChainsOnePromptAfterTheUIIsGone() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        await settle()
        #expect(harness.tracking.requests == 0)  // never while the consent UI is up
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        await settle()
        #expect(harness.tracking.requests == 0)  // nor while it is being dismissed
        harness.tracking.active = false
        harness.bridge.endPresentation()
        await settle()
        #expect(harness.tracking.requests == 0)  // nor while the app is inactive
        harness.tracking.becomeActive()
        await settle()
        #expect(harness.tracking.requests == 1)
        #expect(harness.events.suffix(2) == [.uiFinished(.closed), .trackingAuthorization(.authorized)])
        #expect(harness.bridge.state == .invalidated)
    }

    @Test func runDeliversTheTrackingResult() async {
        let webView = FakeWebView()
        let tracking = FakeTrackingAuthorizer()
        tracking.answer = .denied
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/")!, dialect: .gravito)
        configuration.tracking = .afterConsent()
        let bridge = ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: ManualScheduler().scheduler,
            trackingAuthorizer: tracking.client)
        let task = Task { @MainActor in await bridge.run(in: webView) }
        while webView.loadedURLs.isEmpty { await Task.yield() }
        webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        webView.post("jsHandler", .object(["type": .string("close")]))
        let outcome = await task.value
        #expect(outcome.finishReason == .closed)
        #expect(outcome.trackingAuthorization == .denied)
        #expect(tracking.requests == 1)
    }

    @Test func rejectedMarketingNeverPrompts() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.analyticsOnly)]))
        await settle()
        #expect(harness.tracking.requests == 0)
    }

    @Test func disabledByDefaultAndNeverWhenDetermined() async {
        let disabled = BridgeHarness()
        disabled.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        let determined = BridgeHarness { $0.tracking = .afterConsent() }
        determined.tracking.status = .denied
        determined.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        await settle()
        #expect(disabled.tracking.requests == 0)
        #expect(determined.tracking.requests == 0)
    }

    @Test func promptBeforeTheCMPLoads() async {
        let webView = FakeWebView()
        let tracking = FakeTrackingAuthorizer()
        tracking.answer = .denied
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/")!, dialect: .gravito)
        configuration.tracking = .beforeCMP
        let bridge = ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: ManualScheduler().scheduler,
            trackingAuthorizer: tracking.client)
        bridge.attach(to: webView)
        bridge.start()
        #expect(webView.loadedURLs.isEmpty)
        await settle()
        #expect(tracking.requests == 1)
        #expect(webView.loadedURLs.count == 1)
        #expect(bridge.eventLog.first == .trackingAuthorization(.denied))
    }

    @Test func policyDecision() {
        let policy = TrackingPolicy.afterConsent(marketingPurposes: [4])
        #expect(policy.shouldRequestAfterConsent(purposeConsents: [1, 4], status: .notDetermined, alreadyRequestedForThisConsent: false))
        #expect(!policy.shouldRequestAfterConsent(purposeConsents: [1, 2, 3], status: .notDetermined, alreadyRequestedForThisConsent: false))
        #expect(!policy.shouldRequestAfterConsent(purposeConsents: [4], status: .unavailable, alreadyRequestedForThisConsent: false))
        #expect(!TrackingPolicy.disabled.shouldRequestBeforeCMP(status: .notDetermined))
    }
}

@Suite struct ExpiryTests {
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func record(_ tcString: String? = TestStrings.acceptAll, savedDaysAgo: Double = 1, expiresIn: Double? = nil,
                        configVersion: String? = "3") -> ConsentRecord {
        ConsentRecord(
            tcString: tcString, expirationDate: expiresIn.map { now.addingTimeInterval($0) },
            configVersion: configVersion, savedAt: now.addingTimeInterval(-savedDaysAgo * 86_400))
    }

    @Test func reasons() {
        let policy = ConsentExpiryPolicy()
        #expect(policy.renewalReason(for: nil, now: now) == .noConsent)
        #expect(policy.renewalReason(for: record(nil), now: now) == .noConsent)
        #expect(policy.renewalReason(for: record(), now: now) == nil)
        #expect(policy.renewalReason(for: record(expiresIn: -1), now: now) == .expired)
        #expect(policy.renewalReason(for: record(expiresIn: 3600), now: now) == nil)
        #expect(policy.renewalReason(for: record(savedDaysAgo: 389), now: now) == nil)
        #expect(policy.renewalReason(for: record(savedDaysAgo: 391), now: now) == .tooOld)
        let versioned = ConsentExpiryPolicy(currentConfigVersion: "4")
        #expect(versioned.renewalReason(for: record(), now: now) == .configurationChanged)
        #expect(versioned.renewalReason(for: record(configVersion: "4"), now: now) == nil)
        let old = record(TestStrings.make(purposes: [1], policyVersion: 2))
        #expect(policy.renewalReason(for: old, now: now) == .policyVersionChanged)
        #expect(ConsentExpiryPolicy(minimumPolicyVersion: nil).renewalReason(for: old, now: now) == nil)
        #expect(policy.renewalReason(for: record("garbage"), now: now) == .noConsent)
    }

    @Test func policyVersionFromTheFixedPosition() throws {
        for version in [2, 4, 5, 63] {
            #expect(ConsentExpiryPolicy.policyVersion(of: TestStrings.make(policyVersion: version)) == version)
        }
    }

    @Test func launchCheckReadsTheStore() throws {
        let store = ConsentStore.inMemory()
        #expect(ConsentBridge.needsConsentUI(store: store, now: now) == .noConsent)
        try store.apply(IABKeySet(mapping: InAppConsent(tcString: TestStrings.acceptAll, gdprApplies: true)),
                        record: record(savedDaysAgo: 0))
        #expect(ConsentBridge.needsConsentUI(store: store, now: now) == nil)
        #expect(ConsentBridge.needsConsentUI(store: store, now: now.addingTimeInterval(400 * 86_400)) == .tooOld)
    }
}

@MainActor
@Suite struct BridgeDismissalTests {
    @Test func afterChoiceIsModalUntilTheUserChose() {
        let harness = BridgeHarness()
        #expect(!harness.bridge.allowsInteractiveDismissal)
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        #expect(harness.bridge.allowsInteractiveDismissal)
    }

    @Test func afterChoiceAllowsDismissalWhenValidConsentWasStored() throws {
        let first = BridgeHarness()
        first.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        // A second run over the same store ("Privacy settings"): the user chose before.
        let second = BridgeHarness(store: first.store)
        #expect(second.bridge.allowsInteractiveDismissal)
        #expect(BridgeHarness { $0.interactiveDismissal = .always }.bridge.allowsInteractiveDismissal)
        let never = BridgeHarness(store: first.store) { $0.interactiveDismissal = .never }
        #expect(!never.bridge.allowsInteractiveDismissal)
    }

    @Test func aDismissalWithoutAChoiceIsReportedAndInvalidates() {
        let harness = BridgeHarness { $0.interactiveDismissal = .always }
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        harness.bridge.endPresentation()
        #expect(harness.events.last == .uiFinished(.dismissedByUser))
        #expect(harness.bridge.state == .invalidated)
        #expect(harness.webView.handlers.isEmpty)
        // A save that arrives afterwards is not stored.
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        #expect(harness.store.record() == nil)
    }

    @Test func endingThePresentationAfterTheUIFinishedReportsNothingMore() {
        let harness = BridgeHarness()
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        harness.bridge.endPresentation()
        #expect(harness.events.filter(\.endsPresentation) == [.uiFinished(.closed)])
    }

    @Test func changingTheCMPURLMovesTheAllowedOrigin() {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://a.example/cmp")!)
        #expect(configuration.allowedOrigins == ["https://a.example"])
        configuration.cmpURL = URL(string: "https://b.example:8443/cmp")!
        #expect(configuration.allowedOrigins == ["https://b.example:8443"])
        configuration.allowedOrigins = ["https://c.example"]
        configuration.cmpURL = URL(string: "https://d.example/cmp")!
        #expect(configuration.allowedOrigins == ["https://c.example"])
    }

    /// A "Privacy settings" page the app configured on another origin is one of the configuration's pages: it may
    /// hold the UI and post messages unless the app set the origins itself.
    @Test func theSettingsPageOriginIsAllowedByDefault() {
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://a.example/cmp")!)
        configuration.privacySettings = PrivacySettingsOpener(url: URL(string: "https://prefs.a.example:8443/settings")!)
        #expect(configuration.allowedOrigins == ["https://a.example", "https://prefs.a.example:8443"])
        configuration.mode = .settings
        let decision = NavigationPolicy.decide(
            NavigationRequest(url: configuration.resolvedURL, isMainFrame: true),
            allowedOrigins: configuration.allowedOrigins, externalLinks: configuration.externalLinks)
        #expect(decision == .allow)
        configuration.privacySettings = PrivacySettingsOpener(queryItems: [URLQueryItem(name: "layer", value: "settings")])
        #expect(configuration.allowedOrigins == ["https://a.example"])
        configuration.allowedOrigins = ["https://c.example"]
        configuration.privacySettings = PrivacySettingsOpener(url: URL(string: "https://prefs.a.example/settings")!)
        #expect(configuration.allowedOrigins == ["https://c.example"])
    }
}
