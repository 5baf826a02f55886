import Foundation
import Testing
@testable import WebCMPBridge

/// The decisions the Apple glue delegates to the core.
@Suite struct PlatformSupportTests {
    @Test func originFromPlatformParts() {
        #expect(SecurityOrigin.origin(protocol: "https", host: "CMP.example.com", port: 0) == "https://cmp.example.com")
        #expect(SecurityOrigin.origin(protocol: "https", host: "cmp.example.com", port: 443) == "https://cmp.example.com")
        #expect(SecurityOrigin.origin(protocol: "http", host: "127.0.0.1", port: 8080) == "http://127.0.0.1:8080")
        #expect(SecurityOrigin.origin(protocol: "file", host: "", port: 0) == "file://")
        #expect(SecurityOrigin.isAllowed(SecurityOrigin.origin(protocol: "https", host: "cmp.example.com", port: 0),
                                         in: ["https://cmp.example.com:443"]))
    }

    @Test func sharingScriptsAreRecognised() {
        let script = ConsentSharing.userScript(record: nil, keys: IABKeySet())
        #expect(ConsentSharing.isSharingScript(script.source))
        #expect(!ConsentSharing.isSharingScript("console.log(1)"))
        #expect(!script.forMainFrameOnly)
    }

    @Test func trackingUsageDescriptionIsRequired() {
        #expect(throws: TrackingAuthorizationError.missingUsageDescription) { try TrackingUsageDescription.validate(nil) }
        #expect(throws: TrackingAuthorizationError.missingUsageDescription) { try TrackingUsageDescription.validate(["NSUserTrackingUsageDescription": "  "]) }
        #expect(throws: TrackingAuthorizationError.missingUsageDescription) { try TrackingUsageDescription.validate(["NSUserTrackingUsageDescription": 1]) }
        #expect(throws: Never.self) { try TrackingUsageDescription.validate(["NSUserTrackingUsageDescription": "Ads that fit you"]) }
    }

    @Test func presentation() {
        #expect(ConsentBridgeEvent.uiFinished(.closed).endsPresentation)
        #expect(!ConsentBridgeEvent.uiReady(.gravito).endsPresentation)
    }

    @MainActor @Test func presentationGateRefusesASecondPresentation() {
        let gate = PresentationGate()
        let first = gate.begin()
        #expect(first != nil)
        #expect(gate.begin() == nil)
        // Only the presentation that began it ends it: a stale or missing token changes nothing.
        gate.end(nil)
        #expect(gate.isPresenting)
        gate.end(first)
        #expect(!gate.isPresenting)
        let second = gate.begin()
        #expect(second != nil && second != first)
        gate.end(first)
        #expect(gate.isPresenting)
    }

    @Test func foundationBodiesConvertUnderLimits() throws {
        let body: [String: Any] = ["type": "save", "tcstring": "CQ", "n": NSNumber(value: 3), "flag": NSNumber(value: true),
                                   "list": [1, "a", NSNull()], "date": Date(timeIntervalSince1970: 1.5)]
        let value = try JSONValue(foundation: body)
        #expect(value["type"] == .string("save"))
        #expect(value["n"] == .number(3))
        #expect(value["flag"] == .bool(true))
        #expect(value["list"] == .array([.number(1), .string("a"), .null]))
        #expect(value["date"] == .number(1500))
        var deep: Any = "x"
        for _ in 0..<100 { deep = [deep] }
        #expect(throws: InboundMessageError.tooDeep(limit: 32)) { try JSONValue(foundation: deep) }
        #expect(throws: InboundMessageError.self) { try JSONValue(foundation: ["s": String(repeating: "a", count: 70_000)]) }
        #expect(throws: InboundMessageError.self) { try JSONValue(foundation: NSObject()) }
        #expect(throws: InboundMessageError.self) { try JSONValue(foundation: [1: "non-string key"]) }
    }
}
