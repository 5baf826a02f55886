/// The functions CMPs use for reopening their preferences on a web page. Each preset cites where its name comes from:
/// the vendor's own documentation or published source where we found it; otherwise the publishers' pages that call
/// it, and the DocC article "Privacy settings" marks it **unconfirmed**. An unconfirmed preset is still safe to try:
/// the kit calls only a function the page has, and says "opened" only on evidence (``SettingsOpening``), so a wrong
/// call fails visibly instead of silently. Give another CMP's call yourself with
/// ``PrivacySettingsCall/init(_:arguments:appendsCallback:name:)``.
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
    /// specific privacy manager ID" (docs.sourcepoint.com/hc/en-us/articles/4402697202323, "Resurface privacy
    /// manager"); an optional tab (`purposes`, `vendors`, `features`, `purposes-li`) opens that tab. It needs your
    /// privacy manager's id: set ``PrivacySettingsOpener/sourcepointPrivacyManagerID`` and the automatic opener
    /// tries it first.
    public static func sourcepoint(privacyManagerID: Int, tab: String? = nil) -> PrivacySettingsCall {
        PrivacySettingsCall(
            "_sp_.gdpr.loadPrivacyManagerModal",
            arguments: [.number(Double(privacyManagerID))] + (tab.map { [.string($0)] } ?? []), name: "Sourcepoint")
    }

    /// Sourcepoint U.S. multi-state privacy (usnat): `window._sp_.usnat.loadPrivacyManagerModal(privacyManagerID)`.
    /// Sourcepoint's "Resurface privacy manager" article (docs.sourcepoint.com/hc/en-us/articles/4402697202323)
    /// says the code "depends on the regulatory framework" and names `loadPrivacyManagerModal` with the id; the
    /// usnat form is from Sourcepoint's snippets as publishers run them (**unconfirmed** in the text we could read).
    public static func sourcepointUSNat(privacyManagerID: Int) -> PrivacySettingsCall {
        PrivacySettingsCall(
            "_sp_.usnat.loadPrivacyManagerModal", arguments: [.number(Double(privacyManagerID))],
            name: "Sourcepoint U.S.")
    }

    /// OneTrust: `OneTrust.ToggleInfoDisplay()`, which publishers' "Cookie settings" links call (seen across
    /// publishers' sites; **unconfirmed** in OneTrust's developer docs we could reach). Its evidence is also its own
    /// event `OneTrustPCLoaded`, "triggered when the preference center UI is surfaced" (developer.onetrust.com,
    /// "Web CMP Events Guide"), besides TCF's. The function toggles: once its UI shows the kit never calls it again.
    public static let oneTrust = PrivacySettingsCall("OneTrust.ToggleInfoDisplay", name: "OneTrust")
        .shown(on: "OneTrustPCLoaded")

    /// Usercentrics: `UC_UI.showSecondLayer()`, its second layer (the preferences), as publishers' "Privacy settings"
    /// links call it (**unconfirmed**: Usercentrics' browser SDK docs name the second layer, `UI_LAYER.SECOND_LAYER`,
    /// but we did not find the function there). Evidence: its TCF or GPP API.
    public static let usercentrics = PrivacySettingsCall("UC_UI.showSecondLayer", name: "Usercentrics")

    /// TrustArc: `truste.eu.clickListener()`, what TrustArc's own banner script calls for its "more info" link and
    /// publishers' "Cookie preferences" links call (**unconfirmed** in TrustArc's documentation).
    public static let trustArc = PrivacySettingsCall("truste.eu.clickListener", name: "TrustArc")

    /// iubenda: `_iub.cs.api.openPreferences()`, the Cookie Solution's JavaScript API as publishers call it
    /// (**unconfirmed**: iubenda's "Cookie Solution (advanced guide)", iubenda.com/en/help/1205, holds the API; the
    /// parts we could read did not show it).
    public static let iubenda = PrivacySettingsCall("_iub.cs.api.openPreferences", name: "iubenda")

    /// Axeptio: `openAxeptioCookies()`: "call this function to open the cookies widget" (Axeptio's "Axeptio
    /// Javascript SDK", developers.axeptio.eu/v/english/cookies/axeptio-javascript-sdk); defined on `window` "when
    /// Axeptio is ready", so it may be missing at first.
    public static let axeptio = PrivacySettingsCall("openAxeptioCookies", name: "Axeptio")

    /// Ketch: `ketch('showPreferences')`, the Smart Tag's command queue; what Ketch's own SDKs evaluate in their web
    /// views (its iOS KetchUI: `evaluateJavaScript("ketch('showPreferences')")`; **unconfirmed** in Ketch's
    /// documentation we could reach). `ketch` is a queue stub until the tag has loaded; the queued command runs then.
    public static let ketch = PrivacySettingsCall("ketch", arguments: [.string("showPreferences")], name: "Ketch")

    /// Ethyca Fides (open source, ethyca/fides): `Fides.showModal()`, "programmatically show the FidesJS UI" (its
    /// `fides-js` docs; CHANGELOG: "Added Fides.showModal() … to allow programmatic opening of consent modals").
    /// Its evidence is also its own event `FidesUIShown`, which FidesJS fires when its UI shows.
    public static let fides = PrivacySettingsCall("Fides.showModal", name: "Fides").shown(on: "FidesUIShown")

    /// Sirdata: `Sddan.cmp.displayUI()`, as publishers' "Cookies" links call it (**unconfirmed**: Sirdata's CMP API
    /// docs, cmp.docs.sirdata.net, document `__sdcmpapi`/`__tcfapi` and `cmpuishown`, which is the evidence).
    public static let sirdata = PrivacySettingsCall("Sddan.cmp.displayUI", name: "Sirdata")

    /// consentmanager.net: `__cmp('showScreen')`: "Opens the consent layer on welcome page" (help.consentmanager.net,
    /// "Changes to the IAB CMP Framework JS API"; `showScreenAdvanced` opens its custom choices page). Without a
    /// call, ``PrivacySettingsOpener/consentmanager`` (the `cmpscreen` query item) does the same.
    public static let consentmanager = PrivacySettingsCall(
        "__cmp", arguments: [.string("showScreen")], name: "consentmanager")

    /// Termly: `displayPreferenceModal()`, what publishers' "Consent Preferences" links call (**unconfirmed** in
    /// Termly's documentation we could reach).
    public static let termly = PrivacySettingsCall("displayPreferenceModal", name: "Termly")

    /// The presets ``PrivacySettingsOpener/automatic`` tries after the standard `__tcfapi('displayConsentUi')` (a TCF
    /// v1 command, not a v2.2 one, which some v2 CMPs still answer, InMobi Choice among them), in this order, each
    /// only when the page has its function: Didomi, Cookiebot, Osano, Complianz, CookieYes, Klaro, CookieConsent,
    /// tarteaucitron, OneTrust, Usercentrics, TrustArc, iubenda, Axeptio, Ketch, Fides, Sirdata, consentmanager,
    /// Termly. Not Google's (it clears the consent record) nor Sourcepoint's (it needs your privacy manager's id:
    /// ``PrivacySettingsOpener/sourcepointPrivacyManagerID``).
    public static let presets: [PrivacySettingsCall] = [
        didomi, cookiebot, osano, complianz, cookieYes, klaro, cookieConsent, tarteaucitron,
        oneTrust, usercentrics, trustArc, iubenda, axeptio, ketch, fides, sirdata, consentmanager, termly,
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
