import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The `.js` resources of the core and the scripts built from them, run in Node against a fake page.
@Suite struct ScriptResourceTests {
    /// Strings that break naive JavaScript building.
    static let hostile = ["'", "\"", "\\", "\\\"", "</script>", "<!--", "\u{2028}", "\u{2029}", "𝄞", "🏳️‍🌈", "\u{10FFFF}",
                          "__proto__", "constructor", "${x}`", "\0\n\r\t", "*/ alert(1) /*", "');alert(1)//"]

    /// A JavaScript expression for `string` that does not go through ``JavaScriptLiteral``: its code points.
    static func codePoints(_ string: String) -> String {
        "String.fromCodePoint(" + string.unicodeScalars.map { String($0.value) }.joined(separator: ",") + ")"
    }

    /// Node prelude: `page(names)` makes a fresh global (its own `Object`, `JSON`, …) standing in for a WebKit window:
    /// `window.webkit.messageHandlers[name].postMessage` for each of `names` collects `[name, message]` in `posted`,
    /// `addEventListener('message', …)` collects listeners, `run(source)` evaluates a script in it.
    static let prelude = """
        const vm = require('vm');
        function page(names) {
          const posted = [];
          const messageListeners = [];
          const handlers = {};
          for (const name of names) {
            Object.defineProperty(handlers, name, { enumerable: true, value: {
              postMessage: (message) => posted.push([name, JSON.parse(JSON.stringify(message))]) } });
          }
          const context = { setTimeout, console, webkit: { messageHandlers: handlers } };
          context.window = context;
          context.addEventListener = (type, fn) => { if (type === 'message') messageListeners.push(fn); };
          vm.createContext(context);
          return { context, posted, messageListeners, run: (source) => vm.runInContext(source, context) };
        }
        // A CMP whose __tcfapi answers ping (loaded when `loaded()` says so) and fires the given TCData events to every
        // addEventListener call.
        const fakeTCF = (events, loaded = () => true) => (command, version, callback) => {
          if (command === 'ping' && version === 2) { callback({ gdprApplies: true, cmpLoaded: loaded() }, true); }
          if (command === 'addEventListener' && version === 2) { events.forEach((event) => callback(event, true)); }
        };
        const codePoints = (s) => Array.from(s).map((c) => c.codePointAt(0));

        """

    @Test(arguments: ScriptResource.allCases)
    func resourceIsOneFunctionExpressionOfOneArgument(_ resource: ScriptResource) throws {
        #expect(CMPScripts.resourceFailures.isEmpty)
        let text = try resource.text()
        try NodeRunner.check(text)
        let output = try NodeRunner.run("const f = " + text + ";\nprocess.stdout.write(typeof f + ':' + f.length);")
        #expect(output == "function:1")
    }

    static let forwarderConfigs: [(handler: String, wait: Int)] =
        [(CMPDialect.tcf.handlerName, CMPScripts.apiWaitMilliseconds), ("__proto__", 1_000), ("", 5)]
        + hostile.filter { $0 != "__proto__" }.map { ($0, 1_000) }

