import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// CMPs that load the IAB stub first and replace `window.__tcfapi` later, and CMPs for which GDPR
/// does not apply. The forwarder runs in Node against fake pages (``ForwarderReadinessTests/posted(_:wait:)``).
@Suite struct ForwarderStubReplacementTests {
    static func posted(_ body: String) throws -> [JSONValue] { try ForwarderReadinessTests.posted(body, wait: 400) }

    /// The IAB stub: answers ping as not loaded, queues everything else.
    static let stub = """
        const queue = [];
        w.__tcfapi = (cmd, v, cb, arg) => { if (cmd === 'ping') cb({ cmpLoaded: false, cmpStatus: 'stub' }, true); else queue.push([cmd, v, cb, arg]); };
        """

    /// A CMP function replacing the stub 100 ms after load; `drain` says whether it replays the stub's queue.
    static func cmp(drain: Bool) -> String {
        """
        setTimeout(() => {
          const listeners = [];
          const tcData = (status) => ({ tcString: 'CQ-accept', gdprApplies: true, eventStatus: status, cmpId: 300, cmpVersion: 2, listenerId: 1 });
          const cmp = (cmd, v, cb) => {
            if (cmd === 'ping') cb({ cmpLoaded: true, cmpStatus: 'loaded' }, true);
            if (cmd === 'addEventListener') { listeners.push(cb); setTimeout(() => cb(tcData('tcloaded'), true), 5); }
          };
          w.__tcfapi = cmp;
          if (\(drain)) queue.forEach(([cmd, v, cb, arg]) => cmp(cmd, v, cb, arg));
          setTimeout(() => listeners.forEach((cb) => cb(tcData('useractioncomplete'), true)), 150);
        }, 100);
        """
    }

    static func tcfEvents(_ posted: [JSONValue]) -> [String] {
        posted.filter { $0["type"] == .string("tcf") }.compactMap { $0["eventStatus"]?.stringValue }
    }

    @Test func aStubReplacedAfterLoadWithoutDrainingItsQueueStillReachesTheCMP() throws {
        let posted = try Self.posted(Self.stub + Self.cmp(drain: false))
        #expect(posted.first == .object(["type": .string("ready"), "api": .string("tcf")]))
        #expect(Self.tcfEvents(posted) == ["tcloaded", "useractioncomplete"])
        #expect(posted.last?["tcString"] == .string("CQ-accept"))
    }

    @Test func aCMPThatDrainsTheStubsQueuePostsEachEventOnce() throws {
        let posted = try Self.posted(Self.stub + Self.cmp(drain: true))
        // The queued listener and the new registration both fire; only the newest registration posts.
        #expect(Self.tcfEvents(posted) == ["tcloaded", "useractioncomplete"])
    }

    /// The user acts before the forwarder noticed the replacement: the new registration is answered at once with the
    /// CMP's current state (useractioncomplete), which was already posted through the drained stub listener.
    @Test func aRegistrationAfterTheUsersChoiceDoesNotRepostIt() throws {
        let posted = try Self.posted(Self.stub + """
            setTimeout(() => {
              const listeners = [];
              let status = null;
              const tcData = (s) => ({ tcString: 'CQ-reject', gdprApplies: true, eventStatus: s, cmpId: 300, cmpVersion: 2 });
              const cmp = (cmd, v, cb) => {
                if (cmd === 'ping') cb({ cmpLoaded: true, cmpStatus: 'loaded' }, true);
                if (cmd === 'addEventListener') { listeners.push(cb); if (status) cb(tcData(status), true); }
              };
              w.__tcfapi = cmp;
              queue.forEach(([cmd, v, cb, arg]) => cmp(cmd, v, cb, arg));
              status = 'useractioncomplete';
              listeners.forEach((cb) => cb(tcData(status), true));   // before the forwarder's next look
            }, 100);
            """)
        #expect(Self.tcfEvents(posted) == ["useractioncomplete"])
    }

