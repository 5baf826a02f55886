import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// A tracking request in flight (made, not settled: its alert may be on screen or still to come) across runs over one
/// tracking client (``TrackingRequestsInFlight``): found by the journey fuzz target (issue 36, promises 1–3), each
/// checked to fail without its fix.
@MainActor
@Suite struct TrackingRequestsInFlightTests {
    let clock = ManualScheduler()
    let tracking = FakeTrackingAuthorizer()
    let store = ConsentStore.inMemory()

    init() {
        tracking.prompt = .showsLate   // iOS 17.4: `.denied` at once, the alert later
    }

    func session(trackingFirst: Bool, webView: FakeWebView) -> ConsentSession<FakeWebView> {
        var configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/app/index.html")!, dialect: .gravito, readyTimeout: 600)
        if trackingFirst { configuration.tracking = .beforeCMP }
        let bridge = ConsentBridge(
            configuration: configuration, store: store, scheduler: clock.scheduler, trackingAuthorizer: tracking.client)
        return ConsentSession(bridge: bridge, webView: webView, makeWebView: { FakeWebView() })
    }

    /// The alert shows and is answered: the app resigns active and becomes active again, as UIKit reports it to every
    /// live web view.
    func answerAlert(_ status: TrackingAuthorizationStatus, webViews: [FakeWebView]) async {
        tracking.showPrompt()
        for webView in webViews { webView.resignActive() }
        await settle()
        tracking.answerPrompt(status)
        for webView in webViews { webView.becomeActive() }
        await settle()
    }

    /// Promise 2: a presentation released before it showed (its screen torn down while it animated in) invalidated
    /// its bridge while the tracking request it had made before the CMP was in flight; the alert still came, but the
    /// gate resumed at once. The request cannot be withdrawn: the bridge lets it settle, and holds the gate until then.
    @Test func aReleasedPresentationWhoseTrackingRequestIsInFlightHoldsTheGateUntilTheAlertIsAnswered() async {
        let webView = FakeWebView()
        let session = session(trackingFirst: true, webView: webView)
        let gate = ConsentGate(store: store, consentRequired: false)
        #expect(session.requestPresentation(allowed: true))
        session.start()
        await settle()
        #expect(tracking.requests == 1)
        #expect(session.bridge.isTrackingRequestInFlight)
        session.report(.tornDown)   // the window's root replaced while the sheet animated in
        await settle()
        #expect(session.phase == .released)
        #expect(gate.decide(now: clock.now) == nil, "the alert may still come")
        await answerAlert(.authorized, webViews: [webView])
        #expect(session.bridge.state == .invalidated)
        #expect(gate.decide(now: clock.now) == .notRequired)
    }

    /// Promise 1: a run with no tracking prompt of its own delivered its outcome (where the app starts its ad SDKs)
    /// while another run's tracking alert was still to come. It is delivered once no request is in flight.
    @Test func anOutcomeWaitsUntilAnotherRunsTrackingRequestSettled() async {
        let firstView = FakeWebView()
        let first = session(trackingFirst: true, webView: firstView)
        first.start()
        await settle()
        #expect(first.bridge.isTrackingRequestInFlight)
        let secondView = FakeWebView()
        let second = session(trackingFirst: false, webView: secondView)
        var outcomes: [ConsentOutcome] = []
        second.onFinish = { outcomes.append($0) }
        #expect(second.requestPresentation(allowed: true))
        second.start()
        second.report(.shown)
        await settle()
        secondView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        secondView.post("jsHandler", .object(["type": .string("close")]))
        second.report(.dismissed)
        await settle()
        #expect(second.bridge.state == .invalidated)
        #expect(outcomes.isEmpty, "the first run's alert may still come")
        await answerAlert(.denied, webViews: [firstView])
        #expect(!first.bridge.isTrackingRequestInFlight)
        #expect(outcomes.count == 1)
    }

    /// Promise 3: a second run asked while the first run's alert was still to come; iOS shows no second alert ("The
    /// authorization prompt doesn't display if another permission request is pending user confirmation",
    /// `ATTrackingManager.h`) and answers at once, so the second run settled on "not determined" while the first
    /// alert could still show. A request waits until no other is in flight.
    @Test func aSecondTrackingRequestWaitsUntilTheOneInFlightSettled() async {
        let firstView = FakeWebView()
        let first = session(trackingFirst: true, webView: firstView)
        first.start()
        await settle()
        #expect(tracking.requests == 1)
        let secondView = FakeWebView()
        let second = session(trackingFirst: true, webView: secondView)
        var events: [ConsentBridgeEvent] = []
        second.onEvent = { events.append($0) }
        second.start()
        await settle()
        #expect(tracking.requests == 1, "no second request while the first alert may still come")
        tracking.prompt = .answersAtOnce   // the status is determined from now on: iOS answers with it at once
        tracking.answer = .authorized
        await answerAlert(.authorized, webViews: [firstView, secondView])
        #expect(tracking.requests == 2)
        #expect(events.contains(.trackingAuthorization(.authorized)))
        #expect(!events.contains(.trackingAuthorization(.notDetermined)))
    }
}
