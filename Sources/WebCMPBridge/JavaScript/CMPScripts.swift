/// The JavaScript the bridge sends to a CMP page. All data goes through ``JavaScriptLiteral``.
public enum CMPScripts {
    /// The Gravito re-injection: `window.postMessage({type: 'cookieData', tcstring, nontcfdata, acstring}, '*')`.
    /// On first run (no record) every field is an empty string.
    public static func cookieData(record: ConsentRecord?) -> String {
        let nonTCF: JSONValue = record?.nonTCFData ?? .string("")
        let message: JSONValue = .object([
            "type": .string("cookieData"),
            "tcstring": .string(record?.tcString ?? ""),
            "nontcfdata": nonTCF,
            "acstring": .string(record?.additionalConsent ?? ""),
        ])
        return "window.postMessage(\(JavaScriptLiteral.expression(message)), \"*\");"
    }

    /// How long the TCF forwarder waits for `__tcfapi` / `__gpp` to appear, in milliseconds.
    public static let apiWaitMilliseconds = 30_000

    /// The user script of the generic TCF dialect. It waits for the page's `__tcfapi` (CMPs often load late), posts
    /// `{type: "ready"}` once it exists, and forwards `cmpuishown`, `tcloaded` and `useractioncomplete` events
    /// (`tcString`, `gdprApplies`, `addtlConsent`, `cmpId`, `cmpVersion`, `eventStatus`) to the handler `webcmpTCF`.
    /// Likewise it forwards the GPP string from `__gpp('addEventListener', …)` when the page has a GPP CMP.
    ///
    /// Spec: TCF "Consent Management Platform API" v2.2, "addEventListener" and "TCData";
    /// GPP "CMP API Specification" v1.1, "addEventListener".
    public static var tcfForwarder: UserScript {
        UserScript(source: tcfForwarderSource, injectionTime: .documentStart, forMainFrameOnly: true)
    }

    static let tcfForwarderSource: String = """
        (function () {
          if (window.__webcmpTCFForwarder) { return; }
          Object.defineProperty(window, '__webcmpTCFForwarder', { value: true });
          var handlers = window.webkit && window.webkit.messageHandlers;
          var handler = handlers && handlers.\(CMPDialect.tcf.handlerName);
          if (!handler) { return; }
          var post = function (message) { try { handler.postMessage(message); } catch (e) {} };
          var deadline = Date.now() + \(apiWaitMilliseconds);
          var str = function (v) { return typeof v === 'string' ? v : null; };
          var num = function (v) { return typeof v === 'number' && isFinite(v) ? v : null; };
          var bool = function (v) { return typeof v === 'boolean' ? v : null; };
          var waitFor = function (name, hook) {
            var attempt = function () {
              if (typeof window[name] === 'function') { hook(window[name]); return; }
              if (Date.now() < deadline) { setTimeout(attempt, 50); }
            };
            attempt();
          };
          waitFor('__tcfapi', function (tcfapi) {
            post({ type: 'ready' });
            try {
              tcfapi('addEventListener', 2, function (tcData, success) {
                if (!success || !tcData || typeof tcData !== 'object') { return; }
                var status = str(tcData.eventStatus);
                if (status === 'cmpuishown') { post({ type: 'tcf', eventStatus: status }); return; }
                if (status !== 'tcloaded' && status !== 'useractioncomplete') { return; }
                if (!str(tcData.tcString)) { return; }
                post({
                  type: 'tcf', eventStatus: status, tcString: tcData.tcString,
                  gdprApplies: bool(tcData.gdprApplies), addtlConsent: str(tcData.addtlConsent),
                  cmpId: num(tcData.cmpId), cmpVersion: num(tcData.cmpVersion)
                });
              });
            } catch (e) {}
          });
          waitFor('__gpp', function (gpp) {
            try {
              gpp('addEventListener', function (event, success) {
                if (!success || !event || typeof event !== 'object') { return; }
                var ping = event.pingData;
                if (!ping || typeof ping !== 'object' || !str(ping.gppString)) { return; }
                if (ping.signalStatus && ping.signalStatus !== 'ready') { return; }
                var sections = Array.isArray(ping.applicableSections)
                  ? ping.applicableSections.filter(function (id) { return typeof id === 'number' && id > 0; })
                  : null;
                post({ type: 'gpp', gppString: ping.gppString, applicableSections: sections });
              });
            } catch (e) {}
          });
        })();
        """
}
