import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
struct BridgeHarness {
    let webView = FakeWebView()
    let clock = ManualScheduler()
    let tracking = FakeTrackingAuthorizer()
    let store: ConsentStore
    let bridge: ConsentBridge

    init(
        dialect: CMPDialect? = .gravito, store: ConsentStore = .inMemory(),
        configure: (inout BridgeConfiguration) -> Void = { _ in }
    ) {
        var configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/app/index.html?platform=ios")!, dialect: dialect)
        configure(&configuration)
        self.store = store
        bridge = ConsentBridge(
            configuration: configuration, store: store, scheduler: clock.scheduler,
            trackingAuthorizer: tracking.client)
        bridge.attach(to: webView)
        bridge.start()
    }

    var events: [ConsentBridgeEvent] { bridge.eventLog }

    /// The codes of every error, those the UI survives and the one that ended it.
    var errorCodes: [String] {
        events.compactMap { $0.reportedError?.code.rawValue }
    }

    /// The consent module's codes under the errors that carry one (a refused or unstored save).
    var consentCodes: [String] {
        events.compactMap { $0.reportedError?.consentError?.code.rawValue }
    }

    /// The codes of the errors that ended the UI (``ConsentBridgeEvent/failed(_:)``).
    var failureCodes: [String] {
        events.compactMap { if case .failed(let error) = $0 { return error.code.rawValue } else { return nil } }
    }

    var savedSummaries: [ConsentSummary] {
        events.compactMap { if case .consentReady(let summary) = $0 { return summary } else { return nil } }
    }

    /// The message object of the last `cookieData` injection, parsed back from the script.
    func lastInjection() throws -> [String: JSONValue] {
        try lastInjectionAndTarget().message
    }

    /// The message object of the last `cookieData` injection and the target origin it is posted to.
    func lastInjectionAndTarget() throws -> (message: [String: JSONValue], targetOrigin: String) {
        let script = try #require(webView.evaluated.last { $0.hasPrefix("window.postMessage(") })
        let arguments = String(script.dropFirst("window.postMessage(".count).dropLast(");".count))
        let split = try #require(arguments.range(of: ", \"", options: .backwards))
        let message = try #require(try JSONValue(parsing: String(arguments[..<split.lowerBound])).objectValue)
        let target = try #require(try JSONValue(parsing: String(arguments[split.lowerBound...].dropFirst(2))).stringValue)
        return (message, target)
    }

    func storedTCString() -> String? {
        if case .string(let value)? = store.iabKeys()["IABTCF_TCString"] { return value }
        return nil
    }
}

/// Lets the tasks the bridge started run until they wait again (twenty turns of the main actor's queue).
@MainActor
func settle() async {
    for _ in 0..<20 { await Task.yield() }
}

/// A started Gravito bridge on a fresh ``FakeWebView`` that asks for tracking before the CMP loads
/// (``TrackingPolicy/beforeCMP``) through `tracking`.
@MainActor
func startBridgeAskingForTrackingFirst(_ tracking: FakeTrackingAuthorizer) -> (bridge: ConsentBridge, webView: FakeWebView) {
    let webView = FakeWebView()
    var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app/index.html")!, dialect: .gravito)
    configuration.tracking = .beforeCMP
    let bridge = ConsentBridge(
        configuration: configuration, store: .inMemory(), scheduler: ManualScheduler().scheduler,
        trackingAuthorizer: tracking.client)
    bridge.attach(to: webView)
    bridge.start()
    return (bridge, webView)
}
