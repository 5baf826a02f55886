import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The sharing script and the page's iframes, run in Node: the script runs in the main frame only and answers frames
/// through the IAB cross-frame protocol (TCF CMP API v2.2, GPP CMP API v1.1 and USP API v1.0, "How can vendors that
/// use iframes call the … API from an iframe?"): locator frames, `__tcfapiCall` → `__tcfapiReturn`, `__gppCall` →
/// `__gppReturn`, `__uspapiCall` → `__uspapiReturn`.
extension SharingScriptTests {
    /// A fake top window: `window.top === window`, `window.frames === window` (so a frame named N is `window.frames[N]`),
    /// a document whose `<body>` the parser inserts later (`insertBody()`, which runs the mutation observers), a frame
    /// of the page's own that it inserts later (`insertFrame()`: `window.length` counts the frames, as in a browser, and
    /// the observers run), `DOMContentLoaded` (`contentLoaded()`), and child frames of other origins (`child(origin)`) that `send` messages to the top window and collect what it posts back
    /// (structured-cloned, as `postMessage` does).
    static let framesPage = """
        globalThis.window = globalThis;
        window.top = window;
        window.frames = window;
        const messageListeners = [];
        const loadListeners = [];
        window.addEventListener = (type, fn) => {
          if (type === 'message') messageListeners.push(fn);
          if (type === 'load') loadListeners.push(fn);
        };
        const observers = [];
        globalThis.MutationObserver = class {
          constructor(callback) { this.callback = callback; this.observing = false; observers.push(this); }
          observe() { this.observing = true; }
          disconnect() { this.observing = false; }
        };
        const appended = [];
        window.length = 0;
        const body = { appendChild: (element) => {
          appended.push(element);
          if (element.tagName === 'IFRAME') { window.length += 1; }
          if (element.name) { window[element.name] = { frameNamed: element.name }; }
          return element;
        } };
        const documentListeners = [];
        globalThis.document = {
          body: null,
          createElement: (tag) => ({ tagName: tag.toUpperCase(), style: {}, attributes: {},
                                     setAttribute(name, value) { this.attributes[name] = value; } }),
          addEventListener: (type, fn) => { documentListeners.push([type, fn]); },
          removeEventListener: () => {},
        };
        const mutated = () => observers.filter((o) => o.observing).forEach((o) => o.callback([]));
        const insertBody = () => {
          document.body = body;
          mutated();
        };
        const insertFrame = () => {
          body.appendChild({ tagName: 'IFRAME', name: '', style: {} });
          mutated();
        };
        // A frame inserted where the document's mutation observer does not look (inside a shadow root).
        const insertUnseenFrame = () => { body.appendChild({ tagName: 'IFRAME', name: '', style: {} }); };
        const loaded = () => loadListeners.forEach((fn) => fn());
        const contentLoaded = () => documentListeners.filter(([type]) => type === 'DOMContentLoaded').forEach(([, fn]) => fn());
        const locators = () => appended.filter((e) => e.name).map((e) => [e.tagName, e.name, e.style.display].join(':'));
        const child = (origin) => {
          const received = [];
          return { origin, received, source: { postMessage: (message, target) => received.push([structuredClone(message), target]) } };
        };
        const send = (frame, data) => messageListeners.forEach((fn) => fn({ data: structuredClone(data), origin: frame.origin, source: frame.source }));
        const tcfCall = (command, callId, parameter) => ({ __tcfapiCall: { command, version: 2, callId, parameter } });
        const print = (value) => process.stdout.write(JSON.stringify(value));

        """

    /// What `locators()` prints when the script added all three locator frames, in its order.
    static let threeLocators = JSONValue.array([
        .string("IFRAME:__tcfapiLocator:none"), .string("IFRAME:__gppLocator:none"), .string("IFRAME:__uspapiLocator:none"),
    ])

