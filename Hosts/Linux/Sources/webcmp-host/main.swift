import Foundation
import WebCMPBridge
import WebCMPHostGTK

let usage = """
    usage: webcmp-host run URL [--dialect gravito|onesecondbefore|tcf|auto] [--click ID ...] [--state DIR]
                               [--timeout S] [--settle S] [--allow-origin ORIGIN ...] [--eval EXPRESSION ...] [--json]
                               [--settings [--settings-url URL] [--settings-call CALL | --settings-preset NAME]]
                               [--fallback FILE] [--terminate-web-process] [--size WxH]
           webcmp-host check URL [--dialect …] [--click ID ...] [--timeout S] [--settle S] [--settings]
                                 [--settings-url URL] [--settings-call CALL | --settings-preset NAME] [--fallback FILE]
                                 [--screenshot DIR [--size WxH]]
           webcmp-host share URL --state DIR [--content-origin ORIGIN ...] [--preset NAME ...]
                                 [--seed cookie|localStorage:NAME:VALUE ...] [--update-from DIR] [--eval EXPRESSION ...]
                                 [--settle S] [--json]
           webcmp-host prewarm URL [--dialect …] [--click ID ...] [--state DIR] [--fallback FILE]
           webcmp-host reset URL --state DIR        (QA reset: consent and the page's website data)
           webcmp-host reject-all --state DIR       (programmatic reject-all of the stored consent)
           webcmp-host selftest-escaping [--count N]
           webcmp-host bench [URL] [--saves N=200] [--json]
           webcmp-host soak [URL] [--saves N=10000] [--cycles M=200] [--minimal-bodies] [--retain-bridges] [--json]

    run    loads a hosted CMP page in real WebKit (WebKitGTK) through the WebCMPBridge bridge, clicks the given
           element ids in order once the page is ready, and prints the event log and the stored IAB keys.
           --json prints exactly one JSON object {"events": [...], "keys": {...}}; with --eval, also "eval": the
           values of the given JavaScript expressions in the page at the end of the run.
           The run ends when the CMP UI finishes. Without --click it lasts at most --timeout seconds (default 30;
           also the ready timeout), so a page that saves late is still stored; after the clicks it also ends once
           the page has been quiet (no event) for --settle seconds (default 1). Links the page opens away from
           itself are logged as {"type": "openedExternally", "url": …} instead of opening a browser.
           --terminate-web-process ends the page's web content process once when it is first ready (before any
           click), as iOS does to apps in the background: the bridge reloads the page once.
    check  a conformance report for a hosted CMP page; exit 0 when it conforms, 1 when not, 2 for usage errors.
           Each of its runs ends by the same rule as run's.
           It also reports whether the page reports gdprApplies, whether GPP-only consent was captured and whether
           "Privacy settings" works (the page reopened in settings mode with the stored consent stays open), and
           whether the saved TC string carries the DisclosedVendors segment TCF 2.3 requires of strings created on or
           after 2026-02-28 (row "TCF 2.3: disclosed vendors present"; FAIL when it does not).
    --screenshot DIR  (check) also writes PNG pictures of the page as an app user sees it on a phone, so the CMP
           page's owner can look at them: DIR/first-layer-light.png, first-layer-dark.png (the first layer, nothing
           stored), settings-light.png, settings-dark.png (settings mode, with the consent the check stored), each
           in its own run without clicks once the page shows its UI, its document is complete, its fonts are loaded
           and it has been quiet for 0.5 s; dark = the page sees prefers-color-scheme: dark. DIR is created if
           missing. Each file is a row (FAIL with the reason when it cannot be taken, has another size or the page
           saw the other color scheme); the report lists the files written.
    --size WxH  the web view's size in pixels (default 390x844, a phone); with --screenshot, the pictures' size.
    --settings  opens the page in settings mode (ConsentUIMode.settings: the stored record is injected and the
           dialect's PrivacySettingsOpener applies, e.g. layer=settings or __tcfapi('displayConsentUi')).
           --settings-url URL opens that page instead (PrivacySettingsOpener(url:); its origin is allowed).
           --settings-call CALL makes that call in the page once it is ready, like the app's PrivacySettingsCall:
           a function path from window and JSON arguments, e.g. 'Didomi.preferences.show()',
           '_sp_.gdpr.loadPrivacyManagerModal(123456)' or '__tcfapi("displayConsentUi", 2, callback)' (a last
           argument `callback` passes a callback whose success: false is a refusal). --settings-preset NAME uses a
           preset: didomi, cookiebot, tcf. Without either, a generic TCF page is
           opened automatically: __tcfapi('displayConsentUi'), then each preset whose function the page has. The
           settings count as open only when the CMP shows its UI (cmpuishown, GPP cmpDisplayStatus visible); a
           refusal, an exception or no UI within 3 s tries the next call, and none left is the error
           privacySettingsNotOpened (consent unchanged).
    share  loads a content page as an app's content web view would, with the stored consent shared into it: the
           configured first-party entries seeded (cookie manager before loading, and a main-frame document-start
           script for the content origins; default origin: the URL's; default preset: euconsent-v2; presets:
           euconsent-v2, didomi, onetrust), plus the native-backed __tcfapi/__gpp/__uspapi for pages without a
           CMP (main frame only; the page's iframes are answered through the IAB locator frames and postMessage).
           Waits for the page to settle (--settle S, default 1) and prints what the page's own
           __tcfapi('getTCData') and ping return, whether its CMP showed UI, its __gpp ping, what its storage holds
           under the configured names, and with --eval the values of the expressions ("eval").
    --update-from DIR  (share) after the page settled, hands it the consent stored in DIR as an app does when
           consent changed (the sharing update script, in the main frame; listeners in the page and in its
           iframes are notified), waits --settle seconds again, then reports.
    --fallback FILE  serves FILE as the app's fallback page (webcmp-fallback://app/<name>) when URL fails; without
           URL, run and check use an unreachable loopback URL, so check reports whether FILE works as a fallback.
    prewarm  loads URL off-screen through a ConsentPrewarmer, presents it once ready (no new load), clicks, and
           prints JSON: events before/after presenting, keys, loads before/after, presentToReadyMs.
    bench  real-engine save round trip (page save → keys stored → page acknowledged), median and p90, and load →
           ready for a cold vs a pre-warmed web view. Default page: SampleHost/index.html?dialect=gravito.
    soak   memory of the host process over N saves in one page session, and over M create → load → save →
           invalidate cycles; exit 1 when a target is missed. --minimal-bodies posts {type: "save", tcstring} only
           (JavaScriptCore then collects the message values less often: resident memory rises between collections).
           --retain-bridges is the check's own check: it keeps every cycle's bridge alive after invalidate(), as a
           retain cycle would, so part (b) must fail.
    --state DIR  the app's own data: the stored consent (DIR/defaults.json) and the web views' website data
           (DIR/website-data: local storage, cookies, caches), as an app's sandbox keeps them. Without --state both
           live in memory only, so runs never see each other's data.
    Run under a display: xvfb-run -a webcmp-host …
    """

