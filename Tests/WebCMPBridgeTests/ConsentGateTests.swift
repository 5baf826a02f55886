import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The consent gate: the decision as a table, and the waiting over the store's changes and the bridges' runs.
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
        var running = false
        var reason: ConsentRenewalReason?
        var record: ConsentRecord? = ConsentGateTests.record()
        var expected: ConsentGateOutcome?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "consent in force resumes", reason: nil, expected: .consentInForce),
        Row(name: "consent in force waits while a run is in progress", running: true, reason: nil, expected: nil),
        Row(name: "no consent waits", reason: .noConsent, record: nil, expected: nil),
        Row(name: "expired consent waits", reason: .expired, expected: nil),
        Row(name: "too old consent waits", reason: .tooOld, expected: nil),
        Row(name: "a changed configuration waits", reason: .configurationChanged, expected: nil),
        Row(name: "an old policy version waits", reason: .policyVersionChanged, expected: nil),
        Row(name: "the fallback page's consent is in force", reason: .hostedPageNotShown, expected: .consentInForce),
        Row(name: "the app says consent is not required", required: false, reason: .noConsent, record: nil,
            expected: .notRequired),
        Row(name: "not required still waits while a run is in progress", required: false, running: true,
            reason: .noConsent, record: nil, expected: nil),
        Row(name: "the page said GDPR does not apply", reason: nil,
            record: record(tcString: nil, gdprApplies: false), expected: .notRequired),
        Row(name: "GDPR does not apply but a US string is in force", reason: nil,
            record: record(tcString: nil, gdprApplies: false, usPrivacy: "1YNN"), expected: .consentInForce),
    ]

    @Test(arguments: rows)
    func theGateResumesOnlyWhenConsentIsSettled(_ row: Row) {
        #expect(ConsentGateDecision.outcome(
            consentRequired: row.required, runInProgress: row.running, renewalReason: row.reason, record: row.record)
            == row.expected)
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
        let commit = try ConsentCommit(
            strings: ConsentStrings(tcString: TestStrings.acceptAll), previous: nil, rules: ConsentCommit.Rules(),
            now: clock.now)
        try store.apply(commit.keys, record: commit.record)   // consent in force: only the run holds the gate
        let webView = FakeWebView()
        var bridge: ConsentBridge? = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .gravito),
            store: store, scheduler: clock.scheduler, trackingAuthorizer: .unavailable)
        bridge?.attach(to: webView)
        bridge?.start()
        let released = Released(bridge)
        let entry = try #require(bridge?.runKey.id)
        #expect(ConsentRuns.shared.contains(entry))
        let waiting = startWaiting(ConsentGate(store: store), timeout: 60, clock: clock)
        await settle()
        #expect(waiting.outcome == nil, "a run over the store is in progress")
        bridge = nil   // the app drops the bridge mid-run, without invalidating it
        #expect(released.bridge == nil, "nothing else holds the bridge")
        await settle()
        #expect(waiting.outcome == .consentInForce, "resumed at once, not at the timeout")
        // The registry is the process's: another test's bridge beginning or ending a run wakes every waiting gate, so
        // the outcome above can pass without the release notice; this expectation cannot.
        #expect(!ConsentRuns.shared.contains(entry), "the released bridge's entry is gone")
        waiting.task?.cancel()
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
        let commit = try ConsentCommit(
            strings: ConsentStrings(tcString: TestStrings.rejectAll), previous: nil, rules: ConsentCommit.Rules(),
            now: clock.now)
        try store.apply(commit.keys, record: commit.record)
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
