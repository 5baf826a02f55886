import Foundation
import WebCMPBridge
import WebCMPConformance
import WebCMPToolSupport
import WebCMPHostGTK

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
    options.slowFactor = arguments.slowFactor
    options.extraOrigins = arguments.origins
    options.mode = arguments.settings ? .settings : .consent
    options.settingsURL = arguments.settingsURL
    options.settingsCall = arguments.settingsCall
    options.sourcepointPrivacyManagerID = arguments.sourcepointPrivacyManagerID
    options.sourcepointUSNatPrivacyManagerID = arguments.sourcepointUSNatPrivacyManagerID
    options.fallback = fallbackPage(arguments)
    options.terminateWebProcessWhenReady = arguments.terminateWebProcess
    if arguments.appContext { options.appContext = HostSession.testAppContext }
    options.endsWhenShown = endsWhenShown
    let view = GTKWebView(width: arguments.size.width, height: arguments.size.height)
    let session = HostSession(options: options, store: store, view: view)
    session.run()
    return session
}

/// A stored key's value as the text output shows it: long bit fields and restriction strings as their length, how
/// many positions are set and the first ids (`BitStringSummary`), unless `raw`; everything else as a JavaScript
/// literal.
func keyText(_ value: JSONValue, raw: Bool) -> String {
    if !raw, let text = value.stringValue, let summary = BitStringSummary(text) { return summary.description }
    return JavaScriptLiteral.expression(value)
}