struct UsageError: Error, CustomStringConvertible { var description: String }

struct Arguments {
    var command = ""
    var url: URL?
    var dialect: CMPDialect?
    var clicks: [String] = []
    var state: URL?
    var timeout: TimeInterval = 30
    var settle: TimeInterval = HostSession.defaultSettle
    var json = false
    var count = 300
    var origins: Set<String> = []
    var evaluations: [String] = []
    var contentOrigins: [String] = []
    var presets: [String] = []
    var seeds: [String] = []
    var updateFrom: URL?
    var saves: Int?
    var cycles = 200
    var minimalBodies = false
    var terminateWebProcess = false
    var retainBridges = false
    var settings = false
    var settingsURL: URL?
    var settingsCall: PrivacySettingsCall?
    var fallback: URL?
    var screenshot: URL?
    var size = GTKWebView.defaultSize

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        guard let command = rest.popFirst() else { throw UsageError(description: "missing command") }
        self.command = command
        func value(_ flag: String) throws -> String {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--settings": settings = true
            case "--settings-call": settingsCall = try parseSettingsCall(try value(argument))
            case "--settings-preset":
                let name = try value(argument)
                guard let preset = PrivacySettingsCall.preset(named: name) else {
                    throw UsageError(description: "--settings-preset: unknown preset '\(name)' (didomi, cookiebot, tcf)")
                }
                settingsCall = preset
            case "--settings-url":
                let text = try value(argument)
                guard let url = URL(string: text), url.scheme != nil else {
                    throw UsageError(description: "--settings-url needs an absolute URL, not '\(text)'")
                }
                settingsURL = url
            case "--dialect":
                let name = try value(argument)
                if name == "auto" { dialect = nil } else if name == "osb" { dialect = .onesecondbefore } else {
                    guard let parsed = CMPDialect(rawValue: name) else { throw UsageError(description: "unknown dialect '\(name)'") }
                    dialect = parsed
                }
            case "--click": clicks.append(try value(argument))
            case "--eval": evaluations.append(try value(argument))
            case "--state": state = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--allow-origin": origins.insert(try value(argument))
            case "--content-origin": contentOrigins.append(try value(argument))
            case "--preset": presets.append(try value(argument))
            case "--seed": seeds.append(try value(argument))
            case "--update-from": updateFrom = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--fallback": fallback = URL(fileURLWithPath: try value(argument))
            case "--screenshot": screenshot = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--size": size = try parseSize(try value(argument))
            case "--timeout":
                guard let seconds = TimeInterval(try value(argument)), seconds > 0, seconds <= 600 else {
                    throw UsageError(description: "--timeout takes seconds from 0 to 600")
                }
                timeout = seconds
            case "--settle":
                guard let seconds = TimeInterval(try value(argument)), seconds >= 0, seconds <= 600 else {
                    throw UsageError(description: "--settle takes seconds from 0 to 600")
                }
                settle = seconds
            case "--saves":
                guard let number = Int(try value(argument)), number > 0, number <= 1_000_000 else {
                    throw UsageError(description: "--saves takes a number from 1 to 1000000")
                }
                saves = number
            case "--terminate-web-process": terminateWebProcess = true
            case "--minimal-bodies":
                minimalBodies = true
            case "--retain-bridges":
                retainBridges = true
            case "--cycles":
                guard let number = Int(try value(argument)), number > 0, number <= 10_000 else {
                    throw UsageError(description: "--cycles takes a number from 1 to 10000")
                }
                cycles = number
            case "--count":
                guard let number = Int(try value(argument)), number > 0, number <= 100_000 else {
                    throw UsageError(description: "--count takes a number from 1 to 100000")
                }
                count = number
            case "-h", "--help": throw UsageError(description: "help")
            default:
                guard url == nil, !argument.hasPrefix("-") else { throw UsageError(description: "unexpected argument '\(argument)'") }
                guard let parsed = URL(string: argument), let scheme = parsed.scheme?.lowercased(),
                    ["http", "https", "file"].contains(scheme)
                else {
                    if FileManager.default.fileExists(atPath: argument) {
                        url = URL(fileURLWithPath: argument).standardizedFileURL
                        continue
                    }
                    throw UsageError(description: "'\(argument)' is not an http(s) or file URL")
                }
                url = parsed
            }
        }
    }
}

