import Foundation

/// How a ``ConsentBridge`` loads and talks to a hosted CMP page.
public struct BridgeConfiguration: Sendable {
    /// The hosted CMP page.
    public var cmpURL: URL
    /// The page's dialect; `nil` detects it from the first message (see ``ConsentBridge``).
    public var dialect: CMPDialect?
    /// Origins (`scheme://host[:port]`) allowed to post messages and to hold the consent UI's main frame. Unless
    /// set, the origins of the pages this configuration names: ``cmpURL`` and, when it has one, the
    /// ``PrivacySettingsOpener/url`` of ``privacySettings`` (following later changes of either).
    public var allowedOrigins: Set<String> {
        get {
            explicitAllowedOrigins
                ?? Set([cmpURL, privacySettings?.url].compactMap { $0.flatMap(SecurityOrigin.origin(of:)) })
        }
        set { explicitAllowedOrigins = newValue }
    }
    private var explicitAllowedOrigins: Set<String>?
    /// How long the page may take to become ready before a timeout error, in seconds. Default 30.
    public var readyTimeout: TimeInterval
    /// How long a dialect without a close message (generic TCF, Onesecondbefore) stays open after the user's choice
    /// was saved, in seconds, so that the GPP update a CMP sends just after its TCF event is stored too. Default 0.5.
    public var finishDelay: TimeInterval = 0.5
    /// What happens to links that would take the CMP page away (see `ConsentBridge.decidePolicy(for:)`). Default
    /// ``ExternalLinkPolicy/openExternally``.
    public var externalLinks: ExternalLinkPolicy = .openExternally
    /// Whether a timeout clears stored consent. Off by default: stored consent stays untouched.
    public var clearsConsentOnTimeout: Bool
    /// The UI language (e.g. `"de"`), added to the URL as the query item ``languageQueryItemName``.
    public var language: String?
    /// The query item that carries ``language``. Default `"lang"`.
    public var languageQueryItemName: String
    /// Extra query items for the CMP URL, e.g. an authenticated user id.
    public var additionalQueryItems: [URLQueryItem]
    /// The app's context for the CMP page (platform, OS, language, App Tracking Transparency, appearance), sent as the
    /// frozen `window.webcmpAppContext` before any page script, and as query items after ``language`` only for the
    /// fields the app lists in ``AppContext/fieldsInURL`` (none by default). `nil` (the default): nothing is sent.
    /// The app's value when the bridge is created (see ``AppContext`` and <doc:SessionPromises>, promise 10).
    public var appContext: AppContext?
    /// `IABTCF_CmpSdkID` to write; `nil` uses the CMP id the page reports, if any.
    public var cmpSDKID: Int?
    /// `IABTCF_CmpSdkVersion` to write.
    public var cmpSDKVersion: Int?
    /// `IABTCF_gdprApplies` when the page does not say; `nil` leaves the key unset ("undetermined").
    public var gdprApplies: Bool?
    /// When stored consent must be renewed.
    public var expiry: ConsentExpiryPolicy
    /// App Tracking Transparency chaining. Disabled by default: the kit never prompts on its own.
    public var tracking: TrackingPolicy
    /// Caps on message bodies (`JSONLimits.default`; the package's tests and tools may set others).
    package var limits: JSONLimits = .default
    /// Whether the user may dismiss the consent UI without acting in the CMP. Default ``InteractiveDismissal/afterChoice``.
    public var interactiveDismissal: InteractiveDismissal
    /// Whether the page is shown to ask for consent or, for "Privacy settings", to change it. Default
    /// ``ConsentUIMode/consent``.
    public var mode: ConsentUIMode = .consent
    /// How ``ConsentUIMode/settings`` opens the CMP's preferences; `nil` uses
    /// ``PrivacySettingsOpener/default(for:)`` for ``dialect`` (with automatic detection, the calls of the dialect
    /// detected when the page is ready).
    public var privacySettings: PrivacySettingsOpener?
    /// Seconds each privacy-settings opener has to make the CMP show its UI — it is called again every 0.25 s
    /// meanwhile — before the next one is tried; also how long the page has to offer an opener at all, or to show its
    /// UI when there is nothing to call (the core's `SettingsOpening`). Default 3.
    public var settingsAttemptTimeout: TimeInterval = 3
    /// Adopting consent a previous CMP SDK left in `UserDefaults` when nothing is stored yet. On by default.
    public var migration: ConsentMigration = .default
    /// The app's bundled CMP page, loaded when the hosted page fails (see ``FallbackPage``; the core's
    /// `FallbackDecision` decides when).
    /// `nil` (the default): a failure ends the run with ``ConsentBridgeError/Code/loadFailed``.
    public var fallback: FallbackPage?
    /// What happens when the page saves a TC string that TCF 2.3 requires to carry the DisclosedVendors segment
    /// (created on or after 2026-02-28) and it does not — a CMP page that was never updated for TCF 2.3. Default
    /// ``IABInAppConsent/MissingDisclosedVendorsPolicy/warn``: the consent is stored and a ``ConsentBridgeEvent/diagnostic(_:)``
    /// names the rule (refusing would leave the user's choice unrecorded and the app without consent).
    /// ``IABInAppConsent/MissingDisclosedVendorsPolicy/refuse``: nothing is stored and the save fails with
    /// ``ConsentBridgeError/Code/invalidConsent`` (its consent error's code:
    /// ``IABInAppConsent/IABConsentError/Code/missingDisclosedVendors``). The IAB source and the exact reading:
    /// ``IABInAppConsent/MissingDisclosedVendorsPolicy``.
    public var missingDisclosedVendors: MissingDisclosedVendorsPolicy = .warn