@MainActor
func runCommand(_ arguments: Arguments) -> Int32 {
    guard let url = arguments.url ?? unreachableURL(arguments) else { fail("run needs a URL\n\(usage)", code: 2) }
    let store = makeStore(arguments)
    let session = runSession(arguments, url: url, store: store)
    let evaluated = arguments.evaluations.map { session.evaluate($0) ?? .null }
    session.bridge.invalidate()
    if arguments.json {
        var output: [String: JSONValue] = ["events": .array(session.log), "keys": store.iabKeys().json]
        if !evaluated.isEmpty { output["eval"] = .array(evaluated) }
        printJSON(.object(output))
    } else {
        print("Events:")
        for event in session.log { print("  " + JavaScriptLiteral.expression(event)) }
        print("IAB keys in UserDefaults:")
        let keys = store.iabKeys().json.objectValue ?? [:]
        if keys.isEmpty { print("  (none)") }
        for key in keys.keys.sorted() { print("  \(key) = \(keyText(keys[key]!, raw: arguments.raw))") }
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
    var report = ConformanceReport()
    // The first layer as a new user sees it: taken before any run of the check stores consent or website data.
    var screenshots = Screenshots(arguments)
    screenshots?.take(settings: false, url: url, store: .inMemory())

    let first = runSession(arguments, url: url, store: store)
    let events = first.bridgeEvents
    let saved = ConsentBridgeEvent.firstSave(in: events)
    report.rows.append(.ready(events, timeout: arguments.timeout))
    report.rows.append(.messagesValid(events, toolFailures: first.toolFailures))
    report.rows.append(.decodableTCString(saved: saved, clicked: !arguments.clicks.isEmpty))
    report.rows.append(.disclosedVendors(saved: saved))
    let tcfapi = first.evaluate("""
        new Promise(function (r) { if (typeof __tcfapi !== 'function') { r(null); return; }
          var t = setTimeout(function () { r(null); }, 1000); __tcfapi('ping', 2, function (p) { clearTimeout(t); r(p || null); }); })
        """)
    report.rows.append(.tcfapiPing(answer: tcfapi, saved: saved))
    let gpp = first.evaluate("""
        new Promise(function (r) { if (typeof __gpp !== 'function') { r(null); return; }
          var t = setTimeout(function () { r(null); }, 1000); __gpp('ping', function (p) { clearTimeout(t); r(p || null); }); })
        """)
    report.rows.append(.gppPing(answer: gpp, saved: saved))
    let usp = first.evaluate("""
        new Promise(function (r) { if (typeof __uspapi !== 'function') { r(null); return; }
          var t = setTimeout(function () { r(null); }, 1000);
          __uspapi('getUSPData', 1, function (d, ok) { clearTimeout(t); r(ok === false ? null : (d || null)); }); })
        """)
    report.rows.append(.uspapiAnswer(usp))
    report.rows += lifetimeRows(first)
    first.bridge.invalidate()
    first.view.close()

    if let saved {
        // What the store holds after the first run (a save and the US Privacy string that joined it later), compared
        // with what the page reports on its return visit.
        let stored = store.record()?.strings ?? saved.record.strings
        var again = arguments
        again.clicks = []
        let restoreURL = fallbackRestoreURL(&again) ?? url
        let second = runSession(again, url: restoreURL, store: store)
        let reported = second.evaluate(reportedStringsScript)
        report.rows.append(.acceptsInjectedRecord(
            stored: stored, reported: reported, events: second.bridgeEvents, toolFailures: second.toolFailures))
        second.bridge.invalidate()
        second.view.close()
    }
    if saved != nil {
        // With --fallback and no hosted URL, settings mode is checked on the fallback page served from its scheme.
        var settings = arguments
        let settingsURL = fallbackRestoreURL(&settings) ?? url
        report.rows.append(settingsRow(settings, url: settingsURL, store: store))
    }
    if screenshots != nil {
        // Settings mode as the settings row opens it: with the consent the check stored, if any.
        var settings = arguments
        let settingsURL = fallbackRestoreURL(&settings) ?? url
        screenshots?.take(settings: true, url: settingsURL, store: store, arguments: settings)
    }
    report.rows += fallbackRows(arguments, events: events, store: store)
    let keys = store.iabKeys().json.objectValue ?? [:]
    report.rows.append(.keysWritten(count: keys.count, clicked: !arguments.clicks.isEmpty))
    report.rows += screenshots?.rows ?? []

    let conforms = report.conforms
    print("Conformance of \(url.absoluteString)")
    for line in report.lines { print(line) }
    if !keys.isEmpty {
        print("IAB keys:")
        for key in keys.keys.sorted() { print("  \(key) = \(keyText(keys[key]!, raw: arguments.raw))") }
    }
    if let screenshots {
        print("Screenshots (\(arguments.size.width)×\(arguments.size.height)) in \(screenshots.directory.path):")
        if screenshots.files.isEmpty { print("  (none)") }
        for file in screenshots.files { print("  " + file.path) }
    }
    print(conforms ? "Result: conforms" : "Result: does not conform")
    return conforms ? 0 : 1
}

/// The strings a page reports through the IAB APIs it has, as `{tcString, gppString, uspString}`: a key only for an
/// API the page defines that answered within a second (`null` when it answered without a string), read 300 ms after
/// the run settled. ``ConformanceReport/Row/acceptsInjectedRecord(stored:reported:events:toolFailures:)`` compares
/// them with the stored ones.
let reportedStringsScript = """
    new Promise(function (resolve) {
      var out = {};
      var text = function (v) { return typeof v === 'string' ? v : null; };
      var steps = [
        function (done) { if (typeof __tcfapi !== 'function') { done(); return; }
          __tcfapi('getTCData', 2, function (d, ok) { if (ok !== false) { out.tcString = d ? text(d.tcString) : null; } done(); }); },
        function (done) { if (typeof __gpp !== 'function') { done(); return; }
          __gpp('ping', function (p, ok) { if (ok !== false) { out.gppString = p ? text(p.gppString) : null; } done(); }); },
        function (done) { if (typeof __uspapi !== 'function') { done(); return; }
          __uspapi('getUSPData', 1, function (d, ok) { if (ok !== false) { out.uspString = d ? text(d.uspString) : null; } done(); }); }
      ];
      var next = function (index) {
        if (index === steps.length) { resolve(out); return; }
        var finished = false;
        var timer;
        var done = function () { if (!finished) { finished = true; clearTimeout(timer); next(index + 1); } };
        timer = setTimeout(done, 1000);
        try { steps[index](done); } catch (e) { done(); }
      };
      setTimeout(function () { next(0); }, 300);
    })
    """

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
        fail("\(error)\n\(usage)", code: 2)
    }
    if arguments.help {
        print(usage)
        return 0
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
    case "sharing-cost": return SharingCost.command(arguments)
    case "bench":
        return Measure.bench(page: arguments.url ?? samplePage(), saves: arguments.saves ?? 200, json: arguments.json)
    case "soak":
        return Measure.soak(page: arguments.url ?? samplePage(), saves: arguments.saves ?? 10_000,
                            cycles: arguments.cycles, minimalBodies: arguments.minimalBodies,
                            retainBridges: arguments.retainBridges, json: arguments.json)
    default: fail("unknown command \(UntrustedText.quoted(arguments.command))\n\(usage)", code: 2)
    }
}
fflush(nil)
exit(exitCode)
