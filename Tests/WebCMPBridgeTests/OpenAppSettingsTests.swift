import Foundation
import Testing
import WebCMPBridgeTesting
@testable import WebCMPBridge

/// The page may ask for the app's Settings (`{type: "webcmp.openAppSettings"}`, any dialect's
/// handler); the app opens them only while the page is ready and its UI is on screen.
@Suite struct OpenAppSettingsTests {
    static let request = #"{"type":"webcmp.openAppSettings"}"#
    static var started: [BridgeMachine.Input] { BridgeMachineTests.started }
    static let refused = BridgeMachine.Effect.diagnostic(BridgeMachine.appSettingsRefused)

    @Test(arguments: [
        Transition(
            "ready and presented: Settings open", configure: BridgeMachineTests.gravitoDialect,
            [.presentationBegan] + started + [.gravito(#"{"type":"CMP-loaded"}"#), .gravito(request)],
            effects: [.openAppSettings], state: .ready),
        Transition(
            "through the forwarder's handler", configure: BridgeMachineTests.tcfDialect,
            [.presentationBegan] + started + [.tcf(#"{"type":"ready"}"#), .tcf(request)],
            effects: [.openAppSettings], state: .ready),
        Transition(
            "through Onesecondbefore's handler, once its page finished loading",
            configure: BridgeMachineTests.osbDialect,
            [.presentationBegan] + started + [.finished(load: 1), .osb(request)],
            effects: [.openAppSettings], state: .ready),
        Transition(
            "a page still loading is refused", configure: BridgeMachineTests.gravitoDialect,
            [.presentationBegan] + started + [.gravito(request)], effects: [refused], state: .loading),
        Transition(
            "a pre-warmed page out of sight is refused", configure: BridgeMachineTests.gravitoDialect,
            started + [.gravito(#"{"type":"CMP-loaded"}"#), .gravito(request)], effects: [refused], state: .ready),
        Transition(
            "a covered UI is refused", configure: BridgeMachineTests.gravitoDialect,
            [.presentationBegan] + started + [
                .gravito(#"{"type":"CMP-loaded"}"#), .presentationCovered, .gravito(request),
            ],
            effects: [refused], state: .ready),
        Transition(
            "in the background (Settings already in front) it is refused", configure: BridgeMachineTests.gravitoDialect,
            [.presentationBegan] + started + [
                .gravito(#"{"type":"CMP-loaded"}"#), .webView(.appLifecycle(.didEnterBackground)), .gravito(request),
            ],
            effects: [refused], state: .ready),
        Transition(
            "and allowed again once the app is back", configure: BridgeMachineTests.gravitoDialect,
            [.presentationBegan] + started + [
                .gravito(#"{"type":"CMP-loaded"}"#), .webView(.appLifecycle(.didEnterBackground)),
                .webView(.appLifecycle(.willEnterForeground)), .gravito(request),
            ],
            effects: [.openAppSettings], state: .ready),
        Transition(
            "from a sub-frame it is refused like every message", configure: BridgeMachineTests.gravitoDialect,
            [.presentationBegan] + started + [
                .gravito(#"{"type":"CMP-loaded"}"#), .message("jsHandler", request, mainFrame: false),
            ],
            effects: [.error(.notMainFrame(handler: "jsHandler"))], state: .ready),
        Transition(
            "from another origin too", configure: BridgeMachineTests.gravitoDialect,
            [.presentationBegan] + started + [
                .gravito(#"{"type":"CMP-loaded"}"#), .message("jsHandler", request, origin: "https://evil.example"),
            ],
            effects: [.error(.forbiddenOrigin(handler: "jsHandler", origin: "https://evil.example"))], state: .ready),
        Transition(
            "a name with other case is the dialect's to judge", configure: BridgeMachineTests.tcfDialect,
            [.presentationBegan] + started + [.tcf(#"{"type":"ready"}"#), .tcf(#"{"type":"WEBCMP.openAppSettings"}"#)],
            effects: [.error(.invalidMessage(
                handler: "webcmpTCF", .unknownMessageType("WEBCMP.openAppSettings")))],
            state: .ready),
        Transition(
            "the request commits nothing and fixes no dialect", [.presentationBegan] + started + [.tcf(request)],
            effects: [refused], state: .loading),
    ])
    func whenSettingsOpen(_ row: Transition) {
        row.check()
    }

    @Test func decodedTheSameInEveryDialect() throws {
        let decoder = CMPMessageDecoder()
        for rules in DialectRegistry.all {
            let (dialect, message) = try decoder.decode(
                handlerName: rules.handlerName, body: .object(["type": .string(CMPMessage.openAppSettingsType)]))
            #expect(dialect == rules.dialect)
            #expect(message == .openAppSettings)
            #expect(!message.fixesGenericDialect)
        }
    }

    /// With the bridge and the fake web view: the adapter's ``CMPWebView/openAppSettings()`` is called once per
    /// accepted request, never for a refused one, and the run goes on.
    @MainActor
    @Test func theBridgeAsksTheWebViewToOpenSettings() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", json: Self.request, origin: "https://cmp.example.com")
        #expect(harness.webView.openedAppSettings == 0)
        #expect(harness.events.contains(.diagnostic(BridgeMachine.appSettingsRefused)))
        harness.bridge.beginPresentation()
        harness.webView.post("jsHandler", json: #"{"type":"CMP-loaded"}"#, origin: "https://cmp.example.com")
        harness.webView.post("jsHandler", json: Self.request, origin: "https://cmp.example.com")
        #expect(harness.webView.openedAppSettings == 1)
        #expect(harness.bridge.state == .ready)
        #expect(harness.errorCodes.isEmpty)
    }
}
