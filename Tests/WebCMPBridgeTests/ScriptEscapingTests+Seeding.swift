import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

extension ScriptEscapingTests {
    /// The escaping property for the seeding script: generated strings as every seeded value (local storage, where
    /// any string may go) and as the entry names arrive in the page exactly, code point by code point; as cookies
    /// only cookie-octet values are written at all.
    @Test func randomStringsReachTheSeedingScriptUnchanged() throws {
        var generator = Generator(state: 2028)
        let strings = (0..<120).map { _ in Self.randomString(&generator) }.filter { !$0.isEmpty } + Self.tricky
        var script = """
            const vm = require('vm');
            const cps = (s) => s === undefined ? null : Array.from(s).map((c) => c.codePointAt(0));
            const failures = [];

            """
        for (index, string) in strings.enumerated() {
            let other = strings[(index + 1) % strings.count]
            let record = ConsentRecord(
                strings: ConsentStrings(tcString: string, additionalConsent: other, gppString: other, usPrivacy: string),
                savedAt: Date())
            let configuration = SharingConfiguration(contentOrigins: ["https://news.example"], entries: [
                SharingEntry(name: other, value: .tcString, storage: [.cookie, .localStorage]),
                SharingEntry(name: "ac", value: .additionalConsent, storage: [.localStorage]),
                SharingEntry(name: "usp", value: .usPrivacy, storage: [.cookie, .localStorage]),
            ])
            let source = ConsentSharing.seedingScript(record: record, configuration: configuration).source
            let points = { (s: String) in "[" + s.unicodeScalars.map { String($0.value) }.joined(separator: ",") + "]" }
            script += """
                (() => {
                  const items = {}; const cookies = [];
                  const c = { location: { origin: 'https://news.example', protocol: 'https:' },
                    localStorage: { setItem: (k, v) => { items[k] = v; } }, document: {} };
                  Object.defineProperty(c.document, 'cookie', { set: (v) => cookies.push(v) });
                  c.window = c; c.top = c;
                  vm.runInContext(\(JavaScriptLiteral.string(source)), vm.createContext(c));
                  const name = String.fromCodePoint(...\(points(other)));
                  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
                  if (!same(cps(items[name]), \(points(string)))) failures.push([\(index), 'tc']);
                  if (!same(cps(items.ac), \(points(other)))) failures.push([\(index), 'ac']);
                  if (!same(cps(items.usp), \(points(string)))) failures.push([\(index), 'usp']);
                  const cookieSafe = (s) => /^[\\x21\\x23-\\x2B\\x2D-\\x3A\\x3C-\\x5B\\x5D-\\x7E]+$/.test(s);
                  cookies.forEach((cookie) => { const value = cookie.split('; ')[0];
                    if (!cookieSafe(value.slice(value.indexOf('=') + 1))) failures.push([\(index), 'cookie', cookie]); });
                })();

                """
        }
        script += "process.stdout.write(JSON.stringify(failures));\n"
        #expect(try NodeRunner.run(script) == "[]")
    }
}
