import Testing
@testable import IABInAppConsent

@Suite struct UntrustedTextTests {
    @Test func plainTextIsQuotedAsIs() {
        #expect(UntrustedText.quoted("1YNN") == "\"1YNN\"")
        #expect(UntrustedText.quoted("") == "\"\"")
        #expect(UntrustedText.quoted("Zürich 東京") == "\"Zürich 東京\"")
    }

    /// Controls, format characters (bidirectional overrides, zero-width characters) and line or paragraph separators
    /// appear as `\u{XXXX}`; quotes and backslashes are escaped so that the quotes delimit the value.
    @Test func unsafeScalarsAreEscaped() {
        let forged = "a\nb\r\t\u{0}\u{7F}\u{85}\u{202E}c\u{200B}\u{200D}\u{FEFF}\u{2028}\u{2029}\u{2066}d"
        #expect(UntrustedText.quoted(forged) == #""a\u{A}b\u{D}\u{9}\u{0}\u{7F}\u{85}\u{202E}c\u{200B}\u{200D}\u{FEFF}\u{2028}\u{2029}\u{2066}d""#)
        #expect(UntrustedText.quoted(#"x" and "y\"#) == #""x\" and \"y\\""#)
        let quoted = UntrustedText.quoted(forged + "\"")
        #expect(!quoted.unicodeScalars.contains {
            [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
        })
    }

    @Test func longTextIsCutWithAnEllipsis() {
        let long = String(repeating: "é", count: 200)
        #expect(UntrustedText.quoted(long) == "\"" + String(repeating: "é", count: 64) + "…\"")
        #expect(UntrustedText.quoted(String(repeating: "a", count: 64)) == "\"" + String(repeating: "a", count: 64) + "\"")
        #expect(UntrustedText.quoted("abcdef", maximumScalars: 3) == "\"abc…\"")
        // The limit counts the scalars of the input, not the characters their escapes take.
        #expect(UntrustedText.quoted("\n\n\n\n", maximumScalars: 2) == #""\u{A}\u{A}…""#)
    }

    @Test func sanitizedMessagesKeepQuotesAndCountWhatWasCut() {
        #expect(UntrustedText.sanitized("field 'x\n' is \"bad\"", maximumScalars: 100) == #"field 'x\u{A}' is "bad""#)
        #expect(UntrustedText.sanitized("abcdef", maximumScalars: 4) == "abcd… (2 more characters)")
        #expect(UntrustedText.sanitized("abcd", maximumScalars: 4) == "abcd")
        #expect(LogText.sanitized("a\u{202E}b") == #"a\u{202E}b"#)
    }

    /// Every error description that shows untrusted input goes through the one policy.
    @Test func errorDescriptionsUseIt() {
        let hostile = "1\u{202E}N\nN"
        let escaped = #""1\u{202E}N\u{A}N""#
        #expect(IABMappingError.invalidUSPrivacy(hostile).description.contains(escaped))
        #expect(ConsentStoreError.foreignKey(IABKey(rawValue: hostile)).description.contains(escaped))
        #expect(AdditionalConsentError.unsupportedVersion(hostile).description.contains(escaped))
        #expect(AdditionalConsentError.invalidProviderID(hostile, part: "x").description.contains(escaped))
        #expect(TCStringError.invalidCharacter("\u{202E}", offset: 1).description.contains(#"U+202E ("\u{202E}")"#))
        var model = TCString()
        model.consentLanguage = hostile
        #expect(throws: TCStringError.invalidFieldValue(field: "ConsentLanguage", value: escaped + " (two letters A-Z)")) {
            try model.encoded()
        }
    }
}
