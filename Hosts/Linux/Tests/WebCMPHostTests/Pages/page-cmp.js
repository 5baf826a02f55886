// A page-side CMP as publishers' article pages run one, following the IAB CMP API v2.2 reference behaviour:
// 1. the stub (as the IAB reference stub does) checks for the '__tcfapiLocator' frame, not for an existing
//    __tcfapi: when there is no locator it adds one and installs its own queueing __tcfapi (and __gpp likewise);
// 2. the CMP "script" arrives later (asynchronously), reads the consent it stored earlier from its own first-party
//    storage, answers the queued calls and shows its banner only when it found nothing.
// Configured by attributes of its <script> tag: data-storage="cookie|localStorage" (where it keeps 'euconsent-v2'),
// data-gpp-key="NAME" (a localStorage item with its stored GPP string; no attribute: no GPP CMP).
(function () {
  var tag = document.currentScript;
  var storage = tag.getAttribute('data-storage') || 'cookie';
  var gppKey = tag.getAttribute('data-gpp-key');
  var queue = [];
  var gppQueue = [];
  var addLocator = function (name) {
    if (window.frames[name]) { return false; }
    var add = function () {
      var frame = document.createElement('iframe');
      frame.style.display = 'none';
      frame.name = name;
      (document.body || document.documentElement).appendChild(frame);
    };
    if (document.body || document.documentElement) { add(); } else { document.addEventListener('DOMContentLoaded', add); }
    return true;
  };
  if (addLocator('__tcfapiLocator')) {
    window.__tcfapi = function () { queue.push(arguments); };
  }
  if (gppKey && addLocator('__gppLocator')) {
    window.__gpp = function () { gppQueue.push(arguments); };
  }

  var readStored = function () {
    if (storage === 'localStorage') {
      try { return localStorage.getItem('euconsent-v2') || ''; } catch (e) { return ''; }
    }
    var found = '';
    document.cookie.split('; ').forEach(function (pair) {
      if (pair.indexOf('euconsent-v2=') === 0) { found = pair.slice('euconsent-v2='.length); }
    });
    return found;
  };

  setTimeout(function () {
    var tcString = readStored();
    var shown = !tcString;
    var status = shown ? 'cmpuishown' : 'tcloaded';
    var nextId = 1;
    if (shown) {
      var banner = document.createElement('div');
      banner.id = 'page-cmp-banner';
      banner.textContent = 'We value your privacy';
      document.body.appendChild(banner);
    }
    var tcData = function (listenerId) {
      return { tcString: tcString, eventStatus: status, cmpStatus: 'loaded', cmpId: 999, cmpVersion: 1,
               gdprApplies: true, listenerId: listenerId, tcfPolicyVersion: 5, purpose: { consents: {} } };
    };
    var api = function (command, version, callback, parameter) {
      if (typeof callback !== 'function') { return; }
      if (command === 'ping') {
        callback({ gdprApplies: true, cmpLoaded: true, cmpStatus: 'loaded', displayStatus: shown ? 'visible' : 'hidden',
                   apiVersion: '2.2', cmpVersion: 1, cmpId: 999 }, true);
      } else if (command === 'getTCData') { callback(tcData(undefined), true); }
      else if (command === 'addEventListener') { callback(tcData(nextId++), true); }
      else if (command === 'removeEventListener') { callback(true); }
      else { callback(null, false); }
    };
    window.__tcfapi = api;
    queue.forEach(function (args) { api.apply(null, args); });

    if (gppKey) {
      var gppString = '';
      try { gppString = localStorage.getItem(gppKey) || ''; } catch (e) {}
      var gppPing = function () {
        return { gppVersion: '1.1', cmpStatus: 'loaded', cmpDisplayStatus: gppString ? 'hidden' : 'visible',
                 signalStatus: 'ready', supportedAPIs: [], cmpId: 999, sectionList: [], applicableSections: [-1],
                 gppString: gppString, parsedSections: {} };
      };
      var gpp = function (command, callback) {
        if (typeof callback !== 'function') { return; }
        if (command === 'ping') { callback(gppPing(), true); }
        else if (command === 'addEventListener') {
          callback({ eventName: 'signalStatus', listenerId: 1, data: 'ready', pingData: gppPing() }, true);
        } else { callback(null, false); }
      };
      window.__gpp = gpp;
      gppQueue.forEach(function (args) { gpp.apply(null, args); });
    }
  }, 50);
})();
