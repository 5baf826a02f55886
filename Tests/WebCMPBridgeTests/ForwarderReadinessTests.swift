import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The TCF/GPP forwarder in Node against fake pages: "ready" only once a CMP answers `ping` as loaded, GPP-only pages,
/// GPP events and `__uspapi`.
@Suite struct ForwarderReadinessTests {
    static let source = CMPScripts.tcfForwarderSource(handlerName: "webcmpTCF", apiWaitMilliseconds: 600, pingMilliseconds: 20)

    /// Runs `body` in a fresh page with the forwarder and prints what was posted after `wait` ms.
    static func posted(_ body: String, wait: Int = 300) throws -> [JSONValue] {
        let script = ScriptResourceTests.prelude + """
            const p = page(['webcmpTCF']);
            const w = p.context;
            \(body)
            p.run(\(JavaScriptLiteral.string(source)));
            setTimeout(() => { process.stdout.write(JSON.stringify(p.posted.map(([, m]) => m))); process.exit(0); }, \(wait));
            """
        return try #require(try JSONValue(parsing: try NodeRunner.run(script)).arrayValue)
    }

    static func types(_ posted: [JSONValue]) -> [String] { posted.compactMap { $0["type"]?.stringValue } }

    /// The IAB stub answers ping with `cmpLoaded: false` and queues the rest: a page whose CMP script never loads
    /// never becomes ready.
    @Test func aStubWhoseCMPNeverLoadsIsNeverReady() throws {
        let posted = try Self.posted("""
            let pings = 0;
            w.__tcfapi = (cmd, v, cb) => { if (cmd === 'ping') { pings++; cb({ gdprApplies: undefined, cmpLoaded: false, cmpStatus: 'stub' }, true); } };
            w.__gpp = (cmd, cb) => { if (cmd === 'ping') cb({ cmpStatus: 'stub', signalStatus: 'not ready' }, true); };
            setTimeout(() => { if (pings < 5) p.posted.push(['x', { type: 'too few pings' }]); }, 250);
            """)
        #expect(posted == [])
    }

    /// A CMP that loads on its fourth ping (answering asynchronously, as real CMPs do) is ready once.
    @Test func readyOnceTheCMPAnswersPingAsLoaded() throws {
        let posted = try Self.posted("""
            let pings = 0;
            w.__tcfapi = (cmd, v, cb) => { if (cmd === 'ping') { pings++; const n = pings;
              setTimeout(() => cb({ cmpLoaded: n >= 4, cmpStatus: n >= 4 ? 'loaded' : 'loading' }, true), 1); } };
            """)
        #expect(posted == [.object(["type": .string("ready"), "api": .string("tcf")])])
    }

    /// A CMP that already shows its UI when it is found (it opened it on its own, before any listener) says so in its
    /// ping (`displayStatus: "visible"`): posted once, as `cmpuishown`, before ready — the evidence privacy settings
    /// need. A hidden one posts nothing but ready.
    @Test(arguments: ["visible", "hidden"])
    func aUIAlreadyShownIsReportedFromThePing(displayStatus: String) throws {
        let posted = try Self.posted("""
            w.__tcfapi = (cmd, v, cb) => { if (cmd === 'ping') cb({ cmpLoaded: true, cmpStatus: 'loaded',
              displayStatus: \(JavaScriptLiteral.string(displayStatus)) }, true); };
            """)
        let ready = JSONValue.object(["type": .string("ready"), "api": .string("tcf")])
        let shown = JSONValue.object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")])
        #expect(posted == (displayStatus == "visible" ? [shown, ready] : [ready]))
    }

    /// A US page with only `__gpp` (v1.1) becomes ready through it and its events are forwarded with their state;
    /// `__uspapi` is read when the CMP is ready and after a section change.
    @Test func gppOnlyPageIsReadyThroughGPPAndForwardsEventsAndUSP() throws {
        let posted = try Self.posted("""
            let usp = '1YNN';
            w.__uspapi = (cmd, v, cb) => { if (cmd === 'getUSPData' && v === 1) cb({ version: 1, uspString: usp }, true); };
            const listeners = [];
            let ping = { gppVersion: '1.1', cmpStatus: 'loading', cmpDisplayStatus: 'hidden', signalStatus: 'not ready',
              supportedAPIs: ['7:usnat'], cmpId: 31, sectionList: [], applicableSections: [-1], gppString: 'DBAA', parsedSections: {} };
            const fire = (eventName) => listeners.forEach((cb) => cb({ eventName, listenerId: 1, data: null, pingData: ping }, true));
            w.__gpp = (cmd, cb) => {
              if (cmd === 'ping') cb(ping, true);
              if (cmd === 'addEventListener') { listeners.push(cb); cb({ eventName: 'listenerRegistered', listenerId: 1, data: true, pingData: ping }, true); }
            };
            setTimeout(() => { ping = Object.assign({}, ping, { cmpStatus: 'loaded', cmpDisplayStatus: 'visible', signalStatus: 'ready' }); fire('cmpDisplayStatus'); }, 50);
            setTimeout(() => {
              usp = '1YYN';
              ping = Object.assign({}, ping, { gppString: 'DBABLA~CVVVkkkkkpFY.YA', applicableSections: [7], sectionList: [7] });
              fire('sectionChange'); fire('error');
              ping = Object.assign({}, ping, { cmpDisplayStatus: 'hidden' }); fire('cmpDisplayStatus');
            }, 150);
            """)
        func gpp(_ event: String, _ signal: String, _ display: String, _ string: String, _ sections: [Int]) -> JSONValue {
            .object(["type": .string("gpp"), "eventName": .string(event), "signalStatus": .string(signal),
                     "cmpDisplayStatus": .string(display), "gppString": .string(string),
                     "applicableSections": .array(sections.map { .number(Double($0)) })])
        }
        #expect(posted == [
            gpp("listenerRegistered", "not ready", "hidden", "DBAA", []),
            gpp("cmpDisplayStatus", "ready", "visible", "DBAA", []),
            .object(["type": .string("ready"), "api": .string("gpp")]),
            .object(["type": .string("usp"), "uspString": .string("1YNN")]),
            gpp("sectionChange", "ready", "visible", "DBABLA~CVVVkkkkkpFY.YA", [7]),
            .object(["type": .string("usp"), "uspString": .string("1YYN")]),
            gpp("cmpDisplayStatus", "ready", "hidden", "DBABLA~CVVVkkkkkpFY.YA", [7]),
        ])
    }

    /// Hostile or broken APIs post nothing they should not, and never throw into the page.
    @Test func brokenAPIsPostNothingInvalid() throws {
        let posted = try Self.posted("""
            w.__tcfapi = (cmd, v, cb) => { if (cmd === 'ping') cb({ cmpLoaded: 'yes' }, true); else throw new Error('x'); };
            w.__gpp = (cmd, cb) => { if (cmd === 'ping') cb(null, true);
              else { cb({ eventName: 'signalStatus', pingData: null }, true); cb('x', true); cb({ eventName: 'signalStatus', pingData: {} }, false); } };
            w.__uspapi = () => { throw new Error('y'); };
            """)
        #expect(posted == [])
    }
}
