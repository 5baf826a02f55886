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
    static let again = BridgeMachine.Effect.diagnostic(BridgeMachine.appSettingsAlreadyOpened)
    static var readyOnScreen: [BridgeMachine.Input] {
        [.presentationBegan] + started + [.gravito(#"{"type":"CMP-loaded"}"#)]
    }

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
            "a second request in the same foreground period is refused", configure: BridgeMachineTests.gravitoDialect,
            readyOnScreen + [.gravito(request), .gravito(request)],
            effects: [again], state: .ready),
        Transition(
            "a page posting in a loop opens Settings once", configure: BridgeMachineTests.gravitoDialect,
            readyOnScreen + Array(repeating: .gravito(request), count: 5), effects: [again], state: .ready),
        Transition(
            "inactive without the background (an alert, Control Center) starts no new period",
            configure: BridgeMachineTests.gravitoDialect,
            readyOnScreen + [
                .gravito(request), .webView(.appLifecycle(.willResignActive)),
                .webView(.appLifecycle(.didBecomeActive)), .gravito(request),
            ],
            effects: [again], state: .ready),
        Transition(
            "back from Settings (a new foreground period) it opens once more", configure: BridgeMachineTests.gravitoDialect,
            readyOnScreen + [
                .gravito(request), .webView(.appLifecycle(.willResignActive)),
                .webView(.appLifecycle(.didEnterBackground)), .webView(.appLifecycle(.willEnterForeground)),
                .webView(.appLifecycle(.didBecomeActive)), .gravito(request),
            ],
            effects: [.openAppSettings], state: .ready),
        Transition(
            "and only once in that period", configure: BridgeMachineTests.gravitoDialect,
            readyOnScreen + [
                .gravito(request), .webView(.appLifecycle(.didEnterBackground)),
                .webView(.appLifecycle(.willEnterForeground)), .gravito(request), .gravito(request),
            ],
            effects: [again], state: .ready),
        Transition(
            "a request refused off screen uses up nothing", configure: BridgeMachineTests.gravitoDialect,
            readyOnScreen + [.presentationCovered, .gravito(request), .presentationUncovered, .gravito(request)],
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

    struct RequestRow: Sendable, CustomTestStringConvertible {
        enum Step: Sendable { case request(onScreen: Bool), background }
        var name: String
        var steps: [Step]
        var expected: [AppSettingsRequests.Decision]
        var testDescription: String { name }
    }

    @Test(arguments: [
        RequestRow(name: "on screen: open", steps: [.request(onScreen: true)], expected: [.open]),
        RequestRow(name: "off screen: refused", steps: [.request(onScreen: false)], expected: [.refusedNotOnScreen]),
        RequestRow(name: "twice: the second refused", steps: [.request(onScreen: true), .request(onScreen: true)],
                   expected: [.open, .refusedAlreadyOpened]),
        RequestRow(name: "refused off screen, then open", steps: [.request(onScreen: false), .request(onScreen: true)],
                   expected: [.refusedNotOnScreen, .open]),
        RequestRow(name: "a background between two: both open",
                   steps: [.request(onScreen: true), .background, .request(onScreen: true)], expected: [.open, .open]),
        RequestRow(name: "off screen after opening: not on screen comes first",
                   steps: [.request(onScreen: true), .request(onScreen: false)],
                   expected: [.open, .refusedNotOnScreen]),
    ])
    func atMostOneOpeningPerForegroundPeriod(_ row: RequestRow) {
        var requests = AppSettingsRequests()
        var decisions: [AppSettingsRequests.Decision] = []
        for step in row.steps {
            switch step {
            case .request(let onScreen): decisions.append(requests.request(onScreen: onScreen))
            case .background: requests.appEnteredBackground()
            }
        }
        #expect(decisions == row.expected)
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
        harness.webView.post("jsHandler", json: Self.request, origin: "https://cmp.example.com")
        #expect(harness.webView.openedAppSettings == 1)
        #expect(harness.events.contains(.diagnostic(BridgeMachine.appSettingsAlreadyOpened)))
        #expect(harness.bridge.state == .ready)
        #expect(harness.errorCodes.isEmpty)
    }
}
