import Foundation

/// Passes the stored consent into the app's content web views, so that their pages do not show a second banner.
///
/// Three mechanisms. Seeding (``seedingScript(record:configuration:)``, ``cookies(record:configuration:)``) writes the
/// stored consent into the first-party entries a page's own CMP reads; the idempotent user script built by
/// ``userScript(record:keys:)`` carries the other two:
/// - **Our own handshake** (not Sourcepoint's): a page that posts `"webcmp.readyForConsent"` (as a string, or as
///   `{name: …}`) to its window is answered on that window with
///   `{name: "webcmp.loadConsent", consent: {gdpr: {euconsent, addtlConsent, gdprApplies}, usnat: {gppString},
///   ccpa: {uspstring}}}` — the fields that exist. Sourcepoint's web SDK expects a different message under its own
///   names (`sp.loadConsent` carrying Sourcepoint's `uuid` and server-issued `webConsentPayload`), which this
///   package does not have; it does not answer `sp.readyForConsent`.
/// - **A native-backed `__tcfapi`** (`ping`, `getTCData`, `addEventListener`, `removeEventListener`) answering with
///   IAB CMP API v2.2 `TCData` and `PingReturn` shapes, installed only when the page has no `__tcfapi` of its own.
/// - **A `__gpp` stub** (`ping`, `addEventListener`, `removeEventListener`, `hasSection`, `getSection`) with the
///   stored GPP string, likewise only when the page has none.
/// - **A native-backed `__uspapi`** (USP API v1.0 `getUSPData`: `{version: 1, uspString}`) with the stored US Privacy
///   string (`IABUSPrivacy_String`), likewise only when the page has none; without a stored string it answers
///   `(null, false)` ("no uspData object could be returned") rather than `1---`, which would claim it does not apply.
/// - **Frames** get the consent through the IAB cross-frame protocol, not through a local API: the script runs in the
///   main frame only (a local `__tcfapi` in a frame would shadow the page's CMP, which vendors find through the
///   `__tcfapiLocator` frame of an ancestor, and would never see ``updateScript(record:keys:)``, which runs in the main
///   frame). While a native-backed API is the page's one, the main frame has its locator frame (`__tcfapiLocator`,
///   `__gppLocator`, `__uspapiLocator`; added once `<body>` exists and the page has a frame of its own, and only when
///   the page has no frame of that name; `__gppLocator` and `__uspapiLocator` only with a stored GPP or US Privacy
///   string, or once an update brings one) and answers `{__tcfapiCall: {command, parameter, version, callId}}` with
///   `{__tcfapiReturn: {returnValue, success, callId}}` on `event.source` (likewise `__gppCall`/`__gppReturn`,
///   `__uspapiCall`/`__uspapiReturn`; a request sent as JSON text gets a JSON text reply). `addEventListener` through
///   a message answers again with the same `callId` on every update. Once a page CMP replaced the function, the script
///   no longer answers (the page CMP's own handler does). Replies target the requester's origin, or `*` for a frame with
///   an opaque origin (as the IAB reference stubs answer every frame).
///
/// Idempotent: the script keeps one state object per page (`window.__webcmpSharing`); running it again, or running
/// ``updateScript(record:keys:)`` after consent changed, replaces the data and notifies `__tcfapi` listeners, and
/// never installs a second set of handlers. The script is the resource `consent-sharing.js`; every value is
/// JSON-encoded (`JavaScriptLiteral`). If the resource is missing both builders return a script that does nothing
/// (still marked with ``scriptMarker``), see `CMPScripts.resourceFailures` in the core.
///
/// Spec: TCF "Consent Management Platform API" v2.2, "What required API commands must a CMP support?",
/// "TCData", "PingReturn", "How can vendors that use iframes call the CMP API from an iframe?"; GPP "CMP API
/// Specification" v1.1, "What required API commands must a CMP support?", "How can vendors that use iframes call the
/// CMP API from an iframe?"; US Privacy "USP API" v1.0, "getUSPData", "How can vendors that use iframes call the API
/// from an iframe?".
public enum ConsentSharing {
    /// A stable marker contained in every script this type builds, so platform adapters can find and replace them.
    public static let scriptMarker = "/* webcmpbridge-sharing */"

    /// Whether `source` is a script built by this type (platform adapters replace those and keep every other script).
    public static func isSharingScript(_ source: String) -> Bool {
        source.hasPrefix(scriptMarker)
    }

    /// The user script to add to a content web view: document start, **main frame only**. Frames (ad tags often live
    /// in iframes) reach it through the locator frames and `postMessage`, so they never get a local `__tcfapi` that
    /// would shadow the page's CMP, and they see every update.
    public static func userScript(record: ConsentRecord?, keys: IABKeySet) -> UserScript {
        UserScript(source: source(state: state(record: record, keys: keys), install: true),
                   injectionTime: .documentStart, forMainFrameOnly: true)
    }

    /// A script to evaluate in a page (its main frame) that already runs the sharing script, after consent changed.
    /// Listeners registered in the main frame and those registered by frames through `postMessage` get the new
    /// consent.
    public static func updateScript(record: ConsentRecord?, keys: IABKeySet) -> String {
        source(state: state(record: record, keys: keys), install: false)
    }

