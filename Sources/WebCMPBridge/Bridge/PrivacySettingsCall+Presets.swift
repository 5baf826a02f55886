/// The functions CMPs document for reopening their preferences on a web page. Each preset cites the vendor's own
/// documentation or its published source code (the DocC article "Privacy settings" has the table); openers we could
/// not confirm there are left out — among them OneTrust's `OneTrust.ToggleInfoDisplay()`, Usercentrics'
/// `UC_UI.showSecondLayer()`, iubenda's `_iub.cs.api.openPreferences()`, Axeptio's `openAxeptioCookies()`, TrustArc's,
/// Sirdata's, Ketch's and Gravito's `gravitoCMP.openPreferences()`, which we found only in third-party code or not at
/// all. Give such a CMP's call yourself with ``PrivacySettingsCall/init(_:arguments:appendsCallback:name:)``; with
/// evidence (``SettingsOpening``) a wrong call fails visibly instead of silently.
extension PrivacySettingsCall {
    /// Didomi: `Didomi.preferences.show()`: "let the user update his or her preferences … by calling the
    /// Didomi.preferences.show() function" (developers.didomi.io, Web SDK, "Consent notice › Preferences").
    public static let didomi = PrivacySettingsCall("Didomi.preferences.show", name: "Didomi")

    /// Cookiebot: `Cookiebot.renew()`: "shows the cookie consent dialog to the website user to renew or change the
    /// user's consent state" (cookiebot.com/en/developer, methods table). Cookiebot documents that it also deletes the
    /// consent it stored in the browser first; the app's stored consent changes only when the user saves.
    public static let cookiebot = PrivacySettingsCall("Cookiebot.renew", name: "Cookiebot")

    /// Osano: `Osano.cm.showDrawer()`, listed among the functions of `window.Osano.cm` in Osano's "Consent Manager
    /// JavaScript API" (docs.osano.com / developers.osano.com, "CMP JavaScript API"); the drawer is its preferences.
    public static let osano = PrivacySettingsCall("Osano.cm.showDrawer", name: "Osano")

    /// Complianz (WordPress): `cmplz_set_banner_status("show")`, what the plugin's own "Manage consent" button does
    /// (its published source, `cookiebanner/js/complianz.js`: the click handler of `button.cmplz-manage-consent`
    /// calls `cmplz_set_banner_status('show')`, defined on `window`).
    public static let complianz = PrivacySettingsCall(
        "cmplz_set_banner_status", arguments: [.string("show")], name: "Complianz")

    /// CookieYes: `revisitCkyConsent()`, which the script CookieYes serves defines as
    /// `window.revisitCkyConsent = () => _ckyRevisitAction()` (its "revisit consent" action).
    public static let cookieYes = PrivacySettingsCall("revisitCkyConsent", name: "CookieYes")

    /// Klaro (open source, klaro-org/klaro-js): `klaro.show()`: "If you wish to open the consent manager manually …
    /// you can simply call klaro.show() via Javascript" (its README).
    public static let klaro = PrivacySettingsCall("klaro.show", name: "Klaro")

    /// CookieConsent v3 (open source, orestbida/cookieconsent): `CookieConsent.showPreferences()`, "Shows the
    /// preferences modal" (docs/reference/api-reference.md).
    public static let cookieConsent = PrivacySettingsCall("CookieConsent.showPreferences", name: "CookieConsent")

    /// tarteaucitron.js (open source, AmauriC/tarteaucitron.js): `tarteaucitron.userInterface.openPanel()`, the
    /// function its own "manage" buttons call to open its control panel (`tarteaucitron.js`).
    public static let tarteaucitron = PrivacySettingsCall("tarteaucitron.userInterface.openPanel", name: "tarteaucitron")

    /// Google's Privacy & messaging (Funding Choices): `googlefc.showRevocationMessage()`: "Clears the consent record
    /// and reloads the googlefc script to show the consent message" (developers.google.com/funding-choices/fc-api-docs).
    /// Not tried automatically: each call clears the page's consent record and reloads Google's script, and the
    /// opener is called again while no UI shows; Google also asks that it be called through `googlefc.callbackQueue`
    /// (called directly, it is missing until the script has loaded, and then tried again).
    public static let googleFundingChoices = PrivacySettingsCall(
        "googlefc.showRevocationMessage", name: "Google Privacy & messaging")

    /// Sourcepoint (GDPR, TCF or standard): `window._sp_.gdpr.loadPrivacyManagerModal(privacyManagerID)` "to pass the
    /// specific privacy manager ID" (docs.sourcepoint.com, "Resurface privacy manager"); an optional tab (`purposes`,
    /// `vendors`, `features`, `purposes-li`) opens that tab. It needs your privacy manager's id, so it is not tried
    /// automatically.
    public static func sourcepoint(privacyManagerID: Int, tab: String? = nil) -> PrivacySettingsCall {
        PrivacySettingsCall(
            "_sp_.gdpr.loadPrivacyManagerModal",
            arguments: [.number(Double(privacyManagerID))] + (tab.map { [.string($0)] } ?? []), name: "Sourcepoint")
    }

    /// The presets ``PrivacySettingsOpener/automatic`` tries after the standard `__tcfapi('displayConsentUi')` (a TCF
    /// v1 command, not a v2.2 one, which some v2 CMPs still answer), in this order, each only when the page has its
    /// function: Didomi, Cookiebot, Osano, Complianz, CookieYes, Klaro, CookieConsent, tarteaucitron.
    public static let presets: [PrivacySettingsCall] = [
        didomi, cookiebot, osano, complianz, cookieYes, klaro, cookieConsent, tarteaucitron,
    ]

    /// The preset called `name` (case-insensitive: a preset's name without spaces, e.g. `didomi`, `cookieyes`,
    /// `google`, or `tcf`), for the package's tools (`webcmp-host --settings-preset`). `nil` for an unknown name.
    package static func preset(named name: String) -> PrivacySettingsCall? {
        switch name.lowercased() {
        case "tcf", "displayconsentui": return tcfDisplayConsentUI
        case "google", "googlefc", "fundingchoices": return googleFundingChoices
        default: return presets.first { $0.name.lowercased() == name.lowercased() }
        }
    }

    /// The names ``preset(named:)`` knows, for usage texts.
    package static var presetNames: [String] { presets.map { $0.name.lowercased() } + ["google", "tcf"] }
}
