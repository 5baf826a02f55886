// The consent UI's presentation as an app's tests drive it: plain `import WebCMPBridge` and
// `import WebCMPBridgeTesting`, no `@testable` (see IntegratorFlowTests.swift). `FakeConsentPresentation` reports what
// `ConsentViewController`, `.consentPrompt` and `ConsentWebView` report.
import Foundation
import Testing
import WebCMPBridge
import WebCMPBridgeTesting

@MainActor
@Suite struct IntegratorPresentationTests {
    func bridge(clock: ManualScheduler, tracking: FakeTrackingAuthorizer? = nil) -> ConsentBridge {
        var configuration = BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito)
        if tracking != nil { configuration.tracking = .afterConsent() }
        return ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: clock,
            trackingAuthorizer: tracking?.client ?? .unavailable)
    }

    func post(_ json: String, to webView: FakeWebView) {
        webView.post("jsHandler", json: json, origin: IntegratorStrings.cmpOrigin)
    }

    func settle() async {
        for _ in 0..<30 { await Task.yield() }
    }

    @Test func adSDKsStartInOnFinishAfterTheTrackingPromptEvenWhenTheAppKeepsNoReferenceToTheUI() async {
        let clock = ManualScheduler()
        let tracking = FakeTrackingAuthorizer()
        var started: [ConsentOutcome] = []
        weak var webView: FakeWebView?
        do {
            let ui = FakeConsentPresentation(bridge: bridge(clock: clock, tracking: tracking))
            ui.onFinish = { started.append($0) }
            ui.present()
            ui.shown()
            webView = ui.webView
            post(#"{"type":"save","tcstring":"\#(IntegratorStrings.acceptAll)"}"#, to: ui.webView)
            post(#"{"type":"close"}"#, to: ui.webView)
            tracking.active = false   // the tracking prompt waits until the app is active
            ui.dismissed()
        }
        await settle()
        #expect(started.isEmpty)
        tracking.becomeActive()
        await settle()
        #expect(tracking.requests == 1)
        #expect(started.count == 1)
        #expect(started.first?.trackingAuthorization == .authorized)
        #expect(webView == nil, "everything is released once the outcome was delivered")
    }

    @Test func aDoubleTapKeepsTheFirstPresentationAndATornDownScreenEndsTheRun() async {
        let clock = ManualScheduler()
        let ui = FakeConsentPresentation(bridge: bridge(clock: clock))
        var outcomes: [ConsentOutcome] = []
        ui.onFinish = { outcomes.append($0) }
        #expect(ui.present())
        #expect(!ui.presentAgain())
        ui.shown()
        post(#"{"type":"CMP-loaded"}"#, to: ui.webView)
        #expect(ui.bridge.state == .ready)
        ui.covered()
        ui.uncovered()
        ui.covered()
        ui.tornDown()   // the app replaced its window's root view controller
        await settle()
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.finishReason == .dismissedByUser)
        #expect(ui.bridge.state == .invalidated)
    }

    @Test func closeUnderAnErrorInAnEmbeddedUITellsTheAppThroughOnFinish() async {
        let clock = ManualScheduler()
        let ui = FakeConsentPresentation(bridge: bridge(clock: clock), embedded: true)
        var outcomes: [ConsentOutcome] = []
        ui.onFinish = { outcomes.append($0) }
        ui.embed()
        ui.webView.failLoading()
        await settle()
        #expect(ui.showsError)
        #expect(outcomes.isEmpty)
        ui.closeTapped()
        await settle()
        #expect(outcomes.first?.finishReason == .failed)
        #expect(ui.dismissalRequests == 0, "nothing to close: the app removes the view in onFinish")
    }
}