func printJSON(_ value: JSONValue) {
    print(JavaScriptLiteral.expression(value))
}

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("webcmp-host: \(message)\n".utf8))
    exit(code)
}

@MainActor
func makeStore(_ arguments: Arguments) -> ConsentStore {
    guard let state = arguments.state else { return .inMemory() }
    do {
        return ConsentStore(storage: try .jsonFile(in: state))
    } catch {
        fail("cannot use the state directory \(state.path): \(error)", code: 2)
    }
}

@MainActor
func runSession(_ arguments: Arguments, url: URL, store: ConsentStore, endsWhenShown: Bool = false) -> HostSession {
    var options = HostSession.Options(url: url, dialect: arguments.dialect)
    options.clicks = arguments.clicks
    options.timeout = arguments.timeout
    options.settle = arguments.settle
    options.extraOrigins = arguments.origins
    options.mode = arguments.settings ? .settings : .consent
    options.settingsURL = arguments.settingsURL
    options.settingsCall = arguments.settingsCall
    options.fallback = fallbackPage(arguments)
    options.terminateWebProcessWhenReady = arguments.terminateWebProcess
    options.endsWhenShown = endsWhenShown
    let view = GTKWebView(width: arguments.size.width, height: arguments.size.height)
    let session = HostSession(options: options, store: store, view: view)
    session.run()
    return session
}

