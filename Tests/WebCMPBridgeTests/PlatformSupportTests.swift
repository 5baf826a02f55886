import Foundation
import Testing
@testable import IABInAppConsent
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

    /// The bridge's allow list (origins normalised once, exact spellings without parsing) answers as the one-off
    /// check does, for ordinary, unusual and broken origins on both sides.
    @Test func allowListAnswersAsTheOneOffCheck() {
        let allowed: Set<String> = [
            "https://cmp.example.com", "HTTPS://Prefs.Example.com:443/", " http://127.0.0.1:8080 ", "https://a%2Fb.example",
            "not an origin", "file://",
        ]
        let list = SecurityOrigin.AllowList(allowed)
        let candidates = allowed.union([
            "https://cmp.example.com:443", "https://prefs.example.com", "http://127.0.0.1:8080", "https://a/b.example",
            "https://evil.example", "null", "", " ", "https://cmp.example.com/path", "file:///", "\u{2003}https://cmp.example.com",
        ])
        for origin in candidates {
            #expect(list.contains(origin) == SecurityOrigin.isAllowed(origin, in: allowed), "\(origin)")
            if let url = URL(string: origin) {
                #expect(list.contains(url) == SecurityOrigin.isAllowed(url, in: allowed), "\(origin) as a URL")
            }
        }
        #expect(list.adding("webcmp-fallback://app").contains("WEBCMP-FALLBACK://app"))
        #expect(!list.contains("webcmp-fallback://app"))
    }

    @Test func sharingScriptsAreRecognised() {
        let script = ConsentSharing.userScript(record: nil, keys: IABKeySet())
        #expect(ConsentSharing.isSharingScript(script.source))
        #expect(!ConsentSharing.isSharingScript("console.log(1)"))
        #expect(script.forMainFrameOnly)
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
        let owner = NSObject()
        let first = gate.begin(owner: owner)
        #expect(first != nil)
        #expect(gate.begin(owner: owner) == nil)
        // Only the presentation that began it ends it: a stale or missing token changes nothing.
        gate.end(nil)
        #expect(gate.isPresenting)
        gate.end(first)
        #expect(!gate.isPresenting)
        let second = gate.begin(owner: owner)
        #expect(second != nil && second != first)
        gate.end(first)
        #expect(gate.isPresenting)
    }

    /// A presentation UIKit refused (never confirmed) or whose owner is gone does not block the
    /// next one until the app is relaunched.
    @MainActor @Test func presentationGateIsReleasedWhenThePresentationNeverAppearsOrItsOwnerIsGone() {
        var now = Date(timeIntervalSince1970: 0)
        let gate = PresentationGate(confirmationTimeout: 3, now: { now })
        var owner: NSObject? = NSObject()
        let refused = gate.begin(owner: owner!)
        #expect(refused != nil)
        now += 2.9
        #expect(gate.isPresenting)
        now += 0.2   // never confirmed: UIKit did not present it, or the sheet never appeared
        #expect(!gate.isPresenting)
        let confirmed = gate.begin(owner: owner!)
        #expect(confirmed != nil)
        gate.confirm(confirmed)
        now += 600   // a confirmed presentation holds the gate as long as it is up
        #expect(gate.isPresenting)
        gate.confirm(refused)   // a stale token confirms nothing
        owner = nil             // the controller was deallocated without ending its presentation
        #expect(!gate.isPresenting)
        let next = gate.begin(owner: NSObject())
        #expect(next != nil)
        #expect(!gate.isPresenting)   // its owner, a temporary, is already gone: the gate is free again
        let kept = NSObject()
        #expect(gate.begin(owner: kept) != nil)
        #expect(gate.isPresenting)
        withExtendedLifetime(kept) {}
    }
    /// A presentation UIKit showed later than the confirmation timeout (queued behind another transition) holds the
    /// gate again when its confirmation comes, unless another presentation began meanwhile.
    @MainActor @Test func aLateConfirmationHoldsTheGateAgainUnlessAnotherPresentationBegan() {
        var now = Date(timeIntervalSince1970: 0)
        let gate = PresentationGate(confirmationTimeout: 3, now: { now })
        let owner = NSObject()
        let late = gate.begin(owner: owner)
        now += 5
        #expect(!gate.isPresenting)
        gate.confirm(late)   // UIKit's completion / viewDidAppear, after the timeout
        #expect(gate.isPresenting)
        #expect(gate.begin(owner: NSObject()) == nil)
        gate.end(late)

        let queued = gate.begin(owner: owner)
        now += 5
        let other = NSObject()
        let next = gate.begin(owner: other)
        #expect(next != nil)
        gate.confirm(queued)   // too late: the gate is the other presentation's
        gate.confirm(next)
        gate.end(queued)
        #expect(gate.isPresenting)
        withExtendedLifetime(other) {}
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
        #expect(throws: JSONInputError.tooDeep(limit: 32)) { try JSONValue(foundation: deep) }
        #expect(throws: JSONInputError.self) { try JSONValue(foundation: ["s": String(repeating: "a", count: 70_000)]) }
        #expect(throws: JSONInputError.self) { try JSONValue(foundation: NSObject()) }
        #expect(throws: JSONInputError.self) { try JSONValue(foundation: [1: "non-string key"]) }
    }
}
