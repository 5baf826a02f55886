/// The functions common CMPs document for reopening their preferences on a web page. Each preset cites the vendor's
/// own documentation; openers we could not confirm there are left out — among them OneTrust's
/// `OneTrust.ToggleInfoDisplay()`, Usercentrics' `UC_UI.showSecondLayer()` / `__ucCmp.showSecondLayer()` and
/// Gravito's `gravitoCMP.openPreferences()`, which are widely used but which we found only in third-party code. Give
/// such a CMP's call yourself with ``PrivacySettingsCall/init(_:arguments:appendsCallback:name:)``; with evidence
/// (``SettingsOpening``) a wrong call fails visibly instead of silently.
extension PrivacySettingsCall {
    /// Didomi: `Didomi.preferences.show()`: "let the user update his or her preferences … by calling the
    /// Didomi.preferences.show() function" (developers.didomi.io, Web SDK, "Consent notice › Preferences").
    public static let didomi = PrivacySettingsCall("Didomi.preferences.show", name: "Didomi")

    /// Cookiebot: `Cookiebot.renew()`: "shows the cookie consent dialog to the website user to renew or change the
    /// user's consent state" (cookiebot.com/en/developer, methods table). Cookiebot documents that it also deletes the
    /// consent it stored in the browser first; the app's stored consent changes only when the user saves.
    public static let cookiebot = PrivacySettingsCall("Cookiebot.renew", name: "Cookiebot")

    /// Sourcepoint (GDPR, TCF or standard): `window._sp_.gdpr.loadPrivacyManagerModal(privacyManagerID)` "to pass the
    /// specific privacy manager ID" (docs.sourcepoint.com, "Resurface privacy manager"); an optional tab (`purposes`,
    /// `vendors`, `features`, `purposes-li`) opens that tab. It needs your privacy manager's id, so it is not tried
    /// automatically.
    public static func sourcepoint(privacyManagerID: Int, tab: String? = nil) -> PrivacySettingsCall {
        PrivacySettingsCall(
            "_sp_.gdpr.loadPrivacyManagerModal",
            arguments: [.number(Double(privacyManagerID))] + (tab.map { [.string($0)] } ?? []), name: "Sourcepoint")
    }

    /// The presets ``PrivacySettingsOpener/automatic`` tries after the standard `__tcfapi('displayConsentUi')` (which
    /// is not a TCF v2.2 command, but the one CMPs from the IAB's old reference CMP, such as Quantcast Choice, still
    /// answer), in this order, each only when the page has its function: Didomi, Cookiebot.
    public static let presets: [PrivacySettingsCall] = [didomi, cookiebot]

    /// The preset called `name` (case-insensitive: `didomi`, `cookiebot`, `tcf`), for the package's tools
    /// (`webcmp-host --settings-preset`). `nil` for an unknown name.
    package static func preset(named name: String) -> PrivacySettingsCall? {
        switch name.lowercased() {
        case "didomi": return didomi
        case "cookiebot": return cookiebot
        case "tcf", "displayconsentui": return tcfDisplayConsentUI
        default: return nil
        }
    }
}