@MainActor
func runCommand(_ arguments: Arguments) -> Int32 {
    guard let url = arguments.url ?? unreachableURL(arguments) else { fail("run needs a URL\n\(usage)", code: 2) }
    let store = makeStore(arguments)
    let session = runSession(arguments, url: url, store: store)
    let evaluated = arguments.evaluations.map { session.evaluate($0) ?? .null }
    session.bridge.invalidate()
    if arguments.json {
        var output: [String: JSONValue] = ["events": .array(session.log), "keys": store.keysJSON()]
        if !evaluated.isEmpty { output["eval"] = .array(evaluated) }
        printJSON(.object(output))
    } else {
        print("Events:")
        for event in session.log { print("  " + JavaScriptLiteral.expression(event)) }
        print("IAB keys in UserDefaults:")
        let keys = store.keysJSON().objectValue ?? [:]
        if keys.isEmpty { print("  (none)") }
        for key in keys.keys.sorted() { print("  \(key) = \(JavaScriptLiteral.expression(keys[key]!))") }
    }
    session.view.close()
    return 0
}

@MainActor
func checkCommand(_ arguments: Arguments) -> Int32 {
    guard let url = arguments.url ?? unreachableURL(arguments) else { fail("check needs a URL\n\(usage)", code: 2) }
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("webcmp-check-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    guard let storage = try? KeyValueStorage.jsonFile(in: state) else { fail("cannot create a temporary state", code: 2) }
    let store = ConsentStore(storage: storage)
    var rows: [(String, Bool?, String)] = []
    // The first layer as a new user sees it: taken before any run of the check stores consent or website data.
    var screenshots = Screenshots(arguments)
    screenshots?.take(settings: false, url: url, store: .inMemory())

    let first = runSession(arguments, url: url, store: store)
    let events = first.log
    func has(_ type: String) -> Bool { events.contains { $0["type"] == .string(type) } }
    let ready = events.first { $0["type"] == .string("uiReady") }
    rows.append(("ready message within \(Int(arguments.timeout)) s", ready != nil,
                 ready.flatMap { $0["dialect"]?.stringValue }.map { "dialect: \($0)" } ?? "no ready message"))
    let errors = events.filter { $0["type"] == .string("error") }
    rows.append(("messages valid", errors.isEmpty, errors.isEmpty ? "no rejected messages"
        : errors.compactMap { $0["code"]?.stringValue }.joined(separator: ", ")))
    let saved = events.first { $0["type"] == .string("consentReady") }
    let gppOnlySave = saved.map { $0["tcString"] == .null && $0["gppString"]?.stringValue != nil } ?? false
    if arguments.clicks.isEmpty {
        rows.append(("save produces a decodable TC string", nil, "not checked (no --click given)"))
    } else if gppOnlySave {
        rows.append(("save produces a decodable TC string", nil, "GPP-only save (no TC string)"))
    } else {
        rows.append(("save produces a decodable TC string", saved != nil,
                     saved?["tcString"]?.stringValue.map { String($0.prefix(40)) + "…" } ?? "no valid save"))
    }
    rows.append(disclosedVendorsRow(saved: saved))
    let tcfapi = first.evaluate("""
        new Promise(function (r) { if (typeof __tcfapi !== 'function') { r(null); return; }
          var t = setTimeout(function () { r(null); }, 1000); __tcfapi('ping', 2, function (p) { clearTimeout(t); r(p || null); }); })
        """)
    let tcfapiAbsent = (tcfapi ?? .null) == .null
    rows.append(("__tcfapi answers ping", tcfapiAbsent && gppOnlySave ? nil : !tcfapiAbsent,
                 tcfapiAbsent ? (gppOnlySave ? "absent (a GPP-only CMP)" : "absent") : "cmpId \(tcfapi?["cmpId"].map(JavaScriptLiteral.expression) ?? "?")"))
    let gpp = first.evaluate("""
        new Promise(function (r) { if (typeof __gpp !== 'function') { r(null); return; }
          var t = setTimeout(function () { r(null); }, 1000); __gpp('ping', function (p) { clearTimeout(t); r(p || null); }); })
        """)
    rows.append(("__gpp answers ping", nil, (gpp ?? .null) == .null ? "absent (optional)" : "present"))
    rows += lifetimeRows(first)
    first.bridge.invalidate()
    first.view.close()

    if saved != nil {
        var again = arguments
        again.clicks = []
        let restoreURL = fallbackRestoreURL(&again) ?? url
        let second = runSession(again, url: restoreURL, store: store)
        let restored = second.evaluate("""
            new Promise(function (r) { if (typeof __tcfapi !== 'function') { r(null); return; }
              setTimeout(function () { __tcfapi('getTCData', 2, function (d) { r(d ? d.tcString : null); }); }, 300); })
            """)
        let expected = saved?["tcString"]
        let secondErrors = second.log.filter { $0["type"] == .string("error") }
        let accepted = secondErrors.isEmpty && (restored == nil || restored == .null || restored == expected)
        rows.append(("accepts the injected record", accepted,
                     restored == expected ? "restored the stored TC string" : secondErrors.isEmpty ? "no errors on re-injection" : "errors on re-injection"))
        second.bridge.invalidate()
        second.view.close()
    }
    if saved != nil {
        // With --fallback and no hosted URL, settings mode is checked on the fallback page served from its scheme.
        var settings = arguments
        let settingsURL = fallbackRestoreURL(&settings) ?? url
        rows.append(settingsRow(settings, url: settingsURL, store: store))
    }
    if screenshots != nil {
        // Settings mode as the settings row opens it: with the consent the check stored, if any.
        var settings = arguments
        let settingsURL = fallbackRestoreURL(&settings) ?? url
        screenshots?.take(settings: true, url: settingsURL, store: store, arguments: settings)
    }
    rows += fallbackRows(arguments, log: events, store: store)
    let keys = store.keysJSON().objectValue ?? [:]
    rows.append(("IAB keys written", arguments.clicks.isEmpty ? nil : !keys.isEmpty, "\(keys.count) keys"))
    rows += screenshots?.rows ?? []

    let conforms = rows.allSatisfy { $0.1 != false }
    let width = rows.map(\.0.count).max() ?? 0
    print("Conformance of \(url.absoluteString)")
    for (name, ok, detail) in rows {
        let mark = ok.map { $0 ? "PASS" : "FAIL" } ?? "----"
        print("  \(mark)  \(name.padding(toLength: width, withPad: " ", startingAt: 0))  \(detail)")
    }
    if !keys.isEmpty {
        print("IAB keys:")
        for key in keys.keys.sorted() { print("  \(key) = \(JavaScriptLiteral.expression(keys[key]!))") }
    }
    if let screenshots {
        print("Screenshots (\(arguments.size.width)×\(arguments.size.height)) in \(screenshots.directory.path):")
        if screenshots.files.isEmpty { print("  (none)") }
        for file in screenshots.files { print("  " + file.path) }
    }
    print(conforms ? "Result: conforms" : "Result: does not conform")
    return conforms ? 0 : 1
}

/// Evaluates JavaScript literals built by the core for random strings in WebKit's JavaScriptCore and checks that
/// each value arrives unchanged (code point by code point). Prints `N passed, M failed`.
@MainActor
func escapingSelfTest(_ arguments: Arguments) -> Int32 {
    let view = GTKWebView()
    var loaded = false
    view.eventHandler = { event in if case .didFinishLoading = event { loaded = true } }
    view.load(URL(string: "about:blank")!)
    GTKRuntime.run(until: Date().addingTimeInterval(10)) { !loaded }
    var generator = SystemRandomNumberGenerator()
    let tricky = ["\"", "'", "\\", "</script>", "<!--", "\u{2028}", "\u{2029}", "\0", "\n", "`", "${x}", "🏳️‍🌈", "\u{10FFFF}", "\u{FEFF}"]
    var passed = 0
    var failed = 0
    let session = HostSession(options: .init(url: URL(string: "about:blank")!, dialect: nil), store: .inMemory(), view: view)
    for index in 0..<arguments.count {
        var string = ""
        for _ in 0..<Int.random(in: 0...16, using: &generator) {
            if Bool.random(using: &generator) { string += tricky.randomElement(using: &generator)! } else {
                var value: UInt32
                repeat { value = UInt32.random(in: 0...0x10FFFF, using: &generator) } while (0xD800...0xDFFF).contains(value)
                string.unicodeScalars.append(Unicode.Scalar(value)!)
            }
        }
        if index < tricky.count { string = tricky[index] }
        let literal = JavaScriptLiteral.expression(.object(["s": .string(string)]))
        let result = session.evaluate("Array.from((\(literal)).s).map(function (c) { return c.codePointAt(0); })")
        let expected = JSONValue.array(string.unicodeScalars.map { .number(Double($0.value)) })
        if result == expected { passed += 1 } else {
            failed += 1
            FileHandle.standardError.write(Data("mismatch for \(string.debugDescription)\n".utf8))
        }
    }
    view.close()
    print("escaping in JavaScriptCore: \(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
}

/// SampleHost/index.html of the repository (the working directory, or beside this executable's package).
func samplePage() -> URL {
    let candidates = [
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("SampleHost/index.html"),
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../SampleHost/index.html").standardizedFileURL,
    ]
    guard let page = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
        fail("SampleHost/index.html not found; pass a page URL", code: 2)
    }
    var components = URLComponents(url: page, resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: "dialect", value: "gravito")]
    return components.url!
}

