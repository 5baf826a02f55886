// The consent sharing script of content web views (see ConsentSharing). A function expression; Swift calls it with
// one JSON argument built by JavaScriptLiteral:
//   config.state     the consent state (ConsentSharing.state(record:keys:))
//   config.install   true: install the handlers when this page has none yet (the user script);
//                    false: only hand the state to an installed script (ConsentSharing.updateScript)
// It runs in the main frame only (the user script is injected with forMainFrameOnly: true, and it checks itself):
// frames get the consent through the IAB cross-frame protocol (locator frames and postMessage, below), so a local
// __tcfapi never shadows a CMP in an ancestor and every frame sees the update the app hands to the main frame.
// Nothing else may be appended to or interpolated into this file.
(function (config) {
  var state = config.state;
  if (window.__webcmpSharing) { window.__webcmpSharing.update(state); return; }
  if (!config.install) { return; }
  var topWindow = null;
  try { topWindow = window.top; } catch (e) { return; }
  if (topWindow && topWindow !== window) { return; }
  var listeners = {};
  var nextListener = 1;
  var gppListeners = {};
  var copy = function (value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); };
  // TCData's vendor consents and legitimate interests arrive as strings of '0' and '1' (character n is vendor n + 1,
  // as in the IAB in-app keys) and become TCData's {"id": boolean} objects only when the page asks (getTCData,
  // addEventListener, an update with listeners), once per state: a page that never asks parses a few KB of literal,
  // not two objects of ~1,000 members each.
  var flags = function (bits) {
    var members = {};
    if (typeof bits !== 'string') { return bits || {}; }
    for (var i = 0; i < bits.length; i++) { members[String(i + 1)] = bits.charCodeAt(i) === 49; }
    return members;
  };
  var expandedFor = null;
  var expanded = null;
  var tcData = function (status, listenerId) {
    if (!state.tcData) { return null; }
    if (expandedFor !== state) {
      var full = copy(state.tcData);
      var vendor = full.vendor || {};
      full.vendor = { consents: flags(vendor.consents), legitimateInterests: flags(vendor.legitimateInterests) };
      expandedFor = state;
      expanded = JSON.stringify(full);
    }
    var data = JSON.parse(expanded);
    data.eventStatus = status;
    data.listenerId = listenerId;
    return data;
  };
  var pingData = function (signalStatus) {
    return {
      gppVersion: '1.1', cmpStatus: 'loaded', cmpDisplayStatus: 'disabled', signalStatus: signalStatus || 'ready',
      supportedAPIs: [], cmpId: state.cmpId === null ? 0 : state.cmpId,
      sectionList: state.gppSections || [], applicableSections: state.gppSections || [-1],
      gppString: state.gppString || '', parsedSections: {}
    };
  };
  // Set once the locator frames' code below has run (an update can only come later).
  var addLocators = null;
  var notify = function (callback, data, success) { try { callback(data, success); } catch (e) {} };
  var sharing = {
    update: function (next) {
      state = next;
      if (addLocators) { addLocators(false); }
      Object.keys(listeners).forEach(function (id) {
        if (!listeners[id]) { return; }
        var data = tcData('useractioncomplete', Number(id));
        notify(listeners[id], data, data !== null);
      });
      // GPP CMP API v1.1, addEventListener: "signalStatus" is the first and the last event of a change.
      Object.keys(gppListeners).forEach(function (id) {
        if (!gppListeners[id]) { return; }
        var listenerId = Number(id);
        notify(gppListeners[id], { eventName: 'signalStatus', listenerId: listenerId, data: 'not ready',
                                   pingData: pingData('not ready') }, true);
        if (!gppListeners[id]) { return; }
        notify(gppListeners[id], { eventName: 'signalStatus', listenerId: listenerId, data: 'ready',
                                   pingData: pingData('ready') }, true);
      });
    },
    state: function () { return copy(state); },
    // Whether the page's __tcfapi / __gpp are still the native-backed ones (a page CMP that loaded later replaces them).
    active: function () { return { tcfapi: window.__tcfapi === nativeTCF, gpp: window.__gpp === nativeGPP }; }
  };
  var nativeTCF = null;
  var nativeGPP = null;
  var nativeUSP = null;
  Object.defineProperty(window, '__webcmpSharing', { value: Object.freeze(sharing) });

  // Our own handshake (not Sourcepoint's: see ConsentSharing): webcmp.readyForConsent -> webcmp.loadConsent.
  // The answer carries the stored consent strings, so it goes to the asking document's own origin and never to '*':
  // a requester without a nameable origin (none, or 'null' for an opaque one) gets no answer, so that a frame that
  // navigated to another document since it asked never receives it.
  var answerHandshake = function (event) {
    var data = event.data;
    var name = typeof data === 'string' ? data : (data && typeof data === 'object' ? data.name : null);
    if (name !== 'webcmp.readyForConsent' || !event.source || typeof event.source.postMessage !== 'function') { return; }
    var target = event.origin;
    if (typeof target !== 'string' || target === '' || target === 'null') { return; }
    var consent = {};
    if (state.tcString) {
      consent.gdpr = { euconsent: state.tcString, addtlConsent: state.addtlConsent, gdprApplies: state.gdprApplies };
    }
    if (state.gppString) { consent.usnat = { gppString: state.gppString }; }
    if (state.uspString) { consent.ccpa = { uspstring: state.uspString }; }
    try { event.source.postMessage({ name: 'webcmp.loadConsent', consent: consent }, target); } catch (e) {}
  };

  // The IAB cross-frame protocol, answered only while the native-backed function is the page's one (a page CMP that
  // replaced it answers through its own message handler; answering too would give a frame two answers):
  // - TCF "CMP API" v2.2, "How can vendors that use iframes call the CMP API from an iframe?" / "Using postmessage":
  //   {__tcfapiCall: {command, parameter, version, callId}} -> {__tcfapiReturn: {returnValue, success, callId}};
  // - GPP "CMP API Specification" v1.1, "How can vendors that use iframes call the CMP API from an iframe?":
  //   {__gppCall: {…}} -> {__gppReturn: {…}};
  // - "USP API" v1.0, "Without SafeFrames, using postMessage": {__uspapiCall: {…}} -> {__uspapiReturn: {…}}.
  // A request may be an object or its JSON text; a text request gets a text reply. addEventListener calls answer
  // again, with the same callId, on every update (sharing.update), which is how frames see consent changes.
  // The reply goes to event.source with the requester's origin as the target, so that a later listener update never
  // reaches another document that has since navigated into that frame; a frame with an opaque origin ('null', e.g. a
  // sandboxed ad frame) cannot be named as a target and gets '*', as the IAB reference stubs answer every frame: the
  // consent signals are meant for vendors in frames of any origin.
  var frameAPIs = [
    { call: '__tcfapiCall', reply: '__tcfapiReturn',
      active: function () { return nativeTCF !== null && window.__tcfapi === nativeTCF; },
      invoke: function (call, callback) { nativeTCF(call.command, call.version, callback, call.parameter); } },
    { call: '__gppCall', reply: '__gppReturn',
      active: function () { return nativeGPP !== null && window.__gpp === nativeGPP; },
      invoke: function (call, callback) { nativeGPP(call.command, callback, call.parameter, call.version); } },
    { call: '__uspapiCall', reply: '__uspapiReturn',
      active: function () { return nativeUSP !== null && window.__uspapi === nativeUSP; },
      invoke: function (call, callback) { nativeUSP(call.command, call.version, callback, call.parameter); } }
  ];
  var answerFrame = function (event) {
    var data = event.data;
    var text = typeof data === 'string';
    var source = event.source;
    if (!source || typeof source.postMessage !== 'function') { return; }
    var target = typeof event.origin === 'string' && event.origin !== '' && event.origin !== 'null' ? event.origin : '*';
    frameAPIs.forEach(function (api) {
      var request = data;
      if (text) {
        if (data.indexOf(api.call) < 0) { return; }
        try { request = JSON.parse(data); } catch (e) { return; }
      }
      if (!request || typeof request !== 'object') { return; }
      var call = request[api.call];
      if (!call || typeof call !== 'object' || !api.active()) { return; }
      api.invoke(call, function (returnValue, success) {
        if (!api.active()) { return; }
        var message = {};
        message[api.reply] = { returnValue: returnValue, success: success, callId: call.callId };
        try { source.postMessage(text ? JSON.stringify(message) : message, target); } catch (e) {}
      });
    });
  };
  window.addEventListener('message', function (event) {
    answerHandshake(event);
    answerFrame(event);
  });

  if (typeof window.__tcfapi !== 'function') {
    window.__tcfapi = function (command, version, callback, parameter) {
      if (typeof callback !== 'function') { return; }
      if (command === 'ping') {
        callback({
          gdprApplies: state.gdprApplies === null ? undefined : state.gdprApplies,
          cmpLoaded: true, cmpStatus: 'loaded', displayStatus: 'disabled', apiVersion: '2.2',
          cmpVersion: state.cmpVersion === null ? undefined : state.cmpVersion,
          cmpId: state.cmpId === null ? undefined : state.cmpId,
          gvlVersion: state.tcData ? state.tcData.gvlVersion : undefined,
          tcfPolicyVersion: state.tcData ? state.tcData.tcfPolicyVersion : undefined
        }, true);
      } else if (command === 'getTCData') {
        var data = tcData('tcloaded', undefined);
        callback(data, data !== null);
      } else if (command === 'addEventListener') {
        var id = nextListener++;
        listeners[id] = callback;
        var initial = tcData('tcloaded', id);
        callback(initial, initial !== null);
      } else if (command === 'removeEventListener') {
        var existed = Object.prototype.hasOwnProperty.call(listeners, parameter);
        delete listeners[parameter];
        callback(existed);
      } else {
        callback(null, false);
      }
    };
    nativeTCF = window.__tcfapi;
  }

  if (typeof window.__gpp !== 'function') {
    var nextGPPListener = 1;
    window.__gpp = function (command, callback, parameter) {
      if (typeof callback !== 'function') { return; }
      if (command === 'ping') { callback(pingData(), true); }
      else if (command === 'addEventListener') {
        var id = nextGPPListener++;
        gppListeners[id] = callback;
        callback({ eventName: 'listenerRegistered', listenerId: id, data: true, pingData: pingData() }, true);
        callback({ eventName: 'signalStatus', listenerId: id, data: 'ready', pingData: pingData() }, true);
      } else if (command === 'removeEventListener') {
        var existed = Object.prototype.hasOwnProperty.call(gppListeners, parameter);
        delete gppListeners[parameter];
        callback(existed, true);
      } else if (command === 'hasSection') {
        callback(false, true);
      } else if (command === 'getSection') {
        callback(null, true);
      } else {
        callback(null, false);
      }
    };
    nativeGPP = window.__gpp;
  }

  // IAB "USP API" v1.0: getUSPData answers {version: 1, uspString} from the stored US Privacy string; without one
  // no uspData object can be returned, so success is false (the spec's "1---" would claim US Privacy does not apply).
  if (typeof window.__uspapi !== 'function') {
    window.__uspapi = function (command, version, callback) {
      if (typeof callback !== 'function') { return; }
      if (command === 'getUSPData' && typeof state.uspString === 'string' && state.uspString) {
        callback({ version: 1, uspString: state.uspString }, true);
      } else {
        callback(null, false);
      }
    };
    nativeUSP = window.__uspapi;
  }

  // The locator frames ("__tcfapiLocator", "__gppLocator", "__uspapiLocator") tell scripts in frames that an
  // ancestor answers (TCF CMP API v2.2, "How can scripts on a page determine if there is a CMP present?"). One is
  // added for each native-backed API still in place that has a signal to give, and only when the page has no frame of
  // that name (a page CMP's stub may have added it): __tcfapi's always (without a TC string it still tells a frame
  // whether GDPR applies), __gpp's with a GPP string and __uspapi's with a US Privacy string (without one they answer
  // "no section applies" and "no data", which is what a frame concludes from finding no locator). A string that
  // arrives later (an update from the app) adds its locator then. Not at document start: the IAB reference stubs
  // install their __tcfapi / __gpp only when they find no locator, and a page stub runs in the <head> (CMP API v2.2,
  // "Requirements for the CMP 'stub' API script"), after this script. And only once the page has a frame of its own
  // (window.length > 0): only scripts in frames look for a locator, and each locator is a frame that WebKit builds
  // synchronously on insertion (its browsing context and initial document: 0.3-1 ms each idle, several under load, in
  // WebKitGTK on a 2-core machine, scripts/bench-sharing), a cost a page without frames would pay for nothing. They
  // are built here, in the task that showed the page's first frame, and not in a later task: a later task saves
  // DOMContentLoaded only on a page parsed in one chunk (a long page runs it between two chunks and pays all the same,
  // measured), and a script that fills a frame without a URL in the same task would then miss them until that task
  // ran (docs/Benchmarks.md). The mutation observer sees the first frame at the next microtask checkpoint after its
  // insertion: after the parser's current chunk or the inserting script, before that frame's document loads from its
  // URL. A script that inserts a frame and writes a script into it synchronously runs that script before the locators
  // exist; it finds them from its next task on. Without MutationObserver (no current engine) the frames are added at
  // DOMContentLoaded, frames or not.
  var locators = [
    { name: '__tcfapiLocator', wanted: function () { return frameAPIs[0].active(); } },
    { name: '__gppLocator', wanted: function () { return frameAPIs[1].active() && !!state.gppString; } },
    { name: '__uspapiLocator', wanted: function () { return frameAPIs[2].active() && !!state.uspString; } }
  ];
  var pageHasFrames = false;
  // Whether the page has shown a frame (or, with framesOrNot, is taken to have one): then every wanted locator the
  // page lacks is added. Called again by each update, for a string that arrived with it.
  addLocators = function (framesOrNot) {
    if (typeof document === 'undefined' || !document || !document.body) { return pageHasFrames; }
    if (!pageHasFrames && !framesOrNot && !(window.length > 0)) { return false; }
    pageHasFrames = true;
    locators.forEach(function (locator) {
      if (locator.added || !locator.wanted()) { return; }
      try {
        if (window.frames[locator.name]) { return; }
        var frame = document.createElement('iframe');
        frame.style.display = 'none';
        frame.name = locator.name;
        frame.setAttribute('aria-hidden', 'true');
        frame.setAttribute('tabindex', '-1');
        document.body.appendChild(frame);
        locator.added = true;
      } catch (e) {}
    });
    return true;
  };
  if (typeof document !== 'undefined' && document) {
    var observing = false;
    if (typeof MutationObserver === 'function') {
      try {
        var observer = new MutationObserver(function () { if (addLocators(false)) { observer.disconnect(); } });
        observer.observe(document, { childList: true, subtree: true });
        observing = true;
      } catch (e) {}
    }
    if (!observing) {
      document.addEventListener('DOMContentLoaded', function () { addLocators(true); });
    }
    // The observer does not see inside shadow roots: a frame inserted there is found at the next mutation of the
    // document, or at the load event at the latest.
    if (typeof window.addEventListener === 'function') {
      window.addEventListener('load', function () { addLocators(false); });
    }
  }
})
