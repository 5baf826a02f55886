// The consent sharing script of content web views (see ConsentSharing). A function expression; Swift calls it with
// one JSON argument built by JavaScriptLiteral:
//   config.state     the consent state (ConsentSharing.state(record:keys:))
//   config.install   true: install the handlers when this page has none yet (the user script);
//                    false: only hand the state to an installed script (ConsentSharing.updateScript)
// Nothing else may be appended to or interpolated into this file.
(function (config) {
  var state = config.state;
  if (window.__webcmpSharing) { window.__webcmpSharing.update(state); return; }
  if (!config.install) { return; }
  var listeners = {};
  var nextListener = 1;
  var copy = function (value) { return value === undefined ? undefined : JSON.parse(JSON.stringify(value)); };
  var tcData = function (status, listenerId) {
    if (!state.tcData) { return null; }
    var data = copy(state.tcData);
    data.eventStatus = status;
    data.listenerId = listenerId;
    return data;
  };
  var sharing = {
    update: function (next) {
      state = next;
      Object.keys(listeners).forEach(function (id) {
        var data = tcData('useractioncomplete', Number(id));
        try { listeners[id](data, data !== null); } catch (e) {}
      });
    },
    state: function () { return copy(state); },
    // Whether the page's __tcfapi / __gpp are still the native-backed ones (a page CMP that loaded later replaces them).
    active: function () { return { tcfapi: window.__tcfapi === nativeTCF, gpp: window.__gpp === nativeGPP }; }
  };
  var nativeTCF = null;
  var nativeGPP = null;
  Object.defineProperty(window, '__webcmpSharing', { value: Object.freeze(sharing) });

  // Our own handshake (not Sourcepoint's: see ConsentSharing): webcmp.readyForConsent -> webcmp.loadConsent.
  var answerHandshake = function (event) {
    var data = event.data;
    var name = typeof data === 'string' ? data : (data && typeof data === 'object' ? data.name : null);
    if (name !== 'webcmp.readyForConsent' || !event.source) { return; }
    var consent = {};
    if (state.tcString) {
      consent.gdpr = { euconsent: state.tcString, addtlConsent: state.addtlConsent, gdprApplies: state.gdprApplies };
    }
    if (state.gppString) { consent.usnat = { gppString: state.gppString }; }
    if (state.uspString) { consent.ccpa = { uspstring: state.uspString }; }
    try { event.source.postMessage({ name: 'webcmp.loadConsent', consent: consent }, event.origin || '*'); } catch (e) {}
  };
  window.addEventListener('message', answerHandshake);

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
    var gppListeners = {};
    var nextGPPListener = 1;
    var pingData = function () {
      return {
        gppVersion: '1.1', cmpStatus: 'loaded', cmpDisplayStatus: 'disabled', signalStatus: 'ready',
        supportedAPIs: [], cmpId: state.cmpId === null ? 0 : state.cmpId,
        sectionList: state.gppSections || [], applicableSections: state.gppSections || [-1],
        gppString: state.gppString || '', parsedSections: {}
      };
    };
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
  }
})