let exitCode: Int32 = MainActor.assumeIsolated {
    let arguments: Arguments
    do {
        arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    } catch {
        if "\(error)" == "help" {
            print(usage)
            return 0
        }
        fail("\(error)\n\(usage)", code: 2)
    }
    guard GTKRuntime.initialize() else { fail("cannot open a display (run under xvfb-run -a)", code: 2) }
    GTKRuntime.websiteDataDirectory = arguments.state?.appendingPathComponent("website-data", isDirectory: true)
    switch arguments.command {
    case "run": return runCommand(arguments)
    case "check": return checkCommand(arguments)
    case "share": return Share.command(arguments)
    case "reset": return resetCommand(arguments)
    case "reject-all": return rejectAllCommand(arguments)
    case "prewarm": return Prewarm.command(arguments)
    case "selftest-escaping": return escapingSelfTest(arguments)
    case "bench":
        return Measure.bench(page: arguments.url ?? samplePage(), saves: arguments.saves ?? 200, json: arguments.json)
    case "soak":
        return Measure.soak(page: arguments.url ?? samplePage(), saves: arguments.saves ?? 10_000,
                            cycles: arguments.cycles, minimalBodies: arguments.minimalBodies,
                            retainBridges: arguments.retainBridges, json: arguments.json)
    default: fail("unknown command '\(arguments.command)'\n\(usage)", code: 2)
    }
}
fflush(nil)
exit(exitCode)

