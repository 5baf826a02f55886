#if canImport(UIKit) && canImport(WebKit)
import Foundation
import UIKit
import WebCMPBridge

/// The chrome's texts in the chrome's language (``ConsentChromeText/language(configured:preferred:available:)``: the
/// CMP page's language when the app set one, otherwise the app's preferred localization), from this target's String
/// Catalog. Falls back to English (the catalog's source language) for anything missing.
@MainActor
struct ConsentChrome {
    let language: String
    private let bundle: Bundle

    init(configuration: BridgeConfiguration) {
        language = ConsentChromeText.language(
            configured: configuration.language, preferred: Bundle.main.preferredLocalizations + Locale.preferredLanguages)
        bundle = Bundle.module.path(forResource: language, ofType: "lproj").flatMap(Bundle.init(path:)) ?? Bundle.module
    }

    /// The text in the chrome's language.
    func text(_ text: ConsentChromeText) -> String {
        bundle.localizedString(forKey: text.key, value: text.english, table: nil)
    }

    /// Whether presentation changes animate (not with Reduce Motion on).
    static var animates: Bool { !UIAccessibility.isReduceMotionEnabled }
}
#endif