    /// Creates a configuration.
    public init(
        cmpURL: URL,
        dialect: CMPDialect? = nil,
        allowedOrigins: Set<String>? = nil,
        readyTimeout: TimeInterval = 30,
        clearsConsentOnTimeout: Bool = false,
        language: String? = nil,
        languageQueryItemName: String = "lang",
        additionalQueryItems: [URLQueryItem] = [],
        cmpSDKID: Int? = nil,
        cmpSDKVersion: Int? = nil,
        gdprApplies: Bool? = true,
        expiry: ConsentExpiryPolicy = ConsentExpiryPolicy(),
        tracking: TrackingPolicy = .disabled,
        interactiveDismissal: InteractiveDismissal = .afterChoice
    ) {
        self.cmpURL = cmpURL
        self.dialect = dialect
        explicitAllowedOrigins = allowedOrigins
        self.readyTimeout = readyTimeout
        self.clearsConsentOnTimeout = clearsConsentOnTimeout
        self.language = language
        self.languageQueryItemName = languageQueryItemName
        self.additionalQueryItems = additionalQueryItems
        self.cmpSDKID = cmpSDKID
        self.cmpSDKVersion = cmpSDKVersion
        self.gdprApplies = gdprApplies
        self.expiry = expiry
        self.tracking = tracking
        self.interactiveDismissal = interactiveDismissal
    }

    /// The consent rules of `ConsentCommit` for a page's save, on a page that reported `pageConfigVersion` (what a
    /// dialect's save does beyond the shared consent is its extras' rule, `ConsentExtras`).
    func commitRules(
        pageConfigVersion: String?, source: ConsentProvenance.Source = .cmpPage
    ) -> ConsentCommit.Rules {
        ConsentCommit.Rules(
            cmpSDKID: cmpSDKID, cmpSDKVersion: cmpSDKVersion, gdprApplies: gdprApplies,
            configVersion: pageConfigVersion ?? expiry.currentConfigVersion,
            minimumPolicyVersion: expiry.minimumPolicyVersion,
            source: source,
            missingDisclosedVendors: missingDisclosedVendors)
    }

    /// The URL the bridge loads: ``cmpURL`` with the language, the app context's and the additional query items appended (existing query
    /// items and the fragment are kept; a configured item replaces one of the same name).
    /// In ``ConsentUIMode/settings`` mode the URL and query items of ``privacySettings`` apply as well.
    public var resolvedURL: URL {
        guard mode == .settings else { return addingQueryItems(to: cmpURL) }
        let opener = settingsOpener
        return addingQueryItems(opener.queryItems, to: opener.url ?? cmpURL)
    }

    /// `url` with the language and the additional query items, then `extra` (the same rules as ``resolvedURL``); the
    /// fallback page gets the hosted page's items this way.
    func addingQueryItems(_ extra: [URLQueryItem] = [], to url: URL) -> URL {
        var items = additionalQueryItems
        if let appContext { items.insert(contentsOf: appContext.queryItems, at: 0) }
        if let language { items.insert(URLQueryItem(name: languageQueryItemName, value: language), at: 0) }
        return URLRewriting.settingQueryItems(items + extra, in: url)
    }

    /// ``privacySettings`` or the dialect's default.
    var settingsOpener: PrivacySettingsOpener { privacySettings ?? .default(for: dialect) }
}