    /// For each configuration: a page with a handler of that name and a decoy, a CMP that fires `cmpuishown`,
    /// `tcloaded`, `useractioncomplete`, and a GPP CMP; exactly the forwarded messages reach the configured handler.
    @Test func tcfForwarderPostsTheFakeCMPsEventsToTheConfiguredHandler() throws {
        var script = Self.prelude + "const results = [];\n"
        for config in Self.forwarderConfigs {
            let source = CMPScripts.tcfForwarderSource(handlerName: config.handler, apiWaitMilliseconds: config.wait)
            try NodeRunner.check(source)
            script += """
                (() => {
                  const name = \(Self.codePoints(config.handler));
                  const p = page([name, name + 'decoy']);
                  p.context.__tcfapi = fakeTCF([
                    { eventStatus: 'cmpuishown' },
                    { eventStatus: 'tcloaded', tcString: 'CQ1', gdprApplies: true, cmpId: 7, cmpVersion: 2, addtlConsent: '2~1~dv.' },
                    { eventStatus: 'useractioncomplete', tcString: 'CQ2', gdprApplies: 'yes', cmpId: NaN },
                    { eventStatus: 'tcloaded' },
                    { eventStatus: 'other', tcString: 'CQ3' },
                  ]);
                  p.context.__gpp = (command, callback) => {
                    if (command === 'ping') { callback({ cmpStatus: 'loaded', signalStatus: 'ready' }, true); return; }
                    callback({ eventName: 'signalStatus', pingData: { signalStatus: 'not ready', gppString: 'DBA' } }, true);
                    callback({ eventName: 'custom', pingData: { signalStatus: 'ready', gppString: 'DBA' } }, true);
                    callback({ eventName: 'sectionChange', pingData: 'x' }, true);
                    callback({ eventName: 'signalStatus', pingData: { signalStatus: 'ready', gppString: 'DBABMA~CQ1',
                      cmpDisplayStatus: 'visible', applicableSections: [2, -1, 'x', 1.5] } }, true);
                  };
                  p.run(\(JavaScriptLiteral.string(source)));
                  p.run(\(JavaScriptLiteral.string(source)));
                  results.push(p.posted.map(([n, m]) => [n === name, m]));
                })();

                """
        }
        script += "process.stdout.write(JSON.stringify(results));\n"
        let output = try JSONValue(parsing: try NodeRunner.run(script))
        let expected: JSONValue = .array([
            .object(["type": .string("ready"), "api": .string("tcf")]),
            .object(["type": .string("tcf"), "eventStatus": .string("cmpuishown")]),
            .object([
                "type": .string("tcf"), "eventStatus": .string("tcloaded"), "tcString": .string("CQ1"),
                "gdprApplies": .bool(true), "addtlConsent": .string("2~1~dv."), "cmpId": .number(7), "cmpVersion": .number(2),
            ]),
            .object([
                "type": .string("tcf"), "eventStatus": .string("useractioncomplete"), "tcString": .string("CQ2"),
                "gdprApplies": .null, "addtlConsent": .null, "cmpId": .null, "cmpVersion": .null,
            ]),
            .object([
                "type": .string("gpp"), "eventName": .string("signalStatus"), "signalStatus": .string("not ready"),
                "cmpDisplayStatus": .null, "gppString": .string("DBA"), "applicableSections": .null,
            ]),
            .object([
                "type": .string("gpp"), "eventName": .string("signalStatus"), "signalStatus": .string("ready"),
                "cmpDisplayStatus": .string("visible"), "gppString": .string("DBABMA~CQ1"),
                "applicableSections": .array([.number(2)]),
            ]),
        ].map { .array([.bool(true), $0]) })
        let results = try #require(output.arrayValue)
        #expect(results.count == Self.forwarderConfigs.count)
        for (config, result) in zip(Self.forwarderConfigs, results) {
            #expect(result == expected, "handler \(config.handler.debugDescription)")
        }
    }

    /// `apiWaitMilliseconds` reaches the script: a CMP that appears after the wait is not hooked.
    @Test func tcfForwarderGivesUpAfterTheConfiguredWait() throws {
        let patient = CMPScripts.tcfForwarderSource(handlerName: "webcmpTCF", apiWaitMilliseconds: 2_000)
        let impatient = CMPScripts.tcfForwarderSource(handlerName: "webcmpTCF", apiWaitMilliseconds: 0)
        let script = Self.prelude + """
            const pages = [\(JavaScriptLiteral.string(patient)), \(JavaScriptLiteral.string(impatient))].map((source) => {
              const p = page(['webcmpTCF']);
              p.run(source);
              setTimeout(() => { p.context.__tcfapi = fakeTCF([{ eventStatus: 'tcloaded', tcString: 'CQ1' }]); }, 120);
              return p;
            });
            setTimeout(() => process.stdout.write(JSON.stringify(pages.map((p) => p.posted.length))), 400);
            """
        #expect(try JSONValue(parsing: try NodeRunner.run(script)) == .array([.number(2), .number(0)]))
    }

    static func record(_ strings: [String]) -> ConsentRecord {
        ConsentRecord(
            strings: ConsentStrings(tcString: strings[0], additionalConsent: strings[1], gppString: strings[2], usPrivacy: strings[3]),
            savedAt: Date(timeIntervalSince1970: 1_750_000_000.5))
    }

