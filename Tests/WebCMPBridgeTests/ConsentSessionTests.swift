import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// ``ConsentSession``: one owner per run, from the presentation to the outcome (issue 36, promises 1, 4, 8, 9), driven
/// with `FakeWebView` and `ManualScheduler` as the UIKit and SwiftUI glue drives it.
@MainActor
@Suite struct ConsentSessionTests {
    let clock = ManualScheduler()
    let tracking = FakeTrackingAuthorizer()
    /// The presentation gate on the test's clock: its confirmation timeout must not run out on a loaded machine's
    /// wall clock while a test awaits.
    let gate: PresentationGate

    init() {
        let clock = clock
        gate = PresentationGate(now: { clock.now })
    }

    func bridge(trackingAfterConsent: Bool = false) -> ConsentBridge {
        var configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/app/index.html")!, dialect: .gravito, readyTimeout: 600)
        if trackingAfterConsent { configuration.tracking = .afterConsent() }
        return ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: clock.scheduler,
            trackingAuthorizer: tracking.client)
    }

    func session(
        _ bridge: ConsentBridge, webView: FakeWebView = FakeWebView(), closesItself: Bool = true,
        endsOnClose: Bool = false, gate: PresentationGate? = nil
    ) -> ConsentSession<FakeWebView> {
        ConsentSession(
            bridge: bridge, webView: webView, closesItself: closesItself, endsOnClose: endsOnClose, gate: gate,
            makeWebView: { FakeWebView() })
    }

    /// The outcomes a session delivered.
    @MainActor final class Outcomes {
        var all: [ConsentOutcome] = []
    }

    /// Presents `session` as `ConsentViewController.present(from:)` does: asked for, started, shown.
    func present(_ session: ConsentSession<FakeWebView>, into outcomes: Outcomes) {
        session.onFinish = { outcomes.all.append($0) }
        #expect(session.requestPresentation(allowed: true))
        session.start()
        session.report(.shown)
    }

    func save(_ webView: FakeWebView, close: Bool = true) {
        webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        if close { webView.post("jsHandler", .object(["type": .string("close")])) }
    }

    // MARK: Promise 1 (D1)

    /// D1: the run's task held the view controller `weak`; after SwiftUI released the sheet (or an app kept no
    /// reference) `onFinish` never fired in a tracking-after-consent run. The session keeps itself and its run alive
    /// until it delivered.
    @Test func theOutcomeReachesOnFinishAfterTheTrackingPromptWhenNothingHoldsTheSessionOrItsView() async {
        let webView = FakeWebView()
        var outcomes: [ConsentOutcome] = []
        weak var weakSession: ConsentSession<FakeWebView>?
        do {
            let session = session(bridge(trackingAfterConsent: true), webView: webView, gate: gate)
            weakSession = session
            session.onFinish = { outcomes.append($0) }
            #expect(session.requestPresentation(allowed: true))
            session.start()
            session.report(.shown)
        }
        await settle()
        save(webView)
        tracking.active = false   // the tracking prompt waits until the app is active
        weakSession?.report(.dismissed)   // the view's last report; then SwiftUI releases it
        await settle()
        #expect(weakSession != nil, "the session outlives its view until it delivered")
        #expect(outcomes.isEmpty, "not before the tracking prompt was answered")
        tracking.becomeActive()
        await settle()
        #expect(tracking.requests == 1)
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.trackingAuthorization == .authorized)
        #expect(outcomes.first?.finishReason == .closed)
        #expect(weakSession == nil, "released once it delivered")
        #expect(!gate.isPresenting)
    }

    @Test func theOutcomeIsDeliveredOnceAfterTheRunEndedAndTheUIIsGone() async {
        let webView = FakeWebView()
        let session = session(bridge(), webView: webView, gate: gate)
        var outcomes: [ConsentOutcome] = []
        var dismissals = 0
        session.onFinish = { outcomes.append($0) }
        session.onDismiss = { dismissals += 1 }
        #expect(session.requestPresentation(allowed: true))
        session.start()
        await settle()
        save(webView)   // the page finishes while the presentation animates
        await settle()
        #expect(dismissals == 0)
        session.report(.shown)
        #expect(dismissals == 1)
        #expect(outcomes.isEmpty, "the UI is still there")
        session.report(.dismissed)
        session.report(.dismissed)   // viewDidDisappear and presentationControllerDidDismiss
        session.report(.tornDown)
        await settle()
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.summary != nil)
    }

    // MARK: Promise 2

    /// A page that failed while its sheet came on screen (killed, or its load failed) ended the run (its error screen
    /// stays, with Close) and invalidated the bridge before UIKit reported the sheet shown: the bridge's hold was gone, and the gate resumed
    /// with the UI still coming on screen (found by the journey fuzz target). The session holds the store's consent UI
    /// until the UI reports its end.
    @Test func theGateWaitsWhileTheUIMayBeOnScreenEvenAfterItsBridgeWasInvalidated() async {
        let webView = FakeWebView()
        let bridge = bridge()
        let session = session(bridge, webView: webView, gate: gate)
        let waiting = ConsentGate(store: bridge.store, consentRequired: false)
        #expect(session.requestPresentation(allowed: true))
        session.start()
        await settle()
        webView.failLoading()
        await settle()
        #expect(bridge.state == .invalidated)
        #expect(session.phase == .presenting)
        #expect(waiting.decide(now: clock.now) == nil, "the sheet is still coming on screen, with its error screen")
        session.report(.shown)
        #expect(waiting.decide(now: clock.now) == nil, "the error screen is on screen")
        session.report(.dismissed)
        #expect(waiting.decide(now: clock.now) == .notRequired)
    }

    // MARK: Promise 4 (D5, D6, D7)

    /// D5: a second `present(from:)` while the first animates released everything (a blank modal with a spinner and
    /// no way out). It is refused and leaves the first as it is.
    @Test func aSecondPresentationRequestWhileTheFirstAnimatesNeverTearsItDown() async {
        let webView = FakeWebView()
        let session = session(bridge(), webView: webView, gate: gate)
        #expect(session.requestPresentation(allowed: true))
        session.start()
        await settle()
        // UIKit's preconditions fail now (the presenter is presenting): the double tap.
        #expect(!session.requestPresentation(allowed: false))
        #expect(session.phase == .presenting)
        #expect(session.bridge.state == .loading)
        #expect(!webView.handlers.isEmpty)
        #expect(gate.isPresenting)
        session.report(.shown)
        #expect(!session.requestPresentation(allowed: true))   // and once it is shown
        webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(session.bridge.state == .ready)
        #expect(session.phase == .shown)
    }

    /// D6: a screen torn down without a dismissal (its window's root replaced, its scene disconnected) was reported
    /// as covered: the run lived on with its timers paused and the gate waited for it. It ends its run now.
    @Test func aScreenTornDownWithoutADismissalEndsItsRunAndDeliversItsOutcome() async {
        let webView = FakeWebView()
        let session = session(bridge(), webView: webView, gate: gate)
        let outcomes = Outcomes()
        present(session, into: outcomes)
        await settle()
        webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        session.report(.covered)
        session.report(.tornDown)   // the window's root view controller was replaced
        await settle()
        #expect(session.phase == .ended)
        #expect(!gate.isPresenting)
        #expect(outcomes.all.count == 1)
        #expect(outcomes.all.first?.finishReason == .dismissedByUser)
        #expect(session.bridge.state == .invalidated)
    }

    /// D7: a pre-warm released after its handover time but shown later showed a page whose handlers were gone. The
    /// session starts a fresh bridge for the same request in a fresh web view.
    @Test func aPrewarmReleasedBeforeItIsShownIsReplacedByAFreshBridge() async throws {
        let prewarmer = ConsentPrewarmer<FakeWebView>(scheduler: clock.scheduler)
        let store = ConsentStore.inMemory()
        let configuration = bridge().configuration
        let client = tracking.client
        #expect(prewarmer.prewarm(configuration: configuration, store: store, trackingAuthorizer: client) {
            FakeWebView()
        })
        let taken = try #require(prewarmer.take(matching: configuration, store: store, trackingAuthorizer: client))
        clock.advance(by: 11)   // the handover time passed: the pre-warm is released
        #expect(taken.bridge.state == .invalidated)
        #expect(taken.webView.handlers.isEmpty)

        let session = ConsentSession(
            bridge: taken.bridge, webView: taken.webView, eventsBeforePresentation: taken.eventsBeforePresentation,
            gate: gate, makeWebView: { FakeWebView() })
        let outcomes = Outcomes()
        present(session, into: outcomes)
        await settle()
        #expect(session.replacedReleasedPrewarm)
        #expect(session.bridge !== taken.bridge)
        #expect(session.webView !== taken.webView)
        #expect(session.bridge.state == .loading)
        #expect(session.bridge.store.storage.identity == store.storage.identity)
        #expect(!session.webView.handlers.isEmpty)
        save(session.webView)
        #expect(store.record()?.tcString == TestStrings.acceptAll)
        session.report(.dismissed)
        await settle()
        #expect(outcomes.all.first?.summary?.record.tcString == TestStrings.acceptAll)
    }

    /// A pre-warm a session took and started just before the handover time, shown just after it: the prewarmer
    /// leaves it to the session, and the page stays alive.
    @Test func aPrewarmASessionOwnsIsNotReleasedAtTheHandoverTime() async throws {
        let prewarmer = ConsentPrewarmer<FakeWebView>(scheduler: clock.scheduler)
        let store = ConsentStore.inMemory()
        let configuration = bridge().configuration
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        let taken = try #require(prewarmer.take(matching: configuration, store: store))
        clock.advance(by: 9.9)
        let session = ConsentSession(bridge: taken.bridge, webView: taken.webView, gate: gate, makeWebView: {
            FakeWebView()
        })
        #expect(session.requestPresentation(allowed: true))
        session.start()
        clock.advance(by: 0.2)   // the handover time passes while the presentation animates
        session.report(.shown)
        #expect(!session.replacedReleasedPrewarm)
        #expect(session.bridge === taken.bridge)
        #expect(session.bridge.state == .loading)
        #expect(!taken.webView.handlers.isEmpty)
    }

    @Test func aPresentationThatNeverShowsIsReleasedAndNeverDelivers() async {
        let webView = FakeWebView()
        var released: [FakeWebView] = []
        let session = ConsentSession(
            bridge: bridge(), webView: webView, gate: gate, makeWebView: { FakeWebView() },
            release: { released.append($0) })
        var outcomes: [ConsentOutcome] = []
        session.onFinish = { outcomes.append($0) }
        let other = self.session(bridge(), gate: gate)
        #expect(session.requestPresentation(allowed: true))
        #expect(!other.requestPresentation(allowed: true), "the gate holds one consent UI")
        #expect(other.phase == .released)
        session.start()
        session.report(.presentationRefused)
        await settle()
        #expect(session.bridge.state == .invalidated)
        #expect(released.count == 1 && released.first === webView)
        #expect(outcomes.isEmpty)
        #expect(!gate.isPresenting)
    }

    // MARK: Promise 8 (D9, the core side)

    /// D9: the `WebPage` adapter's view never began a presentation, so the tracking prompt did not wait for the view
    /// to go. A view that reports its showing to the session (as `ConsentWebPageView` does now) holds the prompt
    /// until it is gone.
    @Test func aShownViewHoldsTheTrackingPromptUntilItIsGone() async {
        let webView = FakeWebView()
        let session = session(bridge(trackingAfterConsent: true), webView: webView, closesItself: false)
        var outcomes: [ConsentOutcome] = []
        session.onFinish = { outcomes.append($0) }
        session.start()
        session.report(.shown)   // SwiftUI's onAppear
        await settle()
        save(webView)
        await settle()
        #expect(tracking.requests == 0, "the consent UI is still on screen")
        session.report(.removedFromParent)   // SwiftUI dismantled the view
        await settle()
        #expect(tracking.requests == 1)
        #expect(outcomes.count == 1)
    }

    // MARK: Promise 9 (D12)

    /// D12: an embedded `ConsentWebView` had no close handler after an error: Close did nothing and `onFinish` never
    /// came. Close now ends the presentation where it is and delivers the outcome; the app removes the view.
    @Test func closeUnderAnErrorInAnEmbeddedViewEndsTheRunAndDeliversTheOutcome() async {
        let webView = FakeWebView()
        let session = session(bridge(), webView: webView, closesItself: false, endsOnClose: true)
        var outcomes: [ConsentOutcome] = []
        var events: [ConsentBridgeEvent] = []
        session.onFinish = { outcomes.append($0) }
        session.onEvent = { events.append($0) }
        session.start()
        session.report(.shown)
        await settle()
        webView.failLoading()
        await settle()
        #expect(session.showsError)
        #expect(events.contains(.uiFinished(.failed)))
        #expect(outcomes.isEmpty, "the error stays on screen with its Close button")
        session.report(.closeRequested)
        await settle()
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.finishReason == .failed)
        session.report(.removedFromParent)   // the app removes the view in onFinish
        #expect(outcomes.count == 1)
    }

    @Test func eventsBeforeTheViewListensAreDeliveredInOrderWhenItDoes() async {
        let webView = FakeWebView()
        let session = session(bridge(), webView: webView)
        session.start()
        await settle()
        webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        var events: [ConsentBridgeEvent] = []
        session.onEvent = { events.append($0) }
        #expect(events == [.uiReady(.gravito)])
    }
}