    /// The consent state the scripts carry: the stored strings plus `TCData`/`PingReturn` built from the IAB keys.
    static func state(record: ConsentRecord?, keys: IABKeySet) -> JSONValue {
        let tcString = record?.tcString
        // One decode at most, for TCData. The CMP id and version come only from the stored keys: the consent
        // transaction already applied the one rule for them (CMPIdentity).
        let decoded = tcString.flatMap { try? TCString(decoding: $0) }
        var gdprApplies: JSONValue = .null
        if case .int(let value)? = keys["IABTCF_gdprApplies"] { gdprApplies = .bool(value == 1) }
        let identity = keys.cmpIdentity
        let cmpID: JSONValue = identity.id.map { .number(Double($0)) } ?? .null
        let cmpVersion: JSONValue = identity.version.map { .number(Double($0)) } ?? .null
        var state: [String: JSONValue] = [
            "tcString": tcString.map(JSONValue.string) ?? .null,
            "addtlConsent": record?.additionalConsent.map(JSONValue.string) ?? .null,
            "gppString": record?.gppString.map(JSONValue.string) ?? .null,
            "uspString": record?.usPrivacy.map(JSONValue.string) ?? .null,
            "gdprApplies": gdprApplies,
            "cmpId": cmpID,
            "cmpVersion": cmpVersion,
            "version": .number((record?.savedAt.timeIntervalSince1970 ?? 0) * 1000),
        ]
        if let decoded {
            state["tcData"] = tcData(decoded, tcString: tcString ?? "", gdprApplies: gdprApplies, cmpID: cmpID,
                                     cmpVersion: cmpVersion, addtlConsent: record?.additionalConsent)
        }
        if let gpp = record?.gppString, let parsed = try? GPPString(parsing: gpp) {
            state["gppSections"] = .array(parsed.sectionIDs.map { .number(Double($0)) })
        }
        return .object(state)
    }

    /// `TCData` without `listenerId` and `eventStatus`, which the script adds per call (CMP API v2.2 "TCData"), and
    /// with the vendor consents and legitimate interests as strings of '0'/'1' that the script expands on demand.
    static func tcData(
        _ tc: TCString, tcString: String, gdprApplies: JSONValue, cmpID: JSONValue, cmpVersion: JSONValue,
        addtlConsent: String?
    ) -> JSONValue {
        func flags(_ set: IDSet, upTo maximum: Int? = nil) -> JSONValue {
            var members: [String: JSONValue] = [:]
            let top = Swift.max(maximum ?? 0, set.max ?? 0)
            if top > 0 { for id in 1...top { members[String(id)] = .bool(set.contains(id)) } }
            return .object(members)
        }
        // Vendor ids as a string of '0'/'1' (character n: id n + 1): the script builds TCData's objects from it only
        // when a page asks, so that a page that never asks does not parse ~2,000 object members (consent-sharing.js).
        func bits(_ set: IDSet) -> JSONValue {
            guard let top = set.max else { return .string("") }
            return .string(String((1...top).map { set.contains($0) ? "1" : "0" }))
        }
        var restrictions: [String: JSONValue] = [:]
        for restriction in tc.publisherRestrictions {
            var vendors = restrictions[String(restriction.purposeID)]?.objectValue ?? [:]
            for vendor in restriction.vendors {
                vendors[String(vendor)] = .number(Double(restriction.restrictionType.rawValue))
            }
            restrictions[String(restriction.purposeID)] = .object(vendors)
        }
        let publisher = tc.publisherTC
        var data: [String: JSONValue] = [
            "tcString": .string(tcString),
            "tcfPolicyVersion": .number(Double(tc.policyVersion)),
            "gvlVersion": .number(Double(tc.vendorListVersion)),
            "cmpId": cmpID,
            "cmpVersion": cmpVersion,
            "gdprApplies": gdprApplies,
            "cmpStatus": .string("loaded"),
            "isServiceSpecific": .bool(tc.isServiceSpecific),
            "useNonStandardTexts": .bool(tc.useNonStandardTexts),
            "publisherCC": .string(tc.publisherCountryCode),
            "purposeOneTreatment": .bool(tc.purposeOneTreatment),
            "purpose": .object([
                "consents": flags(tc.purposeConsents, upTo: 11),
                "legitimateInterests": flags(tc.purposeLegitimateInterests, upTo: 11),
            ]),
            "vendor": .object([
                "consents": bits(tc.vendorConsents),
                "legitimateInterests": bits(tc.vendorLegitimateInterests),
            ]),
            "specialFeatureOptins": flags(tc.specialFeatureOptIns, upTo: 2),
            "publisher": .object([
                "consents": flags(publisher?.purposeConsents ?? []),
                "legitimateInterests": flags(publisher?.purposeLegitimateInterests ?? []),
                "customPurpose": .object([
                    "consents": flags(publisher?.customPurposeConsents ?? []),
                    "legitimateInterests": flags(publisher?.customPurposeLegitimateInterests ?? []),
                ]),
                "restrictions": .object(restrictions),
            ]),
        ]
        if let addtlConsent { data["addtlConsent"] = .string(addtlConsent) }
        return .object(data)
    }

    /// `consent-sharing.js` called with `{state, install}` behind the ``scriptMarker`` comment. `install: false` (the
    /// update script) only hands the state to a script already running in the page.
    static func source(state: JSONValue, install: Bool) -> String {
        scriptMarker + "\n" + ScriptResource.consentSharing.source(config: .object([
            "state": state,
            "install": .bool(install),
        ]))
    }
}