    /// Install and update scripts with hostile strings in every stored field: the page's state, its `__tcfapi` and the
    /// handshake answer carry exactly those strings; the marker stays the first line.
    @Test func sharingScriptsCarryHostileStatesIntact() throws {
        let sets = [Self.hostile.prefix(4), Self.hostile.dropFirst(4).prefix(4), Self.hostile.dropFirst(8).prefix(4),
                    Self.hostile.dropFirst(12).prefix(4)].map(Array.init)
        var script = Self.prelude + "const results = [];\n"
        for (first, second) in zip(sets, sets.dropFirst() + sets.prefix(1)) {
            let install = ConsentSharing.userScript(record: Self.record(first), keys: IABKeySet()).source
            let update = ConsentSharing.updateScript(record: Self.record(second), keys: IABKeySet())
            for source in [install, update] {
                #expect(source.hasPrefix(ConsentSharing.scriptMarker + "\n"))
                try NodeRunner.check(source)
            }
            script += """
                (() => {
                  const p = page([]);
                  p.run(\(JavaScriptLiteral.string(install)));
                  const before = p.context.__webcmpSharing.state();
                  let answer = null;
                  p.messageListeners.forEach((fn) => fn({ data: 'webcmp.readyForConsent', origin: 'https://a.example',
                    source: { postMessage: (m) => { answer = m; } } }));
                  p.run(\(JavaScriptLiteral.string(update)));
                  const after = p.context.__webcmpSharing.state();
                  const fields = (s) => [s.tcString, s.addtlConsent, s.gppString, s.uspString].map(codePoints);
                  results.push({ before: fields(before), after: fields(after),
                    answer: [answer.consent.gdpr.euconsent, answer.consent.gdpr.addtlConsent,
                      answer.consent.usnat.gppString, answer.consent.ccpa.uspstring].map(codePoints),
                    ping: p.context.__tcfapi ? 'tcfapi' : 'none' });
                })();

                """
        }
        script += "process.stdout.write(JSON.stringify(results));\n"
        let results = try #require(try JSONValue(parsing: try NodeRunner.run(script)).arrayValue)
        func points(_ strings: [String]) -> JSONValue {
            .array(strings.map { .array($0.unicodeScalars.map { .number(Double($0.value)) }) })
        }
        #expect(results.count == sets.count)
        for ((first, second), result) in zip(zip(sets, sets.dropFirst() + sets.prefix(1)), results) {
            #expect(result["before"] == points(first))
            #expect(result["answer"] == points(first))
            #expect(result["after"] == points(second))
            #expect(result["ping"] == .string("tcfapi"))
        }
    }

