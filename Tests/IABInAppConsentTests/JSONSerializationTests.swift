import Foundation
@testable import IABInAppConsent
import Testing

/// `JSONValue.jsonText(limits:)`, the writer of the stored non-TCF data: its text reads back equal, means what
/// `JSONEncoder`'s text means, and it refuses exactly what the parser refuses.
@Suite struct JSONSerializationTests {
    static let unlimited = JSONLimits(
        maximumBytes: .max, maximumDepth: 10_000, maximumStringBytes: .max, maximumElements: .max)

    /// Random values: nested containers, strings with every character class that needs escaping, numbers whole and
    /// not, tiny and huge, negative and zero.
    static func randomValue(_ random: inout SplitMix64, depth: Int = 0) -> JSONValue {
        let pick = random.next() % (depth > 4 ? 4 : 6)
        switch pick {
        case 0: return random.next() % 4 == 0 ? .null : .bool(random.next() & 1 == 1)
        case 1:
            let numbers: [Double] = [
                0, -0.0, 1, -1, 3, 0.1, -2.5, 1e-7, 1e21, 123_456_789_012, 9_007_199_254_740_991, 9_007_199_254_740_994,
                -9_007_199_254_740_992, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 4.35, 1 / 3,
            ]
            let base = numbers[Int(random.next() % UInt64(numbers.count))]
            let scaled = base * Double(random.next() % 1000)
            return .number(random.next() % 3 == 0 && scaled.isFinite ? scaled : base)
        case 2, 3: return .string(randomString(&random))
        case 4:
            return .array((0..<Int(random.next() % 5)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 5) { members[randomString(&random)] = randomValue(&random, depth: depth + 1) }
            return .object(members)
        }
    }

    static func randomString(_ random: inout SplitMix64) -> String {
        let pieces = ["a", "Z", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{2028}", "😀", " ", "{", "]"]
        return String((0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
    }

    @Test func theTextReadsBackEqual() throws {
        var random = SplitMix64(state: 0x5E71A1)
        for _ in 0..<2_000 {
            let value = Self.randomValue(&random)
            let text = try value.jsonText(limits: Self.unlimited)
            #expect(try JSONValue(parsing: text, limits: Self.unlimited) == value, "\(text)")
        }
    }

    @Test func theTextMeansWhatJSONEncodersTextMeans() throws {
        var random = SplitMix64(state: 0xE4C0DE)
        for _ in 0..<1_000 {
            let value = Self.randomValue(&random)
            let ours = try JSONValue(parsing: try value.jsonText(limits: Self.unlimited), limits: Self.unlimited)
            let foundation = try JSONValue(
                parsing: String(decoding: try JSONEncoder().encode(value), as: UTF8.self), limits: Self.unlimited)
            #expect(ours == foundation)
        }
    }

    @Test func theWriterRefusesExactlyWhatTheParserRefuses() throws {
        var random = SplitMix64(state: 0x11A175)
        var refused = 0
        for _ in 0..<2_000 {
            let value = Self.randomValue(&random)
            var limits = Self.unlimited
            limits.maximumDepth = Int(random.next() % 4)
            limits.maximumElements = Int(random.next() % 4)
            limits.maximumStringBytes = Int(random.next() % 12)
            let text = try value.jsonText(limits: Self.unlimited)
            limits.maximumBytes = Int(random.next() % 2 == 0 ? UInt64(text.utf8.count) : random.next() % 60)
            let written = try? value.jsonText(limits: limits)
            let parsed = try? JSONValue(parsing: text, limits: limits)
            #expect((written == nil) == (parsed == nil), "\(text) with \(limits)")
            if let written { #expect(written == text) }
            if written == nil { refused += 1 }
        }
        #expect(refused > 200 && refused < 1_800, "the limits refused \(refused) of 2,000: both outcomes are exercised")
    }

    @Test func nonFiniteNumbersAreRefused() {
        for number in [Double.infinity, -.infinity, .nan] {
            #expect(throws: JSONValue.SerializationError.nonFiniteNumber) {
                try JSONValue.array([.number(number)]).jsonText(limits: .default)
            }
        }
    }

    @Test func membersAreSortedAndCharactersEscapedAsRFC8259Says() throws {
        let value = JSONValue.object(["b": .number(2), "a": .string("q\"\\/\n\r\t\u{0}\u{1F}é"), "c": .number(0.5)])
        #expect(try value.jsonText(limits: .default) == #"{"a":"q\"\\/\n\r\t\u0000\u001fé","b":2,"c":0.5}"#)
    }

    @Test func storedNonTCFDataIsWrittenByTheWriterAndReadBack() throws {
        let data = JSONValue.object(["consents": .array([.object(["id": .number(7), "on": .bool(true)])]), "v": .string("1\n2")])
        let text = try StoredConsentRecord.encodeNonTCFData(data)
        #expect(text == #"{"consents":[{"id":7,"on":true}],"v":"1\n2"}"#)
        #expect(StoredConsentRecord.parseNonTCFData(text) == data)
        #expect(throws: ConsentStoreError.self) { try StoredConsentRecord.encodeNonTCFData(.number(.infinity)) }
    }

    @Test func scriptSafeTextEscapesWhatAScriptElementCannotHoldAndReadsBackEqual() throws {
        let value = JSONValue.object(["k": .string("</script>&\u{7F}\u{2028}\u{2029}\u{2027}é\n"), "n": .number(.infinity)])
        #expect(value.scriptSafeJSONText
            == #"{"k":"\u003c/script\u003e\u0026\u007f\u2028\u2029\#u{2027}é\n","n":null}"#)
        #expect(JSONValue.scriptSafeStringLiteral("a<b") == #""a\u003cb""#)
        var random = SplitMix64(state: 0x5C41F7)
        for _ in 0..<1_000 {
            let value = Self.randomValue(&random)
            #expect(try JSONValue(parsing: value.scriptSafeJSONText, limits: Self.unlimited) == value)
        }
    }
}
