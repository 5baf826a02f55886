import Foundation
import Testing
@testable import IABInAppConsent

/// The bounded JSON parser that reads every message body a page posts as text.
@Suite struct JSONParsingTests {
    /// Random strings from every Unicode plane, with the characters JSON must escape, survive Foundation's encoder
    /// followed by our parser unchanged (escaped and unescaped forms, surrogate pairs for non-BMP scalars).
    @Test func randomStringsRoundTripThroughFoundationsEncoder() throws {
        var generator = SystemRandomNumberGenerator()
        let specials: [Unicode.Scalar] = ["\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1F}",
                                          "\u{7F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "<", ">"]
        for _ in 0..<500 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                if Bool.random(using: &generator), let special = specials.randomElement(using: &generator) {
                    scalars.append(special)
                } else {
                    let plane = UInt32.random(in: 0...16, using: &generator)
                    let value = plane << 16 | UInt32.random(in: 0...0xFFFF, using: &generator)
                    if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
                }
            }
            let original = String(scalars)
            let encoder = JSONEncoder()
            for formatting in [JSONEncoder.OutputFormatting(), .withoutEscapingSlashes] {
                encoder.outputFormatting = formatting
                let text = String(decoding: try encoder.encode(["k": original]), as: UTF8.self)
                #expect(try JSONValue(parsing: text) == .object(["k": .string(original)]), "\(text)")
            }
        }
    }

    @Test func escapes() throws {
        let cases: [(String, String)] = [
            (#""plain""#, "plain"),
            (#""a\"b\\c\/d""#, "a\"b\\c/d"),
            (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
            (#""\u00e9\u00E9é""#, "ééé"),
            (#""\ud83d\ude00 😀""#, "😀 😀"),
            (#""x\ud83dy""#, "x\u{FFFD}y"),                 // lone high surrogate
            (#""\ude00""#, "\u{FFFD}"),                      // lone low surrogate
            (#""\ud83d\u0041""#, "\u{FFFD}A"),               // high surrogate then a non-surrogate escape
            (#""\u2028\u2029""#, "\u{2028}\u{2029}"),
            (#""""#, ""),
        ]
        for (json, expected) in cases {
            #expect(try JSONValue(parsing: json) == .string(expected), "\(json)")
        }
    }

    @Test func malformedStringsAreTypedErrors() {
        for json in [#""abc"#, #""a\"#, #""\x""#, #""\u12""#, #""\u12g4""#, "\"a\u{01}b\"", "\"\n\""] {
            #expect(throws: JSONInputError.self, "\(json)") { try JSONValue(parsing: json) }
        }
    }

    @Test func limitsAreEnforcedWithTypedErrors() throws {
        let limits = JSONLimits(maximumBytes: 1 << 20, maximumDepth: 8, maximumStringBytes: 16, maximumElements: 4)
        #expect(throws: JSONInputError.stringTooLong(bytes: 17, limit: 16)) {
            try JSONValue(parsing: "\"" + String(repeating: "a", count: 17) + "\"", limits: limits)
        }
        // Escapes count by the UTF-8 bytes they decode to: no way around the string cap.
        #expect(throws: JSONInputError.self) {
            try JSONValue(parsing: "\"" + String(repeating: "\\u00e9", count: 9) + "\"", limits: limits)
        }
        #expect(try JSONValue(parsing: "\"" + String(repeating: "\\u00e9", count: 8) + "\"", limits: limits)
            == .string(String(repeating: "é", count: 8)))
        #expect(throws: JSONInputError.tooDeep(limit: 8)) {
            try JSONValue(parsing: String(repeating: "[", count: 9) + String(repeating: "]", count: 9), limits: limits)
        }
        #expect(throws: JSONInputError.self) { try JSONValue(parsing: "[1,2,3,4,5]", limits: limits) }
        #expect(throws: JSONInputError.tooLarge(bytes: 12, limit: 10)) {
            try JSONValue(parsing: "\"0123456789\"", limits: JSONLimits(maximumBytes: 10))
        }
        #expect(try JSONValue(parsing: "\"" + String(repeating: "a", count: 16) + "\"", limits: limits)
            == .string(String(repeating: "a", count: 16)))
    }

    @Test func prototypeKeysAreDataAndDuplicateKeysKeepTheLast() throws {
        let value = try JSONValue(parsing: #"{"__proto__": {"x": 1}, "constructor": "c", "k": 1, "k": 2}"#)
        #expect(value["__proto__"] == .object(["x": .number(1)]))
        #expect(value["constructor"] == .string("c"))
        #expect(value["k"] == .number(2))
    }
}
