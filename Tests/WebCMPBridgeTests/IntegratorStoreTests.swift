// Reading, changing and sharing stored consent as an app does: plain `import WebCMPBridge` and
// `import WebCMPBridgeTesting`, no `@testable` (see IntegratorFlowTests.swift).
import Foundation
import Testing
import WebCMPBridge
import WebCMPBridgeTesting

@MainActor
@Suite struct IntegratorStoreTests {
    /// A `UserDefaults` suite of its own (as an App Group suite would be), removed afterwards.
    final class Suite {
        let name = "WebCMPBridge.integrator." + UUID().uuidString
        var defaults: UserDefaults { UserDefaults(suiteName: name)! }
        deinit { UserDefaults(suiteName: name)?.removePersistentDomain(forName: name) }
    }

    /// Stores `tcString` through a Gravito save, as the bridge does when the user chooses.
    func save(_ tcString: String, in store: ConsentStore, extra: String = "") {
        let webView = FakeWebView()
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito), store: store,
            scheduler: ManualScheduler())
        bridge.attach(to: webView)
        bridge.start()
        webView.post("jsHandler", json: #"{"type":"save","tcstring":"\#(tcString)"\#(extra)}"#,
                     origin: IntegratorStrings.cmpOrigin)
        bridge.invalidate()
    }

    @Test func anAppGroupSuiteHoldsTheKeysAdSDKsRead() throws {
        let suite = Suite()
        let store = ConsentStore.userDefaults(suiteName: suite.name)
        save(IntegratorStrings.acceptAll, in: store,
             extra: #","gppstring":"\#(IntegratorStrings.usnatOptedOut)","applicableSections":[7],"uspstring":"1YYN""#)
        #expect(suite.defaults.string(forKey: "IABTCF_TCString") == IntegratorStrings.acceptAll)
        // The page's applicable sections are US only: GDPR does not apply.
        #expect(suite.defaults.object(forKey: "IABTCF_gdprApplies") as? Int == 0)
        let keys = store.iabKeys()
        #expect(keys[.purposeConsents] == .string("11111111111"))
        // The string's publisher restriction (purpose 2: vendor 1001 requires consent) and PublisherTC segment
        // (publisher purposes 1 and 2, custom purpose 1 of 2), as an ad SDK reads them.
        #expect(keys[.publisherRestrictions(purpose: 2)] == .string(String(repeating: "_", count: 1000) + "1"))
        #expect(keys[.publisherConsent] == .string("11"))
        #expect(keys[.publisherCustomPurposesConsents] == .string("1"))
        #expect(keys[.usPrivacyString] == .string("1YYN"))
        #expect(keys[.gppSID] == .string("7"))
        let record = try #require(store.record())
        #expect(record.strings.gppApplicableSections == [7])
        #expect(record.usPrivacy == "1YYN" && record.gppString == IntegratorStrings.usnatOptedOut)
        #expect(record.savedAt == ManualScheduler().now)
        #expect(store.changeNotificationObject === ConsentStore.userDefaults(suiteName: suite.name).changeNotificationObject)
        #expect(store.changeNotificationObject !== ConsentStore.inMemory().changeNotificationObject)
        #expect(store.changeNotificationObject.description.contains(suite.name))

        // "Forget me" in the app's settings.
        store.clearAll()
        #expect(store.iabKeys().isEmpty && store.record() == nil)
        #expect(suite.defaults.object(forKey: "IABTCF_TCString") == nil)
    }

    @Test func rejectAllAndWithdrawWithoutThePage() throws {
        let store = ConsentStore.inMemory()
        #expect(throws: IABConsentError.self) { try store.rejectAll() }
        save(IntegratorStrings.acceptAll, in: store)
        let rejected = try store.rejectAll(now: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(rejected.purposeConsents.isEmpty && rejected.vendorConsents.isEmpty)
        #expect(rejected.provenance == ConsentProvenance(.app, .rejectAll))
        #expect(rejected.decoded?.created == Date(timeIntervalSince1970: 1_772_409_600), "Created is kept")
        let withdrawn = try store.withdrawConsent()
        #expect(withdrawn.purposeConsents.isEmpty && store.record()?.provenance == ConsentProvenance(.app, .withdrawal))
        do {
            _ = try ConsentStore.inMemory().withdrawConsent()
        } catch {
            #expect(!error.description.isEmpty)
        }
    }

    @Test func listeningForChangesAppWide() async throws {
        let store = ConsentStore.inMemory()
        var changes = store.changes().makeAsyncIterator()
        var notified: [ConsentChange] = []
        let observer = NotificationCenter.default.addObserver(
            forName: ConsentStore.didChangeNotification, object: store.changeNotificationObject, queue: nil
        ) { notification in
            if let change = notification.userInfo?[ConsentStore.changeUserInfoKey] as? ConsentChange {
                MainActor.assumeIsolated { notified.append(change) }
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        save(IntegratorStrings.analyticsOnly, in: store)
        ConsentStore.inMemory().clearAll()   // another storage: not heard here
        store.clearAll()
        #expect(await changes.next()?.record?.tcString == IntegratorStrings.analyticsOnly)
        #expect(await changes.next().map(\.record) == .some(nil))
        #expect(notified.map(\.record?.tcString) == [IntegratorStrings.analyticsOnly, nil])
    }

    @Test func switchingSDKsAdoptsThePreviousConsentOnce() throws {
        let suite = Suite()
        suite.defaults.set(IntegratorStrings.analyticsOnly, forKey: "IABTCF_TCString")
        let store = ConsentStore.userDefaults(suiteName: suite.name)
        let expiry = ConsentExpiryPolicy()
        #expect(ConsentBridge.needsConsentUI(store: store, migration: .disabled) == .noConsent)
        let now = Date(timeIntervalSince1970: 1_772_500_000)
        let migration = ConsentMigration()
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: expiry, now: now, migration: migration) == nil)
        let adopted = try #require(store.record())
        #expect(adopted.provenance == ConsentProvenance(.previousSDK, .adopted) && adopted.tcString == IntegratorStrings.analyticsOnly)
        #expect(adopted.savedAt == Date(timeIntervalSince1970: 1_772_409_600), "dated by the string's LastUpdated")
        #expect(suite.defaults.object(forKey: ConsentStore.migrationCheckedKey) != nil)
    }

    @Test func aQAResetClearsTheStoreAndThePageData() async throws {
        let suite = Suite()
        let store = ConsentStore.userDefaults(suiteName: suite.name)
        _ = ConsentBridge.needsConsentUI(store: store)   // the migration check ran
        save(IntegratorStrings.analyticsOnly, in: store)
        var cleared: [Set<String>] = []
        let configuration = BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito)
        let engine = WebsiteDataClearing { cleared.append($0) }
        // An app that keeps page data of its own too clears both.
        let both = WebsiteDataClearing { origins in
            await engine.clear(origins)
            cleared.append(["app cache"])
        }
        await ConsentBridge.resetForQA(store: store, configuration: configuration, websiteData: both)
        #expect(cleared == [[IntegratorStrings.cmpOrigin], ["app cache"]])
        #expect(store.record() == nil)
        #expect(suite.defaults.object(forKey: ConsentStore.migrationCheckedKey) != nil, "no second migration")
        await ConsentBridge.resetForQA(store: store, configuration: configuration, websiteData: .none)
        #expect(ConsentBridge.needsConsentUI(store: store) == .noConsent)
    }

    @Test func expiryPolicies() {
        let store = ConsentStore.inMemory()
        save(IntegratorStrings.analyticsOnly, in: store)
        let savedAt = ManualScheduler().now
        #expect(ConsentBridge.needsConsentUI(store: store, now: savedAt) == nil)
        #expect(ConsentBridge.needsConsentUI(
            store: store, expiry: ConsentExpiryPolicy(maximumAge: 86_400), now: savedAt + 2 * 86_400) == .tooOld)
        let newVersion = ConsentExpiryPolicy(currentConfigVersion: "8")
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: newVersion, now: savedAt) == .configurationChanged)
        #expect(ConsentBridge.needsConsentUI(
            store: store, expiry: ConsentExpiryPolicy(minimumPolicyVersion: 6), now: savedAt) == .policyVersionChanged)
        #expect(ConsentRenewalReason.expired.rawValue == "expired")
    }

    @Test func sharingConsentWithContentWebViews() throws {
        let store = ConsentStore.inMemory()
        save(IntegratorStrings.analyticsOnly, in: store)
        #expect([SharingEntry].didomi.map(\.name) == ["euconsent-v2"])
        #expect([SharingEntry].oneTrust.map(\.name) == ["eupubconsent-v2"])
        let own = SharingEntry(name: "app_tc", value: .tcString, storage: [.cookie, .localStorage], httpOnly: true)
        #expect(own.cookieMaxAge == SharingEntry.defaultCookieMaxAge && own.httpOnly)
        #expect(SharingEntry.Value.allCases.contains(.gppSectionIDs) && SharingEntry.Storage.allCases.count == 2)
        var sharing = SharingConfiguration(contentOrigins: ["https://www.example.com"], entries: [own])
        let added = sharing.addContentOrigin("https://news.example.com:443")
        #expect(added)
        #expect(sharing.contentOrigins == ["https://www.example.com", "https://news.example.com"])
        #expect(sharing.allows(origin: "https://news.example.com") && !sharing.allows(origin: "https://evil.example"))
        #expect(sharing.entries == [own])
        let preset = SharingConfiguration(contentOrigins: [], presets: [.euconsentV2, [own]])
        #expect(preset.entries == [SharingEntry].euconsentV2 + [own])
        #expect(SharingConfiguration(contentOrigins: []).entries == .euconsentV2)

        let record = store.record()
        // Global Privacy Control: sent only when the stored consent opted out (analytics-only did not), unless forced.
        #expect(sharing.globalPrivacyControl == .automatic)
        #expect(ConsentSharing.globalPrivacyControlScripts(
            record: record, keys: store.iabKeys(), setting: sharing.globalPrivacyControl).isEmpty)
        #expect(ConsentSharing.globalPrivacyControlScripts(record: record, keys: store.iabKeys(), setting: .always)
            .count == 1)
        let cookies = ConsentSharing.cookies(record: record, configuration: sharing)
        #expect(cookies.count == 2)
        let cookie = try #require(cookies.first { $0.domain == "www.example.com" })
        #expect(cookie.name == "app_tc" && cookie.value == IntegratorStrings.analyticsOnly)
        #expect(cookie.origin == "https://www.example.com" && cookie.path == "/")
        #expect(cookie.maxAge == SharingEntry.defaultCookieMaxAge && cookie.isSecure && cookie.isHTTPOnly)
        #expect(cookie.sameSite == "Lax")
        let seeding = ConsentSharing.seedingScript(record: record, configuration: sharing)
        #expect(seeding.forMainFrameOnly && ConsentSharing.isSharingScript(seeding.source))
        let native = ConsentSharing.userScript(record: record, keys: store.iabKeys())
        #expect(native.source.contains(IntegratorStrings.analyticsOnly))
        #expect(native.source.hasPrefix(ConsentSharing.scriptMarker), "how an adapter finds its earlier sharing scripts")
        #expect(ConsentSharing.userScripts(record: record, keys: store.iabKeys(), configuration: sharing)
            == [seeding, native])
        let update = ConsentSharing.updateScript(record: record, keys: store.iabKeys())
        #expect(update.contains(IntegratorStrings.analyticsOnly))
    }
}
