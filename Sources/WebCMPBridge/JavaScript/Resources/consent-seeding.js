// The consent seeding script of content web views (see ConsentSharing.seedingScript). A function expression; Swift
// calls it with one JSON argument built by JavaScriptLiteral:
//   config.origins   the content origins (normalised, as location.origin reports them)
//   config.writes    [{name, value, cookie, localStorage, maxAge}]: the entries to write; names and values of cookie
//                    writes are RFC 6265 cookie octets (checked in Swift)
// It writes only in a main-frame document whose origin is listed, before the page's own scripts run, so that the
// page's CMP finds the consent in its own storage. Nothing else may be appended to or interpolated into this file.
(function (config) {
  try {
    if (window.top !== window) { return; }
  } catch (e) { return; }
  var origin = String(location.origin);
  if (!Array.isArray(config.origins) || config.origins.indexOf(origin) < 0) { return; }
  var secure = location.protocol === 'https:' ? '; Secure' : '';
  (config.writes || []).forEach(function (write) {
    if (write.cookie) {
      try {
        document.cookie = write.name + '=' + write.value + '; path=/; max-age=' + Math.floor(write.maxAge) +
          '; SameSite=Lax' + secure;
      } catch (e) {}
    }
    if (write.localStorage) {
      try { window.localStorage.setItem(write.name, write.value); } catch (e) {}
    }
  });
})
