// Opens a CMP's privacy settings (see PrivacySettingsCall). A function expression; Swift calls it with one JSON
// argument built by JavaScriptLiteral:
//   config.path        the function to call, as property names from window, e.g. ["Didomi", "preferences", "show"]
//   config.arguments   the arguments, as JSON values
//   config.callback    true: a callback is passed after the arguments (the __tcfapi calling convention)
//   config.handler     optional: the script message handler that receives {type: "settings", attempt, result}
//   config.attempt     the attempt number reported back
//   config.shownEvent  optional: a window event the CMP fires when its UI shows (its own evidence); a listener for
//                      it is added (once) before the call and reports "shown"
// result: "missing" (no such function), "threw", "refused" (the callback's second argument is false), "called",
// "shown" (config.shownEvent fired, possibly during the call, before its "called").
// Nothing else may be appended to or interpolated into this file. A missing function does nothing else.
(function (config) {
  var handlers = config.handler && window.webkit && window.webkit.messageHandlers;
  var handler = handlers && handlers[config.handler];
  var report = function (result) {
    if (!handler) { return; }
    try { handler.postMessage({ type: 'settings', attempt: config.attempt, result: result }); } catch (e) {}
  };
  var target = window, owner = window;
  for (var i = 0; i < config.path.length; i++) {
    if (target === null || target === undefined) { report('missing'); return false; }
    owner = target;
    target = target[config.path[i]];
  }
  if (typeof target !== 'function') { report('missing'); return false; }
  if (typeof config.shownEvent === 'string') {
    try { window.addEventListener(config.shownEvent, function () { report('shown'); }, { once: true }); } catch (e) {}
  }
  var args = config.arguments.slice();
  if (config.callback) {
    args.push(function (data, success) { if (success === false) { report('refused'); } });
  }
  try { target.apply(owner, args); } catch (e) { report('threw'); return false; }
  report('called');
  return true;
})
