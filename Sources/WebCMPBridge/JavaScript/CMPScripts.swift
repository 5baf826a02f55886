/// The JavaScript the bridge sends to a CMP page. All data goes through ``JavaScriptLiteral``; the longer scripts are
/// `.js` resources of this target (see ``resourceFailures``).
package enum CMPScripts {
    /// The Gravito re-injection: `window.postMessage({type: 'cookieData', tcstring, nontcfdata, acstring}, origin)`.
    /// On first run (no record) every field is an empty string. It is posted to `targetOrigin` (the CMP page's own
    /// origin), never `"*"`: if the main frame has meanwhile navigated to another origin, the browser drops it.
    package static func cookieData(record: ConsentRecord?, targetOrigin: String) -> String {
        let nonTCF: JSONValue = record?.nonTCFData ?? .string("")
        let message: JSONValue = .object([
            "type": .string("cookieData"),
            "tcstring": .string(record?.tcString ?? ""),
            "nontcfdata": nonTCF,
            "acstring": .string(record?.additionalConsent ?? ""),
        ])
        return "window.postMessage(" + JavaScriptLiteral.expression(message) + ", "
            + JavaScriptLiteral.string(targetOrigin) + ");"
    }

    /// How long the TCF forwarder waits for `__tcfapi` / `__gpp` to appear, in milliseconds.
    package static let apiWaitMilliseconds = 30_000

    /// How often the TCF forwarder pings a CMP that is not loaded yet, in milliseconds.
    package static let pingMilliseconds = 100

    /// The user script of the generic TCF dialect. It waits for the page's `__tcfapi` and `__gpp` (CMPs often load
    /// late) and posts `{type: "ready", api}` once one of their CMPs answers `ping` as loaded (`cmpLoaded: true` or
    /// `cmpStatus: "loaded"`; an IAB stub without its CMP never does), so a page whose CMP never starts times out.
    /// It forwards `cmpuishown`, `tcloaded` and `useractioncomplete` events (`tcString`, `gdprApplies`,
    /// `addtlConsent`, `cmpId`, `cmpVersion`, `eventStatus`) and the GPP CMP's events (`eventName`, with the event's
    /// `signalStatus`, `cmpDisplayStatus`, `gppString`, `applicableSections`) to the handler `webcmpTCF`, and the
    /// page's US Privacy string (`__uspapi('getUSPData', 1, …)`: `{type: "usp", uspString}`) when the page has one.
    ///
    /// Spec: TCF "Consent Management Platform API" v2.2, "ping", "addEventListener" and "TCData";
    /// GPP "CMP API Specification" v1.1, "ping" (`PingReturn`) and "addEventListener" (`EventListener`);
    /// IAB "USP API" v1.0, "getUSPData".
    package static var tcfForwarder: UserScript {
        UserScript(source: tcfForwarderSource, injectionTime: .documentStart, forMainFrameOnly: true)
    }

    /// The forwarder's source: `tcf-forwarder.js` called with `{handlerName, apiWaitMilliseconds, pingMilliseconds}`. Built once.
    static let tcfForwarderSource = tcfForwarderSource(
        handlerName: CMPDialect.tcf.handlerName, apiWaitMilliseconds: apiWaitMilliseconds)

    /// `tcf-forwarder.js` called with the given configuration (``ScriptResource/inertSource`` if the file is missing).
    static func tcfForwarderSource(
        handlerName: String, apiWaitMilliseconds: Int, pingMilliseconds: Int = pingMilliseconds
    ) -> String {
        ScriptResource.tcfForwarder.source(config: .object([
            "handlerName": .string(handlerName),
            "apiWaitMilliseconds": .number(Double(apiWaitMilliseconds)),
            "pingMilliseconds": .number(Double(pingMilliseconds)),
        ]))
    }
}
