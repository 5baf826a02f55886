// The TCF/GPP forwarder of the generic TCF dialect (see CMPScripts.tcfForwarder). A function expression; Swift calls
// it with one JSON argument built by JavaScriptLiteral:
//   config.handlerName           the WebKit script message handler to post to ("webcmpTCF")
//   config.apiWaitMilliseconds   how long to wait for __tcfapi / __gpp to appear
// Nothing else may be appended to or interpolated into this file.
(function (config) {
  if (window.__webcmpTCFForwarder) { return; }
  Object.defineProperty(window, '__webcmpTCFForwarder', { value: true });
  var handlers = window.webkit && window.webkit.messageHandlers;
  var handler = handlers && handlers[config.handlerName];
  if (!handler) { return; }
  var post = function (message) { try { handler.postMessage(message); } catch (e) {} };
  var deadline = Date.now() + config.apiWaitMilliseconds;
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
})
