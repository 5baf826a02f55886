import Foundation

/// Why the app shows the CMP page: to ask for consent, or so the user can change consent already given
/// ("Privacy settings" in the app's menu). See ``BridgeConfiguration/mode``.
public enum ConsentUIMode: String, Sendable, Hashable, CaseIterable {
    /// Ask for consent (first run, renewal). The page shows what it shows by default, usually its first layer.
    case consent
    /// Reopen the CMP with the stored consent for changing it (``BridgeConfiguration/privacySettings`` says how).
    /// The UI stays open until the user acts: a CMP reporting the consent it loaded (`tcloaded`) does not end it.
    case settings
}

/// How the bridge opens a CMP's preferences in ``ConsentUIMode/settings`` mode. Every part is optional and they
/// combine: a different ``url``, extra ``queryItems``, and a JavaScript ``call`` made once the page is ready.
///
/// The stored record is always given back to the page as in consent mode (Gravito: the `cookieData` answer to
/// `CMP-loaded`), so the preferences show the user's current choices.
public struct PrivacySettingsOpener: Sendable, Hashable {
    /// A page to load instead of ``BridgeConfiguration/cmpURL`` (the language and additional query items are added
    /// to it as well); `nil`: the CMP URL.
    public var url: URL?
    /// Query items added to the URL in settings mode (replacing items of the same name).
    public var queryItems: [URLQueryItem]
    /// A JavaScript function the bridge calls in the page once it is ready; `nil`: none.
    public var call: PrivacySettingsCall?
    /// Whether, after ``call`` (or without one), the bridge tries the ``PrivacySettingsCall/presets`` whose function
    /// the page has, in order, until the CMP shows its UI. The default for the generic TCF dialect.
    public var triesPresets: Bool
    /// Sourcepoint: the id of your GDPR (TCF or standard) privacy manager, from Sourcepoint's portal (Messages ›
    /// Privacy Manager). When set, `_sp_.gdpr.loadPrivacyManagerModal(id)`
    /// (``PrivacySettingsCall/sourcepoint(privacyManagerID:tab:)``) is tried first: Sourcepoint's opener needs it, so
    /// it cannot be a preset of its own. The id reaches the page as a JSON argument of `open-settings.js`.
    public var sourcepointPrivacyManagerID: Int?
    /// Sourcepoint: the id of your U.S. multi-state privacy manager. When set,
    /// `_sp_.usnat.loadPrivacyManagerModal(id)` (``PrivacySettingsCall/sourcepointUSNat(privacyManagerID:)``) is tried
    /// first (after the GDPR one).
    public var sourcepointUSNatPrivacyManagerID: Int?

    /// Creates an opener.
    public init(
        url: URL? = nil, queryItems: [URLQueryItem] = [], call: PrivacySettingsCall? = nil, triesPresets: Bool = false
    ) {
        self.url = url
        self.queryItems = queryItems
        self.call = call
        self.triesPresets = triesPresets
    }

    /// The calls tried in order: Sourcepoint's with the configured ids (the app said which CMP it runs), ``call``,
    /// then (``triesPresets``) the presets.
    var candidates: [PrivacySettingsCall] {
        let sourcepoint = [
            sourcepointPrivacyManagerID.map { PrivacySettingsCall.sourcepoint(privacyManagerID: $0) },
            sourcepointUSNatPrivacyManagerID.map { PrivacySettingsCall.sourcepointUSNat(privacyManagerID: $0) },
        ].compactMap { $0 }
        let first = sourcepoint + (call.map { [$0] } ?? [])
        return first + (triesPresets ? PrivacySettingsCall.presets.filter { !first.contains($0) } : [])
    }

    /// Automatic: the standard `__tcfapi('displayConsentUi')` first (what InMobi Choice, formerly Quantcast Choice,
    /// documents), then every preset whose function the page has (``PrivacySettingsCall/presets``), one at a time,
    /// each called until the CMP shows its UI or its window ends (``BridgeConfiguration/settingsAttemptTimeout``).
    /// Set ``sourcepointPrivacyManagerID`` on a copy for Sourcepoint.
    public static let automatic = PrivacySettingsOpener(call: .tcfDisplayConsentUI, triesPresets: true)

    /// consentmanager.net: the page loaded with the query item `cmpscreen` shows the consent layer "even for users
    /// that already gave consent" (help.consentmanager.net, "Manually opening / resurfacing the consent layer"; its
    /// JavaScript API names no function for it). No call is made: the page shows its UI on its own, which its TCF API
    /// reports (`cmpuishown`, or `displayStatus: "visible"` in its `ping`).
    public static let consentmanager = PrivacySettingsOpener(queryItems: [URLQueryItem(name: "cmpscreen", value: nil)])

