import Foundation

/// Every text the kit's own chrome around the CMP page shows or speaks (`WebCMPBridgeUI`: loading, errors, the close
/// button, accessibility labels and hints): a localization key and its English text. The translations live in
/// `WebCMPBridgeUI`'s String Catalog (`Localizable.xcstrings`); a test checks that every key has every language.
package struct ConsentChromeText: RawRepresentable, Sendable, Hashable, CaseIterable {
    /// The key's suffix after `WebCMPBridge.`.
    package var rawValue: String

    /// Creates a text from its key suffix.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The localization key (`WebCMPBridge.<rawValue>`).
    package var key: String { "WebCMPBridge." + rawValue }

    /// The English text (the catalog's source language).
    package var english: String { Self.englishTexts[rawValue] ?? rawValue }

    /// The spinner's accessibility label while the page loads.
    package static let loading = ConsentChromeText(rawValue: "loading")
    /// The consent sheet's accessibility label.
    package static let sheet = ConsentChromeText(rawValue: "sheet")
    /// The close button shown after an error.
    package static let close = ConsentChromeText(rawValue: "close")
    /// The close button's accessibility hint.
    package static let closeHint = ConsentChromeText(rawValue: "close.hint")
    /// The page could not be loaded (network, HTTP error, timeout).
    package static let errorNotLoaded = ConsentChromeText(rawValue: "error.notLoaded")
    /// The web content stopped (terminated twice).
    package static let errorStopped = ConsentChromeText(rawValue: "error.stopped")
    /// The settings cannot be shown (setup failed, the CMP did not open its settings).
    package static let errorUnavailable = ConsentChromeText(rawValue: "error.unavailable")
    /// A save was refused.
    package static let errorNotSaved = ConsentChromeText(rawValue: "error.notSaved")
    /// Storage failed.
    package static let errorNotStored = ConsentChromeText(rawValue: "error.notStored")
    /// A save was refused because the CMP page writes strings TCF 2.3 no longer allows (``IABInAppConsent/MissingDisclosedVendorsPolicy``).
    package static let errorPageOutdated = ConsentChromeText(rawValue: "error.pageOutdated")
    /// The tracking permission could not be requested.
    package static let errorTracking = ConsentChromeText(rawValue: "error.tracking")

    package static let allCases: [ConsentChromeText] = [
        .loading, .sheet, .close, .closeHint, .errorNotLoaded, .errorStopped, .errorUnavailable, .errorNotSaved,
        .errorNotStored, .errorPageOutdated, .errorTracking,
    ]

    private static let englishTexts: [String: String] = [
        "loading": "Loading privacy settings…",
        "sheet": "Privacy settings",
        "close": "Close",
        "close.hint": "Closes the privacy settings. Your choices stay as they were.",
        "error.notLoaded": "The privacy settings could not be loaded. Check your connection and try again.",
        "error.stopped": "The privacy settings stopped unexpectedly. Please try again.",
        "error.unavailable": "The privacy settings cannot be shown in this app right now.",
        "error.notSaved": "Your choice could not be saved. Please try again.",
        "error.notStored": "Your choice could not be saved on this device.",
        "error.pageOutdated": "Your choice could not be saved because the privacy settings page needs an update.",
        "error.tracking": "The tracking permission could not be requested.",
    ]

    /// The languages the catalog provides (BCP 47), English first.
    package static let languages = ["en", "de", "fr", "es", "it", "nl", "pl", "pt-PT", "pt-BR", "sv", "fi", "da", "nb"]

    /// The language the chrome is shown in: the CMP page's language when the app set one
    /// (``BridgeConfiguration/language``: a German CMP page gets German chrome on an English phone), otherwise the
    /// first of the user's `preferred` languages the catalog has, otherwise English. Matching is by the full tag,
    /// then by the language alone (`de-AT` → `de`; `pt` → `pt-PT`; `no`/`nn` → `nb`).
    package static func language(configured: String?, preferred: [String], available: [String] = languages) -> String {
        for candidate in [configured].compactMap({ $0 }) + preferred {
            if let match = match(candidate, in: available) { return match }
        }
        return available.first ?? "en"
    }

    private static func match(_ tag: String, in available: [String]) -> String? {
        let normalized = tag.replacingOccurrences(of: "_", with: "-").lowercased()
        if let exact = available.first(where: { $0.lowercased() == normalized }) { return exact }
        let parts = normalized.split(separator: "-")
        guard let first = parts.first else { return nil }
        var language = String(first)
        if language == "no" || language == "nn" { language = "nb" }
        if language == "pt" {
            let region = parts.dropFirst().first { $0.count == 2 }
            let wanted = region == "br" ? "pt-BR" : "pt-PT"
            return available.first { $0 == wanted } ?? available.first { $0.hasPrefix("pt") }
        }
        return available.first { $0.lowercased() == language }
            ?? available.first { $0.lowercased().hasPrefix(language + "-") }
    }
}
