/// The functions common CMPs document for reopening their preferences on a web page. Each preset cites the vendor's
/// own documentation; CMPs whose opener could not be confirmed there are left out (give your CMP's own call with
/// ``PrivacySettingsCall/init(_:arguments:appendsCallback:name:)``).
extension PrivacySettingsCall {
    /// OneTrust: `OneTrust.ToggleInfoDisplay()` opens the preference center (OneTrust Developer Portal,
    /// "Cookie Consent JavaScript API", `ToggleInfoDisplay`).
    public static let oneTrust = PrivacySettingsCall("OneTrust.ToggleInfoDisplay", name: "OneTrust")

    /// Didomi: `Didomi.preferences.show()` opens the preferences (Didomi Developers, Web SDK reference,
    /// "preferences.show").
    public static let didomi = PrivacySettingsCall("Didomi.preferences.show", name: "Didomi")

    /// Usercentrics (CMP v2): `UC_UI.showSecondLayer()` opens the second layer (Usercentrics documentation,
    /// "UC_UI" JavaScript API).
    public static let usercentrics = PrivacySettingsCall("UC_UI.showSecondLayer", name: "Usercentrics")

    /// Cookiebot: `Cookiebot.renew()` shows the consent dialog again so the user can change consent (Cookiebot
    /// developer documentation, "Cookiebot.renew()").
    public static let cookiebot = PrivacySettingsCall("Cookiebot.renew", name: "Cookiebot")

    /// Quantcast Choice: `__tcfapi('displayConsentUi', 2, callback)` (Quantcast's Choice documentation), the same
    /// call as ``tcfDisplayConsentUI``.
    public static let quantcastChoice = PrivacySettingsCall(
        "__tcfapi", arguments: [.string("displayConsentUi"), .number(2)], appendsCallback: true,
        name: "Quantcast Choice")

    /// Sourcepoint: `window._sp_.gdpr.loadPrivacyManagerModal(privacyManagerID)` opens the privacy manager with the
    /// given id (Sourcepoint documentation, "loadPrivacyManagerModal"). It needs your privacy manager's id, so it is
    /// not tried automatically.
    public static func sourcepoint(privacyManagerID: Int) -> PrivacySettingsCall {
        PrivacySettingsCall(
            "_sp_.gdpr.loadPrivacyManagerModal", arguments: [.number(Double(privacyManagerID))], name: "Sourcepoint")
    }

    /// The presets ``PrivacySettingsOpener/automatic`` tries after the standard call, in this order, each only when
    /// the page has its function: OneTrust, Didomi, Usercentrics, Cookiebot. (Quantcast Choice answers the standard
    /// call; Sourcepoint needs an id.)
    public static let presets: [PrivacySettingsCall] = [oneTrust, didomi, usercentrics, cookiebot]

    /// The preset called `name` (case-insensitive: `onetrust`, `didomi`, `usercentrics`, `cookiebot`,
    /// `quantcast`, `tcf`), for tools (`webcmp-host --settings-preset`). `nil` for an unknown name.
    public static func preset(named name: String) -> PrivacySettingsCall? {
        switch name.lowercased() {
        case "onetrust": return oneTrust
        case "didomi": return didomi
        case "usercentrics": return usercentrics
        case "cookiebot": return cookiebot
        case "quantcast", "quantcastchoice", "quantcast-choice": return quantcastChoice
        case "tcf", "displayconsentui": return tcfDisplayConsentUI
        default: return nil
        }
    }
}
