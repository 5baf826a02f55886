// The GPP CMP API v1.1 (__gpp) of a US CMP, shared by the US test pages (gpp-us-cmp.html, us-cmps.html):
// window.usGPPCMP(ping) installs __gpp over the page's PingReturn object `ping` and returns { fire }, which sends
// EventListener objects ({eventName, listenerId, data, pingData}) to every registered listener. Commands: ping (a copy
// of the PingReturn), addEventListener (answers listenerRegistered), removeEventListener (answers listenerRemoved),
// hasSection (whether usnat, section 7, is in sectionList); anything else answers (null, false). The page changes
// `ping` and fires the events itself, in the order the spec describes.
window.usGPPCMP = function (ping) {
  var listeners = {};
  var nextId = 1;
  var copy = function () { return JSON.parse(JSON.stringify(ping)); };
  var fire = function (eventName, data) {
    Object.keys(listeners).forEach(function (id) {
      listeners[id]({ eventName: eventName, listenerId: Number(id), data: data, pingData: copy() }, true);
    });
  };
  window.__gpp = function (command, callback, parameter) {
    if (typeof callback !== 'function') { return; }
    switch (command) {
      case 'ping': callback(copy(), true); return;
      case 'addEventListener':
        var id = nextId++;
        listeners[id] = callback;
        callback({ eventName: 'listenerRegistered', listenerId: id, data: true, pingData: copy() }, true);
        return;
      case 'removeEventListener':
        var existed = !!listeners[parameter];
        delete listeners[parameter];
        callback({ eventName: 'listenerRemoved', listenerId: parameter, data: existed, pingData: copy() }, true);
        return;
      case 'hasSection': callback(ping.sectionList.indexOf(7) >= 0, true); return;
      default: callback(null, false);
    }
  };
  return { fire: fire };
};
