/// The JavaScript the bridge sends to a CMP page. All data goes through ``JavaScriptLiteral``; the longer scripts are
/// `.js` resources of this target (see ``resourceFailures``).
package enum CMPScripts {
    /// The Gravito re-injection: `window.postMessage({type: 'cookieData', tcstring, nontcfdata, acstring}, '*')`.
    /// On first run (no record) every field is an empty string.
    package static func cookieData(record: ConsentRecord?) -> String {
        let nonTCF: JSONValue = record?.nonTCFData ?? .string("")
        let message: JSONValue = .object([
            "type": .string("cookieData"),
            "tcstring": .string(record?.tcString ?? ""),
            "nontcfdata": nonTCF,
            "acstring": .string(record?.additionalConsent ?? ""),
        ])
        return "window.postMessage(" + JavaScriptLiteral.expression(message) + ", \"*\");"
    }

    /// How long the TCF forwarder waits for `__tcfapi` / `__gpp` to appear, in milliseconds.
    package static let apiWaitMilliseconds = 30_000

    /// The user script of the generic TCF dialect. It waits for the page's `__tcfapi` (CMPs often load late), posts
    /// `{type: "ready"}` once it exists, and forwards `cmpuishown`, `tcloaded` and `useractioncomplete` events
    /// (`tcString`, `gdprApplies`, `addtlConsent`, `cmpId`, `cmpVersion`, `eventStatus`) to the handler `webcmpTCF`.
    /// Likewise it forwards the GPP string from `__gpp('addEventListener', …)` when the page has a GPP CMP.
    ///
    /// Spec: TCF "Consent Management Platform API" v2.2, "addEventListener" and "TCData";
    /// GPP "CMP API Specification" v1.1, "addEventListener".
    package static var tcfForwarder: UserScript {
        UserScript(source: tcfForwarderSource, injectionTime: .documentStart, forMainFrameOnly: true)
    }

    /// The forwarder's source: `tcf-forwarder.js` called with `{handlerName, apiWaitMilliseconds}`. Built once.
    static let tcfForwarderSource = tcfForwarderSource(
        handlerName: CMPDialect.tcf.handlerName, apiWaitMilliseconds: apiWaitMilliseconds)

    /// `tcf-forwarder.js` called with the given configuration (``ScriptResource/inertSource`` if the file is missing).
    static func tcfForwarderSource(handlerName: String, apiWaitMilliseconds: Int) -> String {
        ScriptResource.tcfForwarder.source(config: .object([
            "handlerName": .string(handlerName),
            "apiWaitMilliseconds": .number(Double(apiWaitMilliseconds)),
        ]))
    }
}
