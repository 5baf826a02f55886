// The TCF/GPP/USP forwarder of the generic TCF dialect (see CMPScripts.tcfForwarder). A function expression; Swift
// calls it with one JSON argument built by JavaScriptLiteral:
//   config.handlerName           the WebKit script message handler to post to ("webcmpTCF")
//   config.apiWaitMilliseconds   how long to wait for __tcfapi / __gpp to appear and for their CMP to load
//   config.pingMilliseconds      how often to ping a CMP that is not loaded yet
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
  var isObject = function (v) { return !!v && typeof v === 'object'; };
  var waitFor = function (name, hook) {
    var attempt = function () {
      if (typeof window[name] === 'function') { hook(window[name]); return; }
      if (Date.now() < deadline) { setTimeout(attempt, 50); }
    };
    attempt();
  };
  // "ready" means a CMP answers: ping until it reports itself loaded (a stub answers ping too, but not as loaded).
  var readyPosted = false;
  var untilLoaded = function (ping, isLoaded, then) {
    var loaded = false;
    var attempt = function () {
      try {
        ping(function (data) {
          if (loaded || !isObject(data) || !isLoaded(data)) { return; }
          loaded = true;
          then();
        });
      } catch (e) {}
      if (!loaded && Date.now() < deadline) { setTimeout(function () { if (!loaded) { attempt(); } }, config.pingMilliseconds); }
    };
    attempt();
  };
  var ready = function (api) {
    if (!readyPosted) { readyPosted = true; post({ type: 'ready', api: api }); }
    readUSP();
  };
  // US Privacy has no events: read it when a CMP became ready and after each consent event.
  var readUSP = function () {
    if (typeof window.__uspapi !== 'function') { return; }
    try {
      window.__uspapi('getUSPData', 1, function (data, success) {
        if (success === false || !isObject(data) || !str(data.uspString)) { return; }
        post({ type: 'usp', uspString: data.uspString });
      });
    } catch (e) {}
  };
  // Many pages load the IAB stub first and the CMP replaces window.__tcfapi later, after draining the stub's queue.
  // So the function is looked up on every call, and the event listener is registered again on each new function;
  // only the newest registration posts (a CMP that drained the stub's queued listener would otherwise post twice).
  var tcfGeneration = 0;
  // A registration on a replacing CMP is answered at once with the CMP's current state (TCF: "the callback shall be
  // called immediately"), which the stub's drained listener may already have posted: a consent event identical to
  // the last one posted is posted once.
  var stringify = JSON.stringify;
  var lastPosted = null;
  var listenTCF = function (tcfapi) {
    var generation = ++tcfGeneration;
    try {
      tcfapi('addEventListener', 2, function (tcData, success) {
        if (generation !== tcfGeneration || !success || !isObject(tcData)) { return; }
        var status = str(tcData.eventStatus);
        if (status === 'cmpuishown') { post({ type: 'tcf', eventStatus: status }); return; }
        if (status !== 'tcloaded' && status !== 'useractioncomplete') { return; }
        // A CMP for which GDPR does not apply answers with an empty tcString and gdprApplies false: forwarded too.
        var gdprApplies = bool(tcData.gdprApplies);
        if (!str(tcData.tcString) && gdprApplies !== false) { return; }
        var message = {
          type: 'tcf', eventStatus: status, tcString: str(tcData.tcString) || null,
          gdprApplies: gdprApplies, addtlConsent: str(tcData.addtlConsent),
          cmpId: num(tcData.cmpId), cmpVersion: num(tcData.cmpVersion)
        };
        var text = stringify(message);
        if (text === lastPosted) { return; }
        lastPosted = text;
        post(message);
        readUSP();
      });
    } catch (e) {}
  };
  var watchReplacement = function (name, current, onChange) {
    var check = function () {
      var now = window[name];
      if (typeof now === 'function' && now !== current) { current = now; onChange(now); }
      if (Date.now() < deadline) { setTimeout(check, config.pingMilliseconds); }
    };
    if (Date.now() < deadline) { setTimeout(check, config.pingMilliseconds); }
  };
  // A CMP that already shows its UI when it is found (it opened it on its own before our listener was registered)
  // says so in its ping (TCF v2.2 PingReturn displayStatus: "visible"): posted like cmpuishown, once, before ready.
  var displayPosted = false;
  waitFor('__tcfapi', function (tcfapi) {
    untilLoaded(function (callback) { window.__tcfapi('ping', 2, callback); },
      function (ping) {
        var loaded = ping.cmpLoaded === true || ping.cmpStatus === 'loaded';
        if (loaded && ping.displayStatus === 'visible' && !displayPosted) {
          displayPosted = true;
          post({ type: 'tcf', eventStatus: 'cmpuishown' });
        }
        return loaded;
      },
      function () { ready('tcf'); });
    listenTCF(tcfapi);
    watchReplacement('__tcfapi', tcfapi, listenTCF);
  });
  var gppEvents = ['listenerRegistered', 'cmpStatus', 'cmpDisplayStatus', 'signalStatus', 'sectionChange'];
  var gppGeneration = 0;
  var listenGPP = function (gpp) {
    var generation = ++gppGeneration;
    try {
      gpp('addEventListener', function (event, success) {
        if (generation !== gppGeneration) { return; }
        if (success === false || !isObject(event) || gppEvents.indexOf(event.eventName) < 0) { return; }
        var ping = event.pingData;
        if (!isObject(ping)) { return; }
        var sections = Array.isArray(ping.applicableSections)
          ? ping.applicableSections.filter(function (id) { return typeof id === 'number' && id > 0 && id <= 65535 && id % 1 === 0; })
          : null;
        post({
          type: 'gpp', eventName: event.eventName, signalStatus: str(ping.signalStatus),
          cmpDisplayStatus: str(ping.cmpDisplayStatus), gppString: str(ping.gppString) || null,
          applicableSections: sections
        });
        if (event.eventName === 'signalStatus' || event.eventName === 'sectionChange') { readUSP(); }
      });
    } catch (e) {}
  };
  waitFor('__gpp', function (gpp) {
    untilLoaded(function (callback) { window.__gpp('ping', callback); },
      function (ping) { return ping.cmpStatus === 'loaded'; },
      function () { ready('gpp'); });
    listenGPP(gpp);
    watchReplacement('__gpp', gpp, listenGPP);
  });
})
