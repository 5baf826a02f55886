// Opens a CMP's privacy settings (see PrivacySettingsCall). A function expression; Swift calls it with one JSON
// argument built by JavaScriptLiteral:
//   config.path        the function to call, as property names from window, e.g. ["Didomi", "preferences", "show"]
//   config.arguments   the arguments, as JSON values
//   config.callback    true: a no-op callback is passed after the arguments (the __tcfapi calling convention)
// Nothing else may be appended to or interpolated into this file. A missing function does nothing.
(function (config) {
  var target = window, owner = window;
  for (var i = 0; i < config.path.length; i++) {
    if (target === null || target === undefined) { return false; }
    owner = target;
    target = target[config.path[i]];
  }
  if (typeof target !== 'function') { return false; }
  var args = config.arguments.slice();
  if (config.callback) { args.push(function () {}); }
  try { target.apply(owner, args); } catch (e) { return false; }
  return true;
})