    /// The query item `layer=settings`, which the SampleHost page (and pages written after it) reads as "open the
    /// preferences layer". Neither Gravito's nor Onesecondbefore's in-app documentation that we could find names a
    /// parameter for this, so for those dialects it is a convention of your page: set ``queryItems`` to whatever your
    /// CMP page reads.
    public static let layerQueryItem = URLQueryItem(name: "layer", value: "settings")

    /// The default for `dialect`, as its rules say: Gravito, Onesecondbefore and automatic detection (`nil`) add
    /// ``layerQueryItem``; the generic TCF dialect is ``automatic``. In automatic detection the URL is this one (the
    /// dialect is not known before the page loads) and the calls are those of the dialect detected when the page is
    /// ready: the generic TCF dialect's ``automatic`` unless an app protocol answered first.
    public static func `default`(for dialect: CMPDialect?) -> PrivacySettingsOpener {
        dialect?.rules?.defaultSettingsOpener ?? PrivacySettingsOpener(queryItems: [layerQueryItem])
    }
}

/// A JavaScript function call that opens a CMP's preferences, e.g. `Didomi.preferences.show()` or
/// `__tcfapi('displayConsentUi', 2, callback)`.
///
/// The function is named by a path of property names from `window` and called with JSON arguments: the script is
/// the `open-settings.js` resource called with one JSON argument, so no part of it is ever interpolated into
/// JavaScript. A function the page does not have is not called (and nothing fails).
public struct PrivacySettingsCall: Sendable, Hashable {
    /// The property names from `window` to the function, e.g. `["Didomi", "preferences", "show"]`.
    public var path: [String]
    /// The arguments.
    public var arguments: [JSONValue]
    /// Whether a callback is passed after ``arguments`` (the `__tcfapi` calling convention); its `success: false`
    /// answer is a refusal.
    public var appendsCallback: Bool
    /// A name for reports (``ConsentBridge/privacySettingsOpenedBy``, errors); default: the path.
    public var name: String
    /// The `window` event the CMP documents firing when its UI shows (OneTrust's `OneTrustPCLoaded`, Fides'
    /// `FidesUIShown`): its own evidence beside TCF's and GPP's. `open-settings.js` listens for it (once) before each
    /// call and reports `shown`. Set by the presets that have one.
    var shownEvent: String?

    /// Creates a call of the function at `path`, a dot-separated path from `window` such as
    /// `"Didomi.preferences.show"`.
    public init(_ path: String, arguments: [JSONValue] = [], appendsCallback: Bool = false, name: String? = nil) {
        self.path = path.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
        self.arguments = arguments
        self.appendsCallback = appendsCallback
        self.name = name ?? self.path.joined(separator: ".")
    }

    /// `__tcfapi('displayConsentUi', 2, callback)`: the command TCF v1 defined for showing the CMP UI, which many v2
    /// CMPs still honour. TCF v2.2's CMP API has no standard command for it; use your CMP's own function (for
    /// example `PrivacySettingsCall("Didomi.preferences.show")`) when it does not.
    public static let tcfDisplayConsentUI = PrivacySettingsCall(
        "__tcfapi", arguments: [.string("displayConsentUi"), .number(2)], appendsCallback: true,
        name: "__tcfapi('displayConsentUi')")

    /// The script that makes the call (`open-settings.js` with this call as its JSON argument).
    var script: String {
        script(reportingTo: nil, attempt: 0)
    }

    /// The script that makes the call and reports its result as `{type: "settings", attempt, result}` to the
    /// message handler `handler` (``SettingsOpening/CallResult``).
    func script(reportingTo handler: String?, attempt: Int) -> String {
        var config: [String: JSONValue] = [
            "path": .array(path.map(JSONValue.string)),
            "arguments": .array(arguments),
            "callback": .bool(appendsCallback),
            "handler": handler.map(JSONValue.string) ?? .null,
            "attempt": .number(Double(attempt)),
        ]
        if let shownEvent { config["shownEvent"] = .string(shownEvent) }
        return ScriptResource.openSettings.source(config: .object(config))
    }

    /// This call with ``shownEvent`` set to `event`.
    func shown(on event: String) -> PrivacySettingsCall {
        var call = self
        call.shownEvent = event
        return call
    }
}
