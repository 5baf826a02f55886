// The IAB __tcfapi stub a page loads before its CMP script: it answers ping with cmpLoaded: false and queues every
// other call (window.__tcfapiQueue) for the CMP to replay once it has loaded.
(function () {
  var queue = [];
  window.__tcfapi = function (command, version, callback, parameter) {
    if (command === 'ping') { callback({ gdprApplies: undefined, cmpLoaded: false, cmpStatus: 'stub', apiVersion: '2.2' }, true); return; }
    queue.push([command, version, callback, parameter]);
  };
  window.__tcfapiQueue = queue;
})();
