import Foundation
import WebCMPBridge
import WebCMPToolSupport
import WebCMPHostGTK

/// `webcmp-host share URL --state DIR [--content-origin ORIGIN …] [--preset NAME …] [--seed STORAGE:NAME:VALUE …]
/// [--update-from DIR] [--gpc automatic|always|never] [--eval EXPRESSION …] [--json]`: loads a content page the way an app's content web view would,
/// with the stored consent shared into it (cookies set in the cookie manager before loading, the seeding script in the
/// main frame of the content origins, the sharing script), waits for the page to settle, and reports what the page's
/// own CMP says.
///
/// Without `--content-origin` the content origin is the URL's own. Without `--preset`/`--seed` the default
/// `euconsent-v2` preset is seeded. `--update-from DIR` then hands the page the consent stored in DIR, as an app does
/// after consent changed (`ConsentSharing.updateScript`, evaluated in the main frame like `WKWebView.preloadConsent`
/// does), and waits `--settle` seconds again before reporting.
///
/// Global Privacy Control (`--gpc`, default `automatic`: on when the stored consent says the user opted out of sale
/// or sharing): the all-frames `navigator.globalPrivacyControl` script and `Sec-GPC: 1` on the page's request; the
/// report shows `globalPrivacyControl` (setting, enabled, the request headers) and the main frame's `navigatorGPC`.
/// The page's own later navigations are not re-issued with the header here: WebKitGTK's navigation action does not
/// say whether the main frame or an iframe navigates (see `GTKWebView+Navigation.swift`;
/// `webkit_navigation_action_get_frame_name` names only a `target` such as `_blank` and is `NULL` otherwise).
@MainActor
enum Share {
    static func command(_ arguments: Arguments) -> Int32 {
        guard let url = arguments.url, arguments.state != nil else { fail("share needs a URL and --state DIR", code: 2) }
        let configuration: SharingConfiguration
        do { configuration = try Self.configuration(arguments, url: url) } catch {
            fail("\(error)", code: 2)
        }
        let store = makeStore(arguments)
        let record = store.record()
        let view = GTKWebView()
        let cookies = ConsentSharing.cookies(record: record, configuration: configuration)
        let cookiesSet = view.setCookies(cookies)
        for script in ConsentSharing.userScripts(record: record, keys: store.iabKeys(), configuration: configuration) {
            view.addUserScript(script)
        }
        // Global Privacy Control: the all-frames script came with the user scripts; the document request carries
        // Sec-GPC: 1 when it is on (as WKWebView.loadSharingConsent does).
        let gpcHeaders = ConsentSharing.requestHeaders(
            record: record, keys: store.iabKeys(), setting: configuration.globalPrivacyControl)
        var loaded = false
        view.eventHandler = { event in if case .didFinishLoading = event { loaded = true } }
        view.load(url, headers: gpcHeaders)
        GTKRuntime.run(until: Date().addingTimeInterval(arguments.timeout)) { !loaded }
        // Settle: page CMPs start after load (the reference stub queues calls until the CMP script arrives).
        GTKRuntime.run(until: Date().addingTimeInterval(arguments.settle)) { true }
        if let directory = arguments.updateFrom {
            guard FileManager.default.fileExists(atPath: directory.path) else {
                fail("--update-from: no state directory at \(directory.path)", code: 2)
            }
            let changed: ConsentStore
            do { changed = ConsentStore(storage: try .jsonFile(in: directory)) } catch {
                fail("cannot use the state directory \(directory.path): \(error)", code: 2)
            }
            view.evaluateJavaScript(ConsentSharing.updateScript(record: changed.record(), keys: changed.iabKeys()))
            GTKRuntime.run(until: Date().addingTimeInterval(arguments.settle)) { true }
        }
        let session = HostSession(options: .init(url: url, dialect: nil), store: store, view: view)
        let page = session.evaluate(Self.probe(names: configuration.entries.map(\.name))) ?? .null
        let evaluated = arguments.evaluations.map { session.evaluate($0) ?? .null }
        session.bridge.invalidate()
        view.close()

        var output: [String: JSONValue] = page.objectValue ?? ["error": .string("the page could not be evaluated")]
        output["url"] = .string(url.absoluteString)
        output["contentOrigins"] = .array(configuration.contentOrigins.sorted().map(JSONValue.string))
        output["cookiesSet"] = .number(Double(cookiesSet))
        output["globalPrivacyControl"] = .object([
            "setting": .string(configuration.globalPrivacyControl.rawValue),
            "enabled": .bool(!gpcHeaders.isEmpty),
            "requestHeaders": .object(gpcHeaders.mapValues(JSONValue.string)),
        ])
        if !evaluated.isEmpty { output["eval"] = .array(evaluated) }
        if arguments.json {
            printJSON(.object(output))
        } else {
            for key in output.keys.sorted() { print("\(key): \(JavaScriptLiteral.expression(output[key]!))") }
        }
        return 0
    }

