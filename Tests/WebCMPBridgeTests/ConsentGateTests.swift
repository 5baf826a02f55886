import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The consent gate: the decision as a table, and the waiting over the store's changes and its storage's consent-UI
/// hold (`ConsentUIHolds`, held by the bridges: `BridgeMachine.holdsConsentUI`, whose own table is in
/// `BridgeMachineTests+Hold.swift`).
@Suite struct ConsentGateTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static func record(
        tcString: String? = TestStrings.acceptAll, gdprApplies: Bool? = true, usPrivacy: String? = nil
    ) -> ConsentRecord {
        ConsentRecord(
            strings: ConsentStrings(tcString: tcString, usPrivacy: usPrivacy), gdprApplies: gdprApplies, savedAt: now)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var required = true
        var held = false
        var reason: ConsentRenewalReason?
        var record: ConsentRecord? = ConsentGateTests.record()
        var expected: ConsentGateOutcome?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "consent in force resumes", reason: nil, expected: .consentInForce),
        Row(name: "consent in force waits while a consent UI is held", held: true, reason: nil, expected: nil),
        Row(name: "no consent waits", reason: .noConsent, record: nil, expected: nil),
        Row(name: "expired consent waits", reason: .expired, expected: nil),
        Row(name: "too old consent waits", reason: .tooOld, expected: nil),
        Row(name: "a changed configuration waits", reason: .configurationChanged, expected: nil),
        Row(name: "an old policy version waits", reason: .policyVersionChanged, expected: nil),
        Row(name: "the fallback page's consent is in force", reason: .hostedPageNotShown, expected: .consentInForce),
        Row(name: "the app says consent is not required", required: false, reason: .noConsent, record: nil,
            expected: .notRequired),
        Row(name: "not required still waits while a consent UI is held", required: false, held: true,
            reason: .noConsent, record: nil, expected: nil),
        Row(name: "the page said GDPR does not apply", reason: nil,
            record: record(tcString: nil, gdprApplies: false), expected: .notRequired),
        Row(name: "GDPR does not apply but a US string is in force", reason: nil,
            record: record(tcString: nil, gdprApplies: false, usPrivacy: "1YNN"), expected: .consentInForce),
    ]

    @Test(arguments: rows)
    func theGateResumesOnlyWhenConsentIsSettled(_ row: Row) {
        #expect(ConsentGateDecision.outcome(
            consentRequired: row.required, consentUIHeld: row.held, renewalReason: row.reason, record: row.record)
            == row.expected)
    }

    /// Stores `tcString` in `store` as the app's own save would, at `now`.
    static func store(_ tcString: String, in store: ConsentStore, at now: Date) throws {
        let commit = try ConsentCommit(
            strings: ConsentStrings(tcString: tcString), previous: nil, rules: ConsentCommit.Rules(), now: now)
        try store.apply(commit.keys, record: commit.record)
    }

    @MainActor private func settle() async {
        for _ in 0..<30 { await Task.yield() }
    }

    /// A gate waiting in a task, and what it resumed with.
    @MainActor final class Waiting {
        var outcome: ConsentGateOutcome?
        var task: Task<Void, Never>?
    }

    /// Holds a bridge weakly: whether it was released.
    @MainActor struct Released {
        weak var bridge: ConsentBridge?
        init(_ bridge: ConsentBridge?) { self.bridge = bridge }
    }

    @MainActor private func startWaiting(_ gate: ConsentGate, timeout: TimeInterval, clock: ManualScheduler) -> Waiting {
        let waiting = Waiting()
        waiting.task = Task { @MainActor in waiting.outcome = await gate.wait(timeout: timeout, scheduler: clock.scheduler) }
        return waiting
    }

    @Test @MainActor func consentAlreadyInForceResumesAtOnce() async throws {
        let store = ConsentStore.inMemory()
        let commit = try ConsentCommit(
            strings: ConsentStrings(tcString: TestStrings.acceptAll), previous: nil, rules: ConsentCommit.Rules(),
            now: ManualScheduler().now)
        try store.apply(commit.keys, record: commit.record)
        #expect(await ConsentGate(store: store).wait(timeout: 5, scheduler: ManualScheduler().scheduler)
            == .consentInForce)
    }

    @Test @MainActor func theGateWaitsForTheUIToFinishAfterTheSave() async {
        let harness = BridgeHarness()
        let gate = ConsentGate(store: harness.store)
        let waiting = startWaiting(gate, timeout: 60, clock: harness.clock)
        await settle()
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        await settle()
        #expect(harness.store.record()?.tcString == TestStrings.acceptAll)
        #expect(waiting.outcome == nil)   // stored, but the UI is on screen
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        harness.bridge.endPresentation()
        await waiting.task?.value
        #expect(waiting.outcome == .consentInForce)
        #expect(harness.bridge.state == .invalidated)
    }

    @Test @MainActor func theGateWaitsForTheTrackingPromptTheKitRequests() async {
        let harness = BridgeHarness { $0.tracking = .afterConsent() }
        harness.tracking.active = false   // the prompt waits for an active app
        let waiting = startWaiting(ConsentGate(store: harness.store), timeout: 60, clock: harness.clock)
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        harness.webView.post("jsHandler", .object(["type": .string("close")]))
        harness.bridge.endPresentation()
        await settle()
        #expect(harness.tracking.requests == 0)
        #expect(waiting.outcome == nil)   // the UI is gone; the tracking prompt is still due
        harness.tracking.becomeActive()
        await waiting.task?.value
        #expect(harness.tracking.requests == 1)
        #expect(waiting.outcome == .consentInForce)
    }

    @Test @MainActor func aBridgeReleasedMidRunNoLongerHoldsTheGate() async throws {
        let clock = ManualScheduler()
        let store = ConsentStore.inMemory()
        try Self.store(TestStrings.acceptAll, in: store, at: clock.now)   // consent in force: only the run holds the gate
        let webView = FakeWebView()
        var bridge: ConsentBridge? = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .gravito),
            store: store, scheduler: clock.scheduler, trackingAuthorizer: .unavailable)
        bridge?.attach(to: webView)
        bridge?.start()
        let released = Released(bridge)
        #expect(store.storage.identity.consentUIHolds.isHeld)
        let waiting = startWaiting(ConsentGate(store: store), timeout: 60, clock: clock)
        await settle()
        #expect(waiting.outcome == nil, "a run over the store is in progress")
        bridge = nil   // the app drops the bridge mid-run, without invalidating it
        #expect(released.bridge == nil, "nothing else holds the bridge")
        #expect(!store.storage.identity.consentUIHolds.isHeld, "the released bridge's hold went with it")
        await settle()
        #expect(waiting.outcome == .consentInForce, "resumed at once, not at the timeout")
        waiting.task?.cancel()
    }

    /// A pre-warmer on `clock` (idle for 120 s, as in apps), pre-warming a Gravito page over `store`.
    @MainActor private func prewarm(
        _ store: ConsentStore, clock: ManualScheduler, configure: (inout BridgeConfiguration) -> Void = { _ in }
    ) -> ConsentPrewarmer<FakeWebView> {
        var configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .gravito)
        configure(&configuration)
        let prewarmer = ConsentPrewarmer<FakeWebView>(idleTimeout: 120, scheduler: clock.scheduler)
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        return prewarmer
    }

    @Test @MainActor func aPrewarmedPageNobodyShowsDoesNotHoldTheGate() async throws {
        let clock = ManualScheduler()
        let store = ConsentStore.inMemory()
        let prewarmer = prewarm(store, clock: clock)
        #expect(prewarmer.isPrewarmed)
        #expect(!store.storage.identity.consentUIHolds.isHeld)
        // The app knows consent is not required: no UI is on screen, so it starts at once, not after the pre-warm's
        // 120 s idle time.
        let notRequired = startWaiting(ConsentGate(store: store, consentRequired: false), timeout: 60, clock: clock)
        await settle()
        #expect(notRequired.outcome == .notRequired)
        notRequired.task?.cancel()
        // Consent stored meanwhile (by another part of the app) resumes a waiting gate at once too.
        let waiting = startWaiting(ConsentGate(store: store), timeout: 60, clock: clock)
        await settle()
        #expect(waiting.outcome == nil)
        try Self.store(TestStrings.rejectAll, in: store, at: clock.now)
        await settle()
        #expect(waiting.outcome == .consentInForce)
        #expect(prewarmer.isPrewarmed, "resumed while the page still waits off-screen")
        waiting.task?.cancel()
    }

    @Test @MainActor func aPrewarmedPageHoldsTheGateOnceShownAndUntilItsUIIsGone() async throws {
        let clock = ManualScheduler()
        let store = ConsentStore.inMemory()
        let prewarmer = prewarm(store, clock: clock)
        let prewarmed = try #require(prewarmer.take())
        #expect(!store.storage.identity.consentUIHolds.isHeld, "taken, not shown yet")
        prewarmed.bridge.beginPresentation()
        #expect(store.storage.identity.consentUIHolds.isHeld)
        let shown = startWaiting(ConsentGate(store: store, consentRequired: false), timeout: 60, clock: clock)
        await settle()
        #expect(shown.outcome == nil, "not required, but the consent UI is on screen")
        prewarmed.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        prewarmed.webView.post("jsHandler", .object(["type": .string("close")]))
        #expect(prewarmed.bridge.state == .invalidated)
        await settle()
        #expect(shown.outcome == nil, "the UI is still on screen while it is dismissed")
        prewarmed.bridge.endPresentation()
        await shown.task?.value
        #expect(shown.outcome == .notRequired)
    }

    @Test @MainActor func notRequiredResumesAsSoonAsNoUIIsOnScreen() async {
        let harness = BridgeHarness()
        let waiting = startWaiting(ConsentGate(store: harness.store, consentRequired: false), timeout: 60, clock: harness.clock)
        harness.bridge.beginPresentation()
        await settle()
        #expect(waiting.outcome == nil)
        harness.bridge.endPresentation()   // the user swiped the UI away without a choice
        await waiting.task?.value
        #expect(waiting.outcome == .notRequired)
        #expect(harness.store.record() == nil)
    }

    /// A `UserDefaults` suite of its own with a previous CMP SDK's TC string, removed afterwards.
    final class PreviousSDKSuite {
        let name = "WebCMPBridge.gate." + UUID().uuidString
        init() { UserDefaults(suiteName: name)?.set(TestStrings.analyticsOnly, forKey: "IABTCF_TCString") }
        deinit { UserDefaults(suiteName: name)?.removePersistentDomain(forName: name) }
    }

    @Test(arguments: [ConsentMigration.disabled, .default])
    @MainActor func theGateReadsStoredConsentWithTheAppsMigration(_ migration: ConsentMigration) async {
        let suite = PreviousSDKSuite()
        let store = ConsentStore.userDefaults(suiteName: suite.name)
        let clock = ManualScheduler()
        let waiting = startWaiting(ConsentGate(store: store, migration: migration), timeout: 10, clock: clock)
        await settle()
        clock.advance(by: 10)
        await waiting.task?.value
        if migration.isEnabled {
            #expect(waiting.outcome == .consentInForce)
            #expect(store.record()?.source == .previousSDK)
        } else {
            #expect(waiting.outcome == .timedOut, "a disabled migration never adopts the previous SDK's keys")
            #expect(store.record() == nil)
        }
    }

    @Test @MainActor func aPrewarmWithMigrationDisabledNeverAdoptsAPreviousSDKsKeys() {
        let suite = PreviousSDKSuite()
        let store = ConsentStore.userDefaults(suiteName: suite.name)
        let prewarmer = prewarm(store, clock: ManualScheduler()) { $0.migration = .disabled }
        #expect(prewarmer.isPrewarmed, "nothing of the app's own is stored: consent is needed")
        #expect(store.record() == nil, "the previous SDK's keys were not adopted")
    }

    @Test @MainActor func theGateTimesOutWhileNoConsentIsStored() async {
        let clock = ManualScheduler()
        let store = ConsentStore.inMemory()
        let waiting = startWaiting(ConsentGate(store: store), timeout: 10, clock: clock)
        await settle()
        clock.advance(by: 9)
        await settle()
        #expect(waiting.outcome == nil)
        clock.advance(by: 1)
        await waiting.task?.value
        #expect(waiting.outcome == .timedOut)
    }

    @Test @MainActor func aProgrammaticChangeOfTheStoreResumesTheGate() async throws {
        let clock = ManualScheduler()
        let store = ConsentStore.inMemory()
        let waiting = startWaiting(ConsentGate(store: store), timeout: 10, clock: clock)
        await settle()
        try Self.store(TestStrings.rejectAll, in: store, at: clock.now)
        await waiting.task?.value
        #expect(waiting.outcome == .consentInForce)
    }

    @Test @MainActor func cancellingTheWaitingTaskEndsItAsTimedOut() async {
        let waiting = startWaiting(ConsentGate(store: .inMemory()), timeout: 60, clock: ManualScheduler())
        await settle()
        waiting.task?.cancel()
        await waiting.task?.value
        #expect(waiting.outcome == .timedOut)
    }
}
