import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@Suite struct ScriptEscapingTests {
    typealias Generator = SplitMix64

    static let tricky = ["\"", "'", "\\", "</script>", "<!--", "\u{2028}", "\u{2029}", "\0", "\n", "\r", "\t", "`", "${x}",
                         "\u{7F}", "\u{FEFF}", "🏳️‍🌈", "𝄞", "\u{10FFFF}", "\u{E000}", "</SCRIPT >", "&amp;", "\u{1B}"]

    static func randomString(_ generator: inout Generator) -> String {
        var result = ""
        for _ in 0..<Int.random(in: 0...24, using: &generator) {
            if Bool.random(using: &generator) {
                result += tricky.randomElement(using: &generator)!
            } else {
                // Any scalar of any plane except surrogates (which Swift strings cannot hold).
                var value: UInt32
                repeat { value = UInt32.random(in: 0...0x10FFFF, using: &generator) } while (0xD800...0xDFFF).contains(value)
                result.unicodeScalars.append(Unicode.Scalar(value)!)
            }
        }
        return result
    }

    /// Every generated string goes through the script builder; Node evaluates the script and prints the code points
    /// it received, which must be exactly the original's.
    @Test func randomStringsArriveUnchangedInARealEngine() throws {
        var generator = Generator(state: 2026)
        let strings = (0..<400).map { _ in Self.randomString(&generator) } + Self.tricky
        var script = "const out = [];\n"
        for string in strings {
            let value: JSONValue = .object(["s": .string(string), "nested": .array([.string(string)])])
            script += "out.push((v => { if (v.s !== v.nested[0]) throw new Error('mismatch'); return Array.from(v.s).map(c => c.codePointAt(0)); })(\(JavaScriptLiteral.expression(value))));\n"
        }
        script += "process.stdout.write(JSON.stringify(out));\n"
        let output = try NodeRunner.run(script)
        let received = try JSONDecoder().decode([[UInt32]].self, from: Data(output.utf8))
        #expect(received.count == strings.count)
        for (string, codePoints) in zip(strings, received) {
            #expect(codePoints == string.unicodeScalars.map(\.value), "\(string.debugDescription)")
        }
    }

    /// The same for the builders of the bundled scripts: generated strings as the forwarder's handler name and as every
    /// stored field of the sharing scripts (install, then update). Each case runs in a fresh Node context standing
    /// in for a page; what the page sees must be exactly the original code points.
    @Test func randomStringsReachTheBundledScriptsUnchanged() throws {
        var generator = Generator(state: 2027)
        let strings = (0..<120).map { _ in Self.randomString(&generator) } + Self.tricky
        let points = { (string: String) in "[" + string.unicodeScalars.map { String($0.value) }.joined(separator: ",") + "]" }
        var script = """
            const vm = require('vm');
            const fresh = (handlers) => { const c = { webkit: { messageHandlers: handlers }, addEventListener() {} };
              c.window = c; return vm.createContext(c); };
            // A record stores an empty string as absent (ConsentStrings), which the page sees as null.
            const cps = (s) => s === null ? [] : Array.from(s).map((c) => c.codePointAt(0));
            const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
            const failures = [];

            """
        for (index, string) in strings.enumerated() {
            let other = strings[(index + 1) % strings.count]
            let forwarder = CMPScripts.tcfForwarderSource(handlerName: string, apiWaitMilliseconds: 0)
            let install = ConsentSharing.userScript(record: ConsentRecord(
                strings: ConsentStrings(tcString: string, additionalConsent: other, gppString: string, usPrivacy: other),
                savedAt: Date()),
                keys: IABKeySet()).source
            let update = ConsentSharing.updateScript(record: ConsentRecord(
                strings: ConsentStrings(tcString: other, additionalConsent: string, gppString: other, usPrivacy: string),
                savedAt: Date()),
                keys: IABKeySet())
            script += """
                (() => {
                  const name = String.fromCodePoint(...\(points(string)));
                  const other = String.fromCodePoint(...\(points(other)));
                  const posted = [];
                  const c = fresh(Object.defineProperty({}, name, { value: { postMessage: (m) => posted.push(m.type) } }));
                  c.__tcfapi = (cmd, v, cb) => cb(cmd === 'ping' ? { cmpLoaded: true } : { eventStatus: 'tcloaded', tcString: name || 'x' }, true);
                  vm.runInContext(\(JavaScriptLiteral.string(forwarder)), c);
                  if (!same(posted, ['ready', 'tcf'])) failures.push([\(index), 'forwarder', posted]);
                  const page = fresh({});
                  vm.runInContext(\(JavaScriptLiteral.string(install)), page);
                  const a = page.__webcmpSharing.state();
                  if (!same([a.tcString, a.addtlConsent, a.gppString, a.uspString].map(cps), [name, other, name, other].map(cps)))
                    failures.push([\(index), 'install']);
                  vm.runInContext(\(JavaScriptLiteral.string(update)), page);
                  const b = page.__webcmpSharing.state();
                  if (!same([b.tcString, b.addtlConsent, b.gppString, b.uspString].map(cps), [other, name, other, name].map(cps)))
                    failures.push([\(index), 'update']);
                })();

                """
        }
        script += "process.stdout.write(JSON.stringify(failures));\n"
        #expect(try NodeRunner.run(script) == "[]")
    }

    @Test func outputContainsNoRawHTMLOrLineSeparators() {
        let literal = JavaScriptLiteral.string("</script><!--\u{2028}\u{2029}&")
        #expect(!literal.contains("<"))
        #expect(!literal.contains(">"))
        #expect(!literal.contains("&"))
        #expect(!literal.unicodeScalars.contains("\u{2028}"))
        #expect(literal == "\"\\u003c/script\\u003e\\u003c!--\\u2028\\u2029\\u0026\"")
    }

    @Test func cookieDataInjectionRunsInARealEngine() throws {
        let record = ConsentRecord(
            strings: ConsentStrings(tcString: "CQ\"');alert(1)//", additionalConsent: "2~1~dv."),
            nonTCFData: .object(["k": .string("</script>\u{2028}")]), savedAt: Date(timeIntervalSince1970: 0))
        let script = """
            const window = { postMessage(message, target) { process.stdout.write(JSON.stringify([message, target])); } };
            \(CMPScripts.cookieData(record: record, targetOrigin: "https://cmp.example.com\"'</script>"))
            """
        let output = try NodeRunner.run(script)
        let parsed = try JSONValue(parsing: output)
        #expect(parsed == .array([
            .object([
                "type": .string("cookieData"), "tcstring": .string("CQ\"');alert(1)//"),
                "nontcfdata": .object(["k": .string("</script>\u{2028}")]), "acstring": .string("2~1~dv."),
            ]),
            .string("https://cmp.example.com\"'</script>"),
        ]))
    }
}