    /// The sharing configuration from `--content-origin`, `--preset` and `--seed`.
    static func configuration(_ arguments: Arguments, url: URL) throws -> SharingConfiguration {
        var entries: [SharingEntry] = []
        for name in arguments.presets {
            guard let preset = SharingPreset.named(name) else {
                throw UsageError("unknown preset \(UntrustedText.quoted(name)) (known: "
                    + SharingPreset.all.map(\.name).joined(separator: ", ") + ")")
            }
            entries += preset.entries
        }
        for seed in arguments.seeds {
            let parts = seed.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let storage = SharingEntry.Storage(rawValue: parts[0]), !parts[1].isEmpty,
                let value = SharingEntry.Value(rawValue: parts[2])
            else {
                throw UsageError("--seed takes cookie|localStorage:NAME:"
                    + SharingEntry.Value.allCases.map(\.rawValue).joined(separator: "|"))
            }
            entries.append(SharingEntry(name: parts[1], value: value, storage: [storage]))
        }
        if entries.isEmpty { entries = SharingPreset.euconsentV2.entries }
        for origin in arguments.contentOrigins
        where SharingConfiguration(contentOrigins: [origin]).contentOrigins.isEmpty {
            throw UsageError(
                "--content-origin takes origins such as https://www.example.com, not \(UntrustedText.quoted(origin))")
        }
        // Without --content-origin, the page's own origin (the core's origin rule).
        let own = SecurityOrigin.origin(of: url).map { [$0] } ?? []
        var configuration = SharingConfiguration(
            contentOrigins: arguments.contentOrigins.isEmpty ? own : arguments.contentOrigins, entries: entries)
        configuration.globalPrivacyControl = arguments.globalPrivacyControl
        return configuration
    }

    /// What the page's own APIs say, and what its first-party storage holds under the configured names.
    static func probe(names: [String]) -> String {
        let names = JavaScriptLiteral.expression(.array(Array(Set(names)).sorted().map(JSONValue.string)))
        return """
            (function (names) {
              var within = function (ms, start) {
                return new Promise(function (resolve) {
                  var timer = setTimeout(function () { resolve(null); }, ms);
                  try { start(function (value) { clearTimeout(timer); resolve(value); }); }
                  catch (e) { clearTimeout(timer); resolve({ error: String(e) }); }
                });
              };
              var pick = function (data, keys) {
                if (!data || typeof data !== 'object') { return data === undefined ? null : data; }
                var out = {}; keys.forEach(function (k) { if (data[k] !== undefined) { out[k] = data[k]; } }); return out;
              };
              var sharing = window.__webcmpSharing;
              var tcf = typeof window.__tcfapi === 'function';
              var gpp = typeof window.__gpp === 'function';
              var storage = { cookie: {}, localStorage: {} };
              document.cookie.split('; ').forEach(function (pair) {
                var at = pair.indexOf('='); var name = pair.slice(0, at);
                if (at > 0 && names.indexOf(name) >= 0) { storage.cookie[name] = pair.slice(at + 1); }
              });
              names.forEach(function (name) {
                try { var v = localStorage.getItem(name); if (v !== null) { storage.localStorage[name] = v; } } catch (e) {}
              });
              return Promise.all([
                tcf ? within(2000, function (done) { window.__tcfapi('getTCData', 2, function (d, ok) {
                  done({ ok: ok, data: pick(d, ['tcString', 'eventStatus', 'cmpStatus', 'cmpId', 'gdprApplies']) }); }); }) : null,
                tcf ? within(2000, function (done) { window.__tcfapi('ping', 2, function (p) {
                  done(pick(p, ['cmpId', 'cmpStatus', 'displayStatus', 'cmpLoaded'])); }); }) : null,
                tcf ? within(2000, function (done) {
                  var id = null;
                  window.__tcfapi('addEventListener', 2, function (d, ok) {
                    if (d && d.listenerId !== undefined) { id = d.listenerId; }
                    done({ ok: ok, eventStatus: d ? d.eventStatus : null });
                    if (id !== null) { try { window.__tcfapi('removeEventListener', 2, function () {}, id); } catch (e) {} }
                  }); }) : null,
                gpp ? within(2000, function (done) { window.__gpp('ping', function (p) {
                  done(pick(p, ['gppString', 'cmpStatus', 'cmpDisplayStatus', 'signalStatus', 'cmpId', 'sectionList'])); }); }) : null
              ]).then(function (r) {
                var shown = (r[1] && r[1].displayStatus === 'visible') || (r[2] && r[2].eventStatus === 'cmpuishown')
                  || (r[3] && r[3].cmpDisplayStatus === 'visible');
                return {
                  tcData: r[0] ? { ok: r[0].ok, tcString: r[0].data && r[0].data.tcString !== undefined ? r[0].data.tcString : null,
                                   eventStatus: r[0].data ? r[0].data.eventStatus || null : null,
                                   cmpId: r[0].data && r[0].data.cmpId !== undefined ? r[0].data.cmpId : null } : null,
                  ping: r[1], listener: r[2], gpp: r[3],
                  ui: { shown: !!shown, displayStatus: r[1] ? r[1].displayStatus || null : null,
                        eventStatus: r[2] ? r[2].eventStatus || null : null },
                  nativeBacked: sharing ? sharing.active() : { tcfapi: false, gpp: false },
                  storage: storage,
                  navigatorGPC: 'globalPrivacyControl' in navigator ? navigator.globalPrivacyControl : 'absent',
                  pageResult: window.__contentPageResult || null,
                  pageSaw: window.__pageSawConsent || null
                };
              });
            })(\(names))
            """
    }
}