/// Parses `--settings-call`: `PATH(ARGUMENTS)` where PATH is a dot-separated function path from `window` and
/// ARGUMENTS are JSON values separated by commas; a last argument `callback` passes a callback (the `__tcfapi`
/// convention). `PATH` alone calls it without arguments.
func parseSettingsCall(_ text: String) throws -> PrivacySettingsCall {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let open = trimmed.firstIndex(of: "(") else { return try checkedCall(trimmed, [], false, text) }
    guard trimmed.hasSuffix(")") else { throw UsageError(description: "--settings-call: missing ')' in '\(text)'") }
    let path = String(trimmed[..<open])
    var inner = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        .trimmingCharacters(in: .whitespaces)
    var callback = false
    if inner == "callback" || inner.hasSuffix(", callback") || inner.hasSuffix(",callback") {
        callback = true
        inner = String(inner.dropLast("callback".count)).trimmingCharacters(in: .whitespaces)
        if inner.hasSuffix(",") { inner.removeLast() }
    }
    guard let arguments = (try? JSONValue(parsing: "[" + inner + "]"))?.arrayValue else {
        throw UsageError(description: "--settings-call: the arguments of '\(text)' are not JSON values")
    }
    return try checkedCall(path, arguments, callback, text)
}

private func checkedCall(_ path: String, _ arguments: [JSONValue], _ callback: Bool, _ text: String) throws
    -> PrivacySettingsCall
{
    let names = path.split(separator: ".", omittingEmptySubsequences: false)
    guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" } })
    else { throw UsageError(description: "--settings-call: '\(text)' does not start with a function path like Didomi.preferences.show") }
    return PrivacySettingsCall(path, arguments: arguments, appendsCallback: callback)
}