    @Test func withoutAReplacementOnlyTheOriginalListenerPosts() throws {
        let posted = try Self.posted("""
            w.__tcfapi = (cmd, v, cb) => {
              if (cmd === 'ping') cb({ cmpLoaded: true, cmpStatus: 'loaded' }, true);
              if (cmd === 'addEventListener') setTimeout(() => cb({ tcString: 'CQ-x', gdprApplies: true, eventStatus: 'tcloaded' }, true), 5);
            };
            """)
        #expect(Self.tcfEvents(posted) == ["tcloaded"])
    }

    /// TCData with `gdprApplies: false` and an empty TC string is the CMP's answer, forwarded as such.
    @Test func gdprDoesNotApplyIsForwardedWithoutATCString() throws {
        let posted = try Self.posted("""
            w.__tcfapi = (cmd, v, cb) => {
              if (cmd === 'ping') cb({ cmpLoaded: true, cmpStatus: 'loaded', gdprApplies: false }, true);
              if (cmd === 'addEventListener') setTimeout(() => cb({ tcString: '', gdprApplies: false, eventStatus: 'tcloaded', cmpId: 31, cmpVersion: 1 }, true), 5);
            };
            """)
        let event = try #require(posted.first { $0["type"] == .string("tcf") })
        #expect(event["gdprApplies"] == .bool(false))
        #expect(event["tcString"] == .null)
        #expect(event["eventStatus"] == .string("tcloaded"))
        // An empty string while GDPR applies (or is unknown) is still not consent.
        let undecided = try Self.posted("""
            w.__tcfapi = (cmd, v, cb) => {
              if (cmd === 'ping') cb({ cmpLoaded: true, cmpStatus: 'loaded' }, true);
              if (cmd === 'addEventListener') setTimeout(() => cb({ tcString: '', gdprApplies: true, eventStatus: 'tcloaded' }, true), 5);
            };
            """)
        #expect(Self.tcfEvents(undecided).isEmpty)
    }
}

/// The core's side of "GDPR does not apply": stored as `IABTCF_gdprApplies = 0` without a TC string, in force at the
/// next launch, and the UI ends (there is nothing to ask).
@MainActor
@Suite struct GDPRDoesNotApplyTests {
    @Test func theBridgeStoresGDPRDoesNotApplyAndFinishes() throws {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", .object(["type": .string("ready"), "api": .string("tcf")]))
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .null,
            "gdprApplies": .bool(false), "cmpId": .number(31), "cmpVersion": .number(4),
        ]))
        #expect(harness.errorCodes == [])
        let keys = harness.store.iabKeys()
        #expect(keys["IABTCF_gdprApplies"] == .int(0))
        #expect(keys["IABTCF_TCString"] == nil)
        #expect(keys["IABTCF_CmpSdkID"] == .int(31))
        #expect(harness.store.record()?.gdprApplies == false)
        harness.clock.advance(by: 1)
        #expect(harness.events.contains(.uiFinished(.consentSaved)))
        #expect(ConsentBridge.needsConsentUI(store: harness.store, now: harness.clock.now) == nil)
    }

    @Test func anEmptyTCStringWhileGDPRAppliesIsStillRefused() {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string(""),
            "gdprApplies": .bool(true),
        ]))
        #expect(harness.errorCodes == ["invalidMessage"])
        #expect(harness.store.iabKeys().isEmpty)
    }

    @Test func aLaterConsentReplacesIt() {
        let harness = BridgeHarness(dialect: .tcf)
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("tcloaded"), "gdprApplies": .bool(false),
        ]))
        harness.webView.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.acceptAll), "gdprApplies": .bool(true),
        ]))
        let keys = harness.store.iabKeys()
        #expect(keys["IABTCF_gdprApplies"] == .int(1))
        #expect(keys["IABTCF_TCString"] == .string(TestStrings.acceptAll))
    }
}
