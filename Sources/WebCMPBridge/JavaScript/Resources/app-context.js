// The app's context for the CMP page (AppContext.swift): window.webcmpAppContext, frozen (every nested object too),
// not writable and not configurable, defined before any page script. A page that already has the name keeps it.
(function (config) {
    "use strict";
    var freeze = function (value) {
        if (value !== null && typeof value === "object") {
            Object.keys(value).forEach(function (key) { freeze(value[key]); });
            Object.freeze(value);
        }
        return value;
    };
    if (Object.prototype.hasOwnProperty.call(window, "webcmpAppContext")) { return; }
    Object.defineProperty(window, "webcmpAppContext", {
        value: freeze(config), writable: false, configurable: false, enumerable: false
    });
})
