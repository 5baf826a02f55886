import Foundation
import Testing
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
            tcString: "CQ\"');alert(1)//", nonTCFData: .object(["k": .string("</script>\u{2028}")]),
            additionalConsent: "2~1~dv.", savedAt: Date(timeIntervalSince1970: 0))
        let script = """
            const window = { postMessage(message, target) { process.stdout.write(JSON.stringify([message, target])); } };
            \(CMPScripts.cookieData(record: record))
            """
        let output = try NodeRunner.run(script)
        let parsed = try JSONValue(parsing: output)
        #expect(parsed == .array([
            .object([
                "type": .string("cookieData"), "tcstring": .string("CQ\"');alert(1)//"),
                "nontcfdata": .object(["k": .string("</script>\u{2028}")]), "acstring": .string("2~1~dv."),
            ]),
            .string("*"),
        ]))
    }
}