    /// The update script only updates: in a page without the sharing script it installs nothing.
    @Test func updateScriptAloneInstallsNothing() throws {
        let update = ConsentSharing.updateScript(record: Self.record(["a", "b", "c", "d"]), keys: IABKeySet())
        let script = Self.prelude + """
            const p = page([]);
            p.run(\(JavaScriptLiteral.string(update)));
            process.stdout.write(JSON.stringify([typeof p.context.__webcmpSharing, typeof p.context.__tcfapi,
              typeof p.context.__gpp, p.messageListeners.length]));
            """
        #expect(try JSONValue(parsing: try NodeRunner.run(script))
            == .array([.string("undefined"), .string("undefined"), .string("undefined"), .number(0)]))
    }

    /// A `__proto__` key in a configuration cannot reach `Object.prototype` of the page. (In a JavaScript object
    /// literal `"__proto__": {…}` sets the new object's prototype rather than a property; the builders' own
    /// configurations only have fixed keys, so this is about containment, not data.)
    @Test func protoKeysInAConfigurationDoNotPolluteThePage() throws {
        let source = ScriptResource.consentSharing.source(config: .object([
            "install": .bool(true),
            "state": .object([
                "__proto__": .object(["polluted": .bool(true), "tcString": .string("from prototype")]),
                "tcString": .string("__proto__"),
                "constructor": .object(["prototype": .object(["polluted": .bool(true)])]),
            ]),
        ]))
        let script = Self.prelude + """
            const p = page([]);
            p.run(\(JavaScriptLiteral.string(source)));
            const state = p.context.__webcmpSharing.state();
            process.stdout.write(JSON.stringify([state.tcString, p.run('({}).polluted === undefined'),
              ({}).polluted === undefined, p.run('Object.prototype.hasOwnProperty("tcString")')]));
            """
        #expect(try JSONValue(parsing: try NodeRunner.run(script))
            == .array([.string("__proto__"), .bool(true), .bool(true), .bool(false)]))
    }

    // MARK: - A missing or broken resource

    @Test func missingResourceIsATypedFailure() throws {
        // Two folders (Foundation caches a bundle's directory listing): one without the file, one with a copy.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("webcmp-bundles-\(UUID().uuidString)")
        let empty = root.appendingPathComponent("empty")
        let copy = root.appendingPathComponent("copy")
        for folder in [empty, copy] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(try ScriptResource.tcfForwarder.text().utf8).write(to: copy.appendingPathComponent("tcf-forwarder.js"))
        let emptyBundle = try #require(Bundle(path: empty.path))
        #expect(throws: ScriptResourceError(fileName: "tcf-forwarder.js", reason: .missing)) {
            try ScriptResource.tcfForwarder.read(from: emptyBundle)
        }
        #expect(throws: ScriptResourceError(fileName: "consent-sharing.js", reason: .missing)) {
            try ScriptResource.consentSharing.read(from: emptyBundle)
        }
        let copyBundle = try #require(Bundle(path: copy.path))
        #expect(try ScriptResource.tcfForwarder.read(from: copyBundle) == ScriptResource.tcfForwarder.text())
    }

    @Test func brokenResourceTextIsRefused() throws {
        func reason(_ data: Data) -> ScriptResourceError.Reason? {
            do throws(ScriptResourceError) {
                _ = try ScriptResource.validated(data, fileName: "x.js")
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason(Data([0xFF, 0xFE, 0x28])) == .notUTF8)
        #expect(reason(Data("alert(1)".utf8)) == .notAFunctionExpression)
        #expect(reason(Data("(function (c) {})\n// trailing comment".utf8)) == .notAFunctionExpression)
        #expect(reason(Data("".utf8)) == .notAFunctionExpression)
        #expect(reason(Data("\u{FEFF}// about\n\n  // more\n(function (config) {})\n".utf8)) == nil)
        #expect(try ScriptResource.validated(Data("// a\n(function (c) {})\n\n".utf8), fileName: "x.js") == "// a\n(function (c) {})")
    }

    @Test func inertSourceDoesNothing() throws {
        try NodeRunner.check(ScriptResource.inertSource)
        let script = "globalThis.window = globalThis;\nconst before = Object.keys(globalThis).length;\n"
            + ConsentSharing.scriptMarker + "\n" + ScriptResource.inertSource
            + "\nprocess.stdout.write(String(Object.keys(globalThis).length - before));"
        #expect(try NodeRunner.run(script) == "0")
        #expect(!ScriptResource.inertSource.dropFirst(2).dropLast(2).contains("*/"))
    }

    // MARK: - No interpolation

    /// No script builder of the core interpolates (`\(`) into JavaScript: the builder files (JavaScript/, Sharing/,
    /// except the encoder itself) have no interpolation and no multi-line string literal at all, and no call that
    /// hands source to a web view (`evaluateJavaScript(…)`, `UserScript(source: …)`) interpolates in its arguments.
    @Test func coreBuildsNoJavaScriptByInterpolation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/WebCMPBridge")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 20)
        var builders = 0
        var calls = 0
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = file.path.components(separatedBy: "/Sources/WebCMPBridge/").last ?? file.path
            let code = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            if (relative.hasPrefix("JavaScript/") || relative.hasPrefix("Sharing/")) && relative != "JavaScript/JavaScriptLiteral.swift" {
                builders += 1
                #expect(!code.contains("\\("), "\(relative) interpolates")
                #expect(!code.contains("\"\"\""), "\(relative) has a multi-line string literal")
            }
            for call in Self.calls(in: code, to: ["evaluateJavaScript(", "UserScript(source:"]) {
                calls += 1
                #expect(!call.contains("\\("), "\(relative): \(call)")
            }
        }
        #expect(builders >= 4)
        #expect(calls >= 4)
    }

    /// The text of every call to one of `names` up to its balancing parenthesis.
    static func calls(in code: String, to names: [String]) -> [Substring] {
        var found: [Substring] = []
        for name in names {
            var searchStart = code.startIndex
            while let range = code.range(of: name, range: searchStart..<code.endIndex) {
                var depth = 1
                var index = range.upperBound
                while index < code.endIndex, depth > 0 {
                    if code[index] == "(" { depth += 1 } else if code[index] == ")" { depth -= 1 }
                    index = code.index(after: index)
                }
                found.append(code[range.lowerBound..<index])
                searchStart = range.upperBound
            }
        }
        return found
    }
}