    static let frameRecord = ConsentRecord(
        strings: ConsentStrings(tcString: TestStrings.acceptAll, gppString: "DBABMA~" + TestStrings.acceptAll, usPrivacy: "1YNN"),
        savedAt: Date(timeIntervalSince1970: 1))
    /// The usual EU record: a TC string only.
    static let tcfOnlyRecord = ConsentRecord(
        strings: ConsentStrings(tcString: TestStrings.acceptAll), savedAt: Date(timeIntervalSince1970: 1))
    static let frameChanged = ConsentRecord(
        strings: ConsentStrings(tcString: TestStrings.rejectAll, gppString: "DBABMA~" + TestStrings.rejectAll, usPrivacy: "1YYN"),
        savedAt: Date(timeIntervalSince1970: 2))

    func install(_ record: ConsentRecord = Self.frameRecord) throws -> String {
        let tc = try #require(record.tcString)
        return ConsentSharing.userScript(record: record, keys: try keys(tc, gpp: record.gppString)).source
    }

    func update(_ record: ConsentRecord = Self.frameChanged) throws -> String {
        let tc = try #require(record.tcString)
        return ConsentSharing.updateScript(record: record, keys: try keys(tc, gpp: record.gppString))
    }

    func runFrames(_ script: String) throws -> JSONValue {
        try JSONValue(parsing: try NodeRunner.run(Self.framesPage + script))
    }

    // MARK: Main frame only

