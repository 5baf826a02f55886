import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The chrome's texts — the String Catalog of `WebCMPBridgeUI` has every key of ``ConsentChromeText`` in
/// every language, with the core's English text, no placeholder lost; the chrome's language; readable errors.
@Suite struct ConsentChromeTests {
    static let catalogURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/WebCMPBridgeUI/Resources/Localizable.xcstrings")

    static func catalog() throws -> [String: JSONValue] {
        let text = try String(contentsOf: catalogURL, encoding: .utf8)
        let value = try JSONValue(parsing: text, limits: JSONLimits(maximumBytes: 1 << 20, maximumDepth: 16))
        #expect(value["sourceLanguage"] == .string("en"))
        return try #require(value["strings"]?.objectValue)
    }

    static func placeholders(_ text: String) -> [String] {
        // printf-style (%@, %d, %1$@ …) and String Catalog substitutions (%#@name@).
        let pattern = try! NSRegularExpression(pattern: "%(?:[0-9]+\\$)?(?:#@[A-Za-z0-9_]+@|[@dDuUxXoOfeEgGcCsSpaAF]|ll[dux]|l[dux])")
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) }.sorted()
    }

    @Test func everyKeyHasEveryLanguageAndNoPlaceholderIsLost() throws {
        let strings = try Self.catalog()
        #expect(Set(strings.keys) == Set(ConsentChromeText.allCases.map(\.key)))
        #expect(ConsentChromeText.languages.count >= 13)
        for text in ConsentChromeText.allCases {
            let localizations = try #require(strings[text.key]?["localizations"]?.objectValue, "\(text.key)")
            #expect(Set(localizations.keys) == Set(ConsentChromeText.languages), "\(text.key)")
            let english = try #require(localizations["en"]?["stringUnit"]?["value"]?.stringValue)
            #expect(english == text.english, "\(text.key): the catalog's English must be the core's")
            for (language, entry) in localizations {
                let value = try #require(entry["stringUnit"]?["value"]?.stringValue, "\(text.key) \(language)")
                #expect(!value.trimmingCharacters(in: .whitespaces).isEmpty, "\(text.key) \(language)")
                #expect(entry["stringUnit"]?["state"] == .string("translated"), "\(text.key) \(language)")
                #expect(Self.placeholders(value) == Self.placeholders(english), "\(text.key) \(language)")
                if language != "en", text != .close { #expect(value != english, "\(text.key) \(language) untranslated") }
            }
        }
    }

    @Test(arguments: [
        // A German CMP page gets German chrome on an English phone.
        ("de", ["en-US"], "de"),
        ("de-AT", ["en"], "de"),
        // Otherwise the app's preferred localization.
        (nil, ["fr-CA", "en"], "fr"),
        (nil, ["ja", "sv-SE"], "sv"),
        (nil, ["pt-BR"], "pt-BR"),
        (nil, ["pt"], "pt-PT"),
        (nil, ["nn-NO"], "nb"),
        (nil, ["no"], "nb"),
        // A configured language the catalog lacks falls through to the preferences, then English.
        ("ja", ["da"], "da"),
        ("ja", ["zh-Hans"], "en"),
        (nil, [], "en"),
    ] as [(String?, [String], String)])
    func theChromesLanguage(configured: String?, preferred: [String], expected: String) {
        #expect(ConsentChromeText.language(configured: configured, preferred: preferred) == expected)
    }

    @Test func everyErrorCodeHasAChromeText() {
        let texts = Set(ConsentBridgeError.Code.known.map { code -> ConsentChromeText in
            switch code {
            case .timeout: return ConsentBridgeError.timeout(seconds: 1).userFacingText
            case .webContentTerminated: return ConsentBridgeError.webContentTerminated.userFacingText
            default: return ConsentChromeText.errorNotSaved
            }
        })
        #expect(texts.isSubset(of: Set(ConsentChromeText.allCases)))
        #expect(ConsentBridgeError.timeout(seconds: 1).userFacingMessageKey == "WebCMPBridge.error.notLoaded")
        #expect(UIFinishReason.failed.keepsErrorOnScreen && UIFinishReason.timedOut.keepsErrorOnScreen)
        #expect(!UIFinishReason.closed.keepsErrorOnScreen && !UIFinishReason.consentSaved.keepsErrorOnScreen)
    }

    /// A person never sees diagnostic text; every code has its own short message and key.
    @Test func everyErrorCodeHasAUserFacingMessageWithoutPageText() {
        let hostile = "<script>alert(1)</script>"
        let errors: [ConsentBridgeError] = [
            .timeout(seconds: 30), .invalidMessage(handler: hostile, .notAnObject),
            .forbiddenOrigin(handler: hostile, origin: hostile), .notMainFrame(handler: hostile),
            .unexpectedDialect(handler: hostile, expected: .gravito),
            ConsentBridgeError(ConsentCommitError.invalidMapping(.invalidTCString(.empty))),
            ConsentBridgeError(ConsentCommitError.noConsent),
            .storageFailed(IABConsentError(ConsentStoreError.recordNotEncodable(reason: hostile))),
            .loadFailed(WebViewLoadError(url: nil, reason: hostile)), .webContentTerminated,
            .trackingAuthorizationFailed(.missingUsageDescription),
            .webViewSetupFailed(.messageHandlerNameInUse(hostile)), .privacySettingsNotOpened(hostile),
            ConsentBridgeError(ConsentCommitError.missingDisclosedVendors(created: Date(timeIntervalSince1970: 1_772_236_800))),
        ]
        #expect(Set(errors.map(\.code)) == Set(ConsentBridgeError.Code.known))
        #expect(ConsentBridgeError.Code.known.count == 12 && Set(ConsentBridgeError.Code.known.map(\.rawValue)).count == 12)
        // A code this release does not know (a newer one, read back from a log) still has a message.
        #expect(ConsentBridgeError(ConsentBridgeError.Code(rawValue: "future"), underlying: nil, description: "x").userFacingText
            == .errorNotSaved)
        for error in errors {
            #expect(!error.userFacingMessage.isEmpty)
            #expect(!error.userFacingMessage.contains(hostile))
            #expect(error.userFacingMessageKey == error.userFacingText.key)
            #expect(ConsentChromeText.allCases.contains(error.userFacingText))
        }
    }
}
