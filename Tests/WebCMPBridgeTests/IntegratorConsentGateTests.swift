// The consent gate, the quiet period after a refusal and the proof of consent, as an app uses them: plain
// `import WebCMPBridge` and `import WebCMPBridgeTesting`, no `@testable` (see IntegratorFlowTests.swift).
import Foundation
import Testing
import WebCMPBridge
import WebCMPBridgeTesting

@MainActor
@Suite struct IntegratorConsentGateTests {
    /// A Gravito bridge over `store`, attached and started: the consent UI is up.
    func openConsentUI(store: ConsentStore, clock: ManualScheduler) -> (ConsentBridge, FakeWebView) {
        let webView = FakeWebView()
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito), store: store,
            scheduler: clock)
        bridge.attach(to: webView)
        bridge.start()
        return (bridge, webView)
    }

    /// The user accepts everything on the CMP page, which then goes away.
    func acceptAllOnThePage(store: ConsentStore, clock: ManualScheduler) {
        let (bridge, webView) = openConsentUI(store: store, clock: clock)
        webView.post("jsHandler", json: #"{"type":"save","tcstring":"\#(IntegratorStrings.acceptAll)"}"#,
                     origin: IntegratorStrings.cmpOrigin)
        bridge.invalidate()
    }

    @Test func adSDKsStartOnlyAfterTheUserChoseAndTheUIIsGone() async {
        let clock = ManualScheduler()
        let store = ConsentStore.inMemory()
        var started: ConsentGateOutcome?
        let app = Task { @MainActor in
            started = await ConsentGate(store: store).wait(timeout: 60, scheduler: clock)
        }
        let (bridge, webView) = openConsentUI(store: store, clock: clock)
        webView.post("jsHandler", json: #"{"type":"save","tcstring":"\#(IntegratorStrings.acceptAll)"}"#,
                     origin: IntegratorStrings.cmpOrigin)
        for _ in 0..<30 { await Task.yield() }
        #expect(started == nil)   // the choice is stored, the banner is still on screen
        webView.post("jsHandler", json: #"{"type":"close"}"#, origin: IntegratorStrings.cmpOrigin)
        await app.value
        #expect(started == .consentInForce)
        #expect(bridge.state == .invalidated)
    }

    @Test func anAppThatKnowsConsentIsNotRequiredStartsAtOnceAndAGateWithoutConsentTimesOut() async {
        let clock = ManualScheduler()
        let store = ConsentStore.inMemory()
        #expect(await ConsentGate(store: store, consentRequired: false).wait(timeout: 5, scheduler: clock)
            == .notRequired)
        let waiting = Task { @MainActor in await ConsentGate(store: store).wait(timeout: 5, scheduler: clock) }
        for _ in 0..<30 { await Task.yield() }
        clock.advance(by: 5)
        #expect(await waiting.value == .timedOut)
    }

    @Test func aRefusalIsNotAskedForAgainWithinTheQuietPeriod() throws {
        let store = ConsentStore.inMemory()
        let clock = ManualScheduler()
        acceptAllOnThePage(store: store, clock: clock)
        let refusedAt = clock.now
        try store.rejectAll(now: refusedAt)
        var expiry = ConsentExpiryPolicy(currentConfigVersion: "next")   // the publisher changed its configuration
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: expiry, now: refusedAt + 86_400)
            == .configurationChanged)
        expiry.quietPeriodAfterRejection = 183 * 86_400
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: expiry, now: refusedAt + 86_400) == nil)
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: expiry, now: refusedAt + 184 * 86_400)
            == .configurationChanged)
    }

    @Test func everyChangeIsKeptAsProofAndHandedToTheApp() async throws {
        var store = ConsentStore.inMemory()
        store.historyMaximumEntries = 2
        let changes = store.changes()
        let clock = ManualScheduler()
        acceptAllOnThePage(store: store, clock: clock)
        try store.withdrawConsent()
        store.clearAll()
        let history = store.consentHistory()
        #expect(history.map(\.provenance.action) == [.withdrawal, .cleared])   // the oldest beyond the limit is dropped
        var iterator = changes.makeAsyncIterator()
        let first = await iterator.next()?.historyEntry
        #expect(first?.provenance == ConsentProvenance(.cmpPage, .userChoice))
        #expect(first?.dialect == "gravito")
        #expect(first?.pageURL == IntegratorStrings.cmpURL.absoluteString)
        #expect(first?.tcString == IntegratorStrings.acceptAll)
        #expect(await iterator.next()?.historyEntry == history[0])
        let exported = try JSONSerialization.jsonObject(with: store.exportConsentHistory()) as? [[String: Any]]
        #expect(exported?.map { $0["action"] as? String } == ["withdrawal", "cleared"])
        #expect(exported?.map { $0["source"] as? String } == ["programmatic", "programmatic"])
        #expect((exported?.first?["date"] as? String)?.hasSuffix("Z") == true)
    }
}