    @Test func userScriptIsMainFrameOnlyAndDoesNothingInAFrame() throws {
        let script = ConsentSharing.userScript(record: Self.frameRecord, keys: try keys(TestStrings.acceptAll))
        #expect(script.forMainFrameOnly)
        #expect(script.injectionTime == .documentStart)
        // Run anyway in a frame (window.top is another window): nothing is installed there, so a local __tcfapi never
        // shadows the page's CMP, which frames find through the locator of an ancestor.
        let output = try runFrames("""
            window.top = { another: 'window' };
            \(script.source)
            insertBody();
            print({ tcfapi: typeof window.__tcfapi, gpp: typeof window.__gpp, uspapi: typeof window.__uspapi,
                    sharing: typeof window.__webcmpSharing, listeners: messageListeners.length, locators: locators() });
            """)
        #expect(output == .object([
            "tcfapi": .string("undefined"), "gpp": .string("undefined"), "uspapi": .string("undefined"),
            "sharing": .string("undefined"), "listeners": .number(0), "locators": .array([]),
        ]))
        // Control: the same fake as the main frame gets all of them.
        let main = try runFrames("""
            \(script.source)
            print([typeof window.__tcfapi, typeof window.__webcmpSharing, messageListeners.length]);
            """)
        #expect(main == .array([.string("function"), .string("object"), .number(1)]))
    }

    // MARK: Locator frames

    /// At document start there is no `<body>`, and a page without frames gets no locator frames (only scripts in frames
    /// look for one, and each costs the page's parse a frame): they appear when the page has `<body>` and a frame of its
    /// own (after the head's scripts, where a page CMP's stub looks for a locator), hidden, one per native-backed API,
    /// and only once.
    @Test func locatorFramesAreAddedOnceThePageHasAFrame() throws {
        let output = try runFrames("""
            \(try install())
            const before = locators();
            const watching = observers.filter((o) => o.observing).length;
            insertBody();
            const withBodyOnly = locators();
            const watchingWithBodyOnly = observers.filter((o) => o.observing).length;
            insertFrame();
            const after = locators();
            insertFrame();
            print({ before, watching, withBodyOnly, watchingWithBodyOnly, after, again: locators().length,
                    stillWatching: observers.filter((o) => o.observing).length,
                    found: typeof window.frames['__tcfapiLocator'] });
            """)
        #expect(output["before"] == .array([]))
        #expect(output["watching"] == .number(1))
        #expect(output["withBodyOnly"] == .array([]))
        #expect(output["watchingWithBodyOnly"] == .number(1))
        #expect(output["after"] == Self.threeLocators)
        #expect(output["again"] == .number(3))
        #expect(output["stillWatching"] == .number(0))
        #expect(output["found"] == .string("object"))
    }

    /// An engine without `MutationObserver` (none current) cannot see a frame arrive: the locator frames are added at
    /// `DOMContentLoaded`, frames or not.
    @Test func locatorFramesAreAddedAtDOMContentLoadedWithoutMutationObserver() throws {
        let output = try runFrames("""
            delete globalThis.MutationObserver;
            \(try install())
            insertBody();
            const withBodyOnly = locators();
            contentLoaded();
            print({ withBodyOnly, after: locators() });
            """)
        #expect(output["withBodyOnly"] == .array([]))
        #expect(output["after"] == Self.threeLocators)
    }

    /// A frame the document's mutation observer cannot see (one inserted inside a shadow root) gets its locators at the
    /// page's load event at the latest; a page that still has no frame then gets none.
    @Test func locatorFramesAreAddedAtTheLoadEventForAFrameTheObserverDidNotSee() throws {
        let output = try runFrames("""
            \(try install())
            insertBody();
            insertUnseenFrame();
            const unseen = locators();
            loaded();
            print({ unseen, after: locators() });
            """)
        #expect(output["unseen"] == .array([]))
        #expect(output["after"] == Self.threeLocators)
        let frameless = try runFrames("""
            \(try install())
            insertBody();
            loaded();
            print(locators());
            """)
        #expect(frameless == .array([]))
    }

    /// A frame of that name already exists (a page CMP's stub added one): no second one.
    @Test func locatorFramesAreNotAddedWhenThePageHasThem() throws {
        let output = try runFrames("""
            window.__tcfapiLocator = { frameNamed: 'page' };
            window.__uspapiLocator = { frameNamed: 'page' };
            \(try install())
            insertBody();
            insertFrame();
            print(locators());
            """)
        #expect(output == .array([.string("IFRAME:__gppLocator:none")]))
    }

    /// A page CMP stub in the `<head>` replaces the native-backed `__tcfapi` before `<body>` exists: its API, its locator
    /// (the reference stub adds it once `<body>` exists); the script adds only the locators of the APIs it still backs.
    @Test func noLocatorForAnAPIThePageReplacedBeforeTheBody() throws {
        let output = try runFrames("""
            \(try install())
            window.__tcfapi = function pageStub() {};
            insertBody();
            insertFrame();
            print(locators());
            """)
        #expect(output == .array([.string("IFRAME:__gppLocator:none"), .string("IFRAME:__uspapiLocator:none")]))
    }

    /// A record with a TC string only (the usual one in the EU): one locator, `__tcfapiLocator`. `__gpp` and
    /// `__uspapi` would answer "no section applies" and "no data", what a frame concludes from finding no locator,
    /// so the page is spared their frames; an update that brings a GPP and a US Privacy string adds their locators
    /// (once: a further update adds none), and a frame then gets the strings through them.
    @Test func locatorFramesAreAddedOnlyForAnAPIWithAStringAndWhenAnUpdateBringsOne() throws {
        let output = try runFrames("""
            \(try install(Self.tcfOnlyRecord))
            insertBody();
            insertFrame();
            const tcfOnly = locators();
            const ad = child('https://ads.example');
            send(ad, { __uspapiCall: { command: 'getUSPData', version: 1, callId: 'u-1' } });
            \(try update())
            const updated = locators();
            send(ad, { __uspapiCall: { command: 'getUSPData', version: 1, callId: 'u-2' } });
            \(try update(Self.frameRecord))
            print({ tcfOnly, updated, again: locators().length,
                    usp: ad.received.map(([m]) => [m.__uspapiReturn.callId, m.__uspapiReturn.success,
                                                   m.__uspapiReturn.returnValue && m.__uspapiReturn.returnValue.uspString]) });
            """)
        #expect(output["tcfOnly"] == .array([.string("IFRAME:__tcfapiLocator:none")]))
        #expect(output["updated"] == Self.threeLocators)
        #expect(output["again"] == .number(3))
        #expect(output["usp"] == .array([
            .array([.string("u-1"), .bool(false), .null]), .array([.string("u-2"), .bool(true), .string("1YYN")]),
        ]))
    }

    /// A US record (a GPP and a US Privacy string, no TC string): all three locators. `__tcfapi` still tells a frame
    /// that GDPR does not apply, which a vendor cannot conclude from finding no CMP.
    @Test func aRecordWithoutATCStringStillGetsTheTCFLocator() throws {
        let us = ConsentRecord(strings: ConsentStrings(gppString: "DBABMA~" + TestStrings.acceptAll, usPrivacy: "1YNN"),
                               gdprApplies: false, savedAt: Date(timeIntervalSince1970: 1))
        let script = ConsentSharing.userScript(record: us, keys: IABKeySet(["IABTCF_gdprApplies": .int(0)]))
        let output = try runFrames("""
            \(script.source)
            insertBody();
            insertFrame();
            let ping;
            window.__tcfapi('ping', 2, (value) => { ping = value; });
            print({ locators: locators(), gdprApplies: ping.gdprApplies });
            """)
        #expect(output["locators"] == Self.threeLocators)
        #expect(output["gdprApplies"] == .bool(false))
    }

    /// An update before the page shows a frame adds nothing (a page without frames needs no locator); the page's first
    /// frame then gets the locators of the strings the update brought.
    @Test func anUpdateBeforeThePageHasAFrameAddsNoLocator() throws {
        let output = try runFrames("""
            \(try install(Self.tcfOnlyRecord))
            insertBody();
            \(try update())
            const beforeFrame = locators();
            insertFrame();
            print({ beforeFrame, after: locators() });
            """)
        #expect(output["beforeFrame"] == .array([]))
        #expect(output["after"] == Self.threeLocators)
    }

    // MARK: __tcfapiCall

    @Test func tcfapiCallsFromAFrameAreAnsweredWithTheirCallID() throws {
        let output = try runFrames("""
            \(try install())
            const ad = child('https://ads.example');
            const sandboxed = child('null');
            send(ad, tcfCall('ping', 'p-1'));
            send(ad, tcfCall('getTCData', 'g-1'));
            send(ad, tcfCall('addEventListener', 7));
            send(ad, tcfCall('unknownCommand', 'u-1'));
            send(sandboxed, tcfCall('getTCData', 'g-2'));
            send(ad, { other: 'message' });
            send(ad, { __tcfapiCall: null });
            const pick = ([m, target]) => [m.__tcfapiReturn.callId, m.__tcfapiReturn.success, target,
              m.__tcfapiReturn.returnValue && (m.__tcfapiReturn.returnValue.tcString || m.__tcfapiReturn.returnValue.apiVersion) || null,
              m.__tcfapiReturn.returnValue && m.__tcfapiReturn.returnValue.eventStatus || null,
              m.__tcfapiReturn.returnValue && m.__tcfapiReturn.returnValue.listenerId || null];
            print({ ad: ad.received.map(pick), sandboxed: sandboxed.received.map(pick), keys: Object.keys(ad.received[0][0]) });
            """)
        let tc = TestStrings.acceptAll
        #expect(output["ad"] == .array([
            .array([.string("p-1"), .bool(true), .string("https://ads.example"), .string("2.2"), .null, .null]),
            .array([.string("g-1"), .bool(true), .string("https://ads.example"), .string(tc), .string("tcloaded"), .null]),
            .array([.number(7), .bool(true), .string("https://ads.example"), .string(tc), .string("tcloaded"), .number(1)]),
            .array([.string("u-1"), .bool(false), .string("https://ads.example"), .null, .null, .null]),
        ]))
        // An opaque origin cannot be a target: '*'.
        #expect(output["sandboxed"] == .array([
            .array([.string("g-2"), .bool(true), .string("*"), .string(tc), .string("tcloaded"), .null]),
        ]))
        #expect(output["keys"] == .array([.string("__tcfapiReturn")]))
    }

    /// `addEventListener` through `postMessage` answers again, with the same callId, on every update (this is what keeps
    /// ad frames current); `removeEventListener` through `postMessage` stops it.
    @Test func frameListenerGetsEveryUpdateUntilRemoved() throws {
        let output = try runFrames("""
            \(try install())
            const ad = child('https://ads.example');
            send(ad, tcfCall('addEventListener', 'listen'));
            const listenerId = ad.received[0][0].__tcfapiReturn.returnValue.listenerId;
            \(try update())
            const afterUpdate = ad.received.length;
            send(ad, tcfCall('removeEventListener', 'remove', listenerId));
            send(ad, tcfCall('removeEventListener', 'again', listenerId));
            \(try update(Self.frameRecord))
            print({ listenerId, afterUpdate,
                    messages: ad.received.map(([m]) => [m.__tcfapiReturn.callId, m.__tcfapiReturn.returnValue === true
                      || m.__tcfapiReturn.returnValue === false ? m.__tcfapiReturn.returnValue : m.__tcfapiReturn.returnValue.tcString,
                      m.__tcfapiReturn.returnValue.eventStatus || null]) });
            """)
        #expect(output["listenerId"] == .number(1))
        #expect(output["afterUpdate"] == .number(2))
        #expect(output["messages"] == .array([
            .array([.string("listen"), .string(TestStrings.acceptAll), .string("tcloaded")]),
            .array([.string("listen"), .string(TestStrings.rejectAll), .string("useractioncomplete")]),
            .array([.string("remove"), .bool(true), .null]),
            .array([.string("again"), .bool(false), .null]),
        ]))
    }

    /// A request sent as JSON text gets a JSON text reply (as the IAB reference stub and many vendors do); text that is
    /// not a call, or not JSON, is ignored.
    @Test func stringRequestsGetStringReplies() throws {
        let output = try runFrames("""
            \(try install())
            const ad = child('https://ads.example');
            send(ad, JSON.stringify(tcfCall('getTCData', 's-1')));
            send(ad, '{"__tcfapiCall": not json');
            send(ad, 'hello');
            send(ad, JSON.stringify({ __gppCall: { command: 'ping', callId: 's-2' } }));
            send(ad, JSON.stringify({ __uspapiCall: { command: 'getUSPData', version: 1, callId: 's-3' } }));
            print(ad.received.map(([m, target]) => [typeof m, target, m]));
            """)
        let replies = try #require(output.arrayValue).compactMap(\.arrayValue)
        try #require(replies.count == 3)
        #expect(replies.allSatisfy { $0.count == 3 && $0[0] == .string("string") && $0[1] == .string("https://ads.example") })
        let texts = replies.compactMap { $0.last?.stringValue }
        try #require(texts.count == 3)
        let tcf = try JSONValue(parsing: texts[0])
        #expect(tcf["__tcfapiReturn"]?["callId"] == .string("s-1"))
        #expect(tcf["__tcfapiReturn"]?["success"] == .bool(true))
        #expect(tcf["__tcfapiReturn"]?["returnValue"]?["tcString"] == .string(TestStrings.acceptAll))
        let gpp = try JSONValue(parsing: texts[1])
        #expect(gpp["__gppReturn"]?["callId"] == .string("s-2"))
        #expect(gpp["__gppReturn"]?["returnValue"]?["gppString"] == .string("DBABMA~" + TestStrings.acceptAll))
        let usp = try JSONValue(parsing: texts[2])
        #expect(usp["__uspapiReturn"]?["callId"] == .string("s-3"))
        #expect(usp["__uspapiReturn"]?["returnValue"] == .object(["version": .number(1), "uspString": .string("1YNN")]))
    }

    /// Once a page CMP replaced the native-backed functions, the script answers no message (the page CMP's own handler
    /// does; two answers would reach the frame) and sends no more updates to listeners frames registered before.
    @Test func noAnswersOnceAPageCMPReplacedTheAPIs() throws {
        let output = try runFrames("""
            \(try install())
            const ad = child('https://ads.example');
            send(ad, tcfCall('addEventListener', 'before'));
            send(ad, { __gppCall: { command: 'addEventListener', callId: 'gpp-before' } });
            const registered = ad.received.length;
            const native = { tcfapi: window.__tcfapi, gpp: window.__gpp };
            window.__tcfapi = (command, version, callback) => callback({ tcString: 'page' }, true);
            window.__gpp = (command, callback) => callback({ gppString: 'page' }, true);
            window.__uspapi = (command, version, callback) => callback({ version: 1, uspString: '1NNN' }, true);
            send(ad, tcfCall('getTCData', 'after'));
            send(ad, JSON.stringify(tcfCall('ping', 'after-text')));
            send(ad, { __gppCall: { command: 'ping', callId: 'gpp-after' } });
            send(ad, { __uspapiCall: { command: 'getUSPData', version: 1, callId: 'usp-after' } });
            send(ad, tcfCall('addEventListener', 'while-replaced'));
            \(try update())
            insertBody();
            insertFrame();
            const total = ad.received.length;
            const active = window.__webcmpSharing.active();
            const whileReplaced = locators();
            // Had a frame's call been taken while the page's API was in place, it would come back to life here.
            window.__tcfapi = native.tcfapi;
            window.__gpp = native.gpp;
            \(try update(Self.frameRecord))
            print({ registered, total, locators: whileReplaced, active, restoredLocators: locators(),
                    restored: ad.received.slice(total).map(([m]) => (m.__tcfapiReturn || m.__gppReturn).callId) });
            """)
        // Before: addEventListener answered (TCF: 1 message, GPP: listenerRegistered + signalStatus).
        #expect(output["registered"] == .number(3))
        #expect(output["total"] == .number(3))
        #expect(output["locators"] == .array([]))
        #expect(output["active"] == .object(["tcfapi": .bool(false), "gpp": .bool(false)]))
        #expect(output["restored"] == .array([.string("before"), .string("gpp-before"), .string("gpp-before")]))
        // Native-backed again (and the page has a frame): the next update adds their locators, not __uspapi's.
        #expect(output["restoredLocators"] == .array([.string("IFRAME:__tcfapiLocator:none"), .string("IFRAME:__gppLocator:none")]))
    }

    // MARK: __gppCall and __uspapiCall

    @Test func gppCallsFromAFrameAreAnsweredAndListenersFollowUpdates() throws {
        let output = try runFrames("""
            \(try install())
            const ad = child('https://ads.example');
            send(ad, { __gppCall: { command: 'ping', version: '1.1', callId: 'ping' } });
            send(ad, { __gppCall: { command: 'addEventListener', version: '1.1', callId: 'events' } });
            \(try update())
            const listenerId = ad.received[1][0].__gppReturn.returnValue.listenerId;
            send(ad, { __gppCall: { command: 'removeEventListener', version: '1.1', callId: 'remove', parameter: listenerId } });
            \(try update(Self.frameRecord))
            print(ad.received.map(([m, target]) => {
              const r = m.__gppReturn; const v = r.returnValue;
              return [r.callId, r.success, target, typeof v === 'boolean' ? v : (v.eventName || 'ping'),
                      typeof v === 'boolean' ? null : (v.data === undefined ? null : v.data),
                      typeof v === 'boolean' ? null : (v.pingData || v).gppString];
            }));
            """)
        let first = "DBABMA~" + TestStrings.acceptAll
        let second = "DBABMA~" + TestStrings.rejectAll
        let origin = JSONValue.string("https://ads.example")
        #expect(output == .array([
            .array([.string("ping"), .bool(true), origin, .string("ping"), .null, .string(first)]),
            .array([.string("events"), .bool(true), origin, .string("listenerRegistered"), .bool(true), .string(first)]),
            .array([.string("events"), .bool(true), origin, .string("signalStatus"), .string("ready"), .string(first)]),
            // The update: signalStatus "not ready", then "ready" with the new string (GPP CMP API v1.1 event order).
            .array([.string("events"), .bool(true), origin, .string("signalStatus"), .string("not ready"), .string(second)]),
            .array([.string("events"), .bool(true), origin, .string("signalStatus"), .string("ready"), .string(second)]),
            .array([.string("remove"), .bool(true), origin, .bool(true), .null, .null]),
        ]))
    }

    @Test func uspapiCallsFromAFrameAreAnswered() throws {
        let output = try runFrames("""
            \(try install())
            const ad = child('https://ads.example');
            send(ad, { __uspapiCall: { command: 'getUSPData', version: 1, callId: 'first' } });
            \(try update())
            send(ad, { __uspapiCall: { command: 'getUSPData', version: 1, callId: 'second' } });
            send(ad, { __uspapiCall: { command: 'setUSPData', version: 1, callId: 'unknown' } });
            print(ad.received.map(([m, target]) => [m.__uspapiReturn.callId, m.__uspapiReturn.success, target, m.__uspapiReturn.returnValue]));
            """)
        let origin = JSONValue.string("https://ads.example")
        #expect(output == .array([
            .array([.string("first"), .bool(true), origin, .object(["version": .number(1), "uspString": .string("1YNN")])]),
            .array([.string("second"), .bool(true), origin, .object(["version": .number(1), "uspString": .string("1YYN")])]),
            .array([.string("unknown"), .bool(false), origin, .null]),
        ]))
    }
}
