// Global Privacy Control (see GlobalPrivacyControl): defines navigator.globalPrivacyControl === true the way the GPC
// specification's IDL does (`interface mixin GlobalPrivacyControl { readonly attribute boolean globalPrivacyControl; };
// Navigator includes GlobalPrivacyControl;`): an accessor on Navigator.prototype, enumerable and configurable, with a
// getter and no setter (an assignment is ignored, or throws in strict code), whose getter throws a TypeError when not
// called on this window's navigator. Injected at document start in every frame, before the page's scripts, and only
// when the signal is on (when it is off the script is not added and the property stays as WebKit has it: absent).
// A function expression; Swift calls it with one JSON argument built by JavaScriptLiteral:
//   config.value   the value the property reports (true)
// Nothing else may be appended to or interpolated into this file.
(function (config) {
  var NavigatorType = window.Navigator;
  var navigatorObject = window.navigator;
  if (typeof NavigatorType !== 'function' || !NavigatorType.prototype || !navigatorObject) { return; }
  var existing = Object.getOwnPropertyDescriptor(NavigatorType.prototype, 'globalPrivacyControl');
  if (existing && !existing.configurable) { return; }
  var value = config.value === true;
  var accessors = {
    get globalPrivacyControl() {
      if (this !== navigatorObject) { throw new TypeError('Illegal invocation'); }
      return value;
    }
  };
  var getter = Object.getOwnPropertyDescriptor(accessors, 'globalPrivacyControl').get;
  Object.defineProperty(NavigatorType.prototype, 'globalPrivacyControl', {
    get: getter, set: undefined, enumerable: true, configurable: true
  });
})
