import Foundation
import WebCMPBridge
import WebCMPToolSupport
import WebCMPHostGTK

/// What the command line asks for (see ``usage``), read by the package's one command-line parser
/// (`CommandLineArguments`, which `webcmp` uses too).
struct Arguments {
    /// The command: `run`, `check`, `share`, `prewarm`, `reset`, `reject-all`, `selftest-escaping`, `bench`, `soak`.
    var command = ""
    /// The page (the positional argument after the command).
    var url: URL?
    /// `--dialect`; `nil`: detected (`auto`).
    var dialect: CMPDialect?
    /// `--click`: element ids clicked in order once the page is ready.
    var clicks: [String] = []
    /// `--state DIR`: the app's own data (stored consent, website data); `nil`: in memory only.
    var state: URL?
    /// `--timeout`: the ready timeout, and how long a run without clicks lasts at most.
    var timeout: TimeInterval = 30
    /// `--settle`: how long the page must be quiet before a run ends after its clicks.
    var settle: TimeInterval = HostSession.defaultSettle
    /// `--json`: print one JSON object.
    var json = false
    /// `--raw`: print the exact key values; without it long bit fields and restriction strings are summarised
    /// (`BitStringSummary`).
    var raw = false
    /// `--count`: how many strings `selftest-escaping` checks.
    var count = 300
    /// `--allow-origin`: origins allowed besides the configured pages'.
    var origins: Set<String> = []
    /// `--eval`: JavaScript expressions evaluated in the page at the end.
    var evaluations: [String] = []
    /// `--content-origin` (`share`): the content origins; none: the URL's own.
    var contentOrigins: [String] = []
    /// `--preset` (`share`): sharing presets by name.
    var presets: [String] = []
    /// `--seed` (`share`): `cookie|localStorage:NAME:VALUE` entries.
    var seeds: [String] = []
    /// `--update-from DIR` (`share`): the state whose consent is handed to the page after it settled.
    var updateFrom: URL?
    /// `--gpc automatic|always|never` (`share`): the sharing configuration's Global Privacy Control setting.
    var globalPrivacyControl: GlobalPrivacyControl = .automatic
    /// `--saves` (`bench`, `soak`); `nil`: the command's default.
    var saves: Int?
    /// `--pairs` (`sharing-cost`): how many paired loads are counted; `nil`: the command's default.
    var pairs: Int?
    /// `--with-frame` (`sharing-cost`): the content page has an iframe of its own.
    var withFrame = false
    /// `--long-page` (`sharing-cost`): the content page has 4,000 paragraphs (about 350 KB), so that it is parsed in
    /// several chunks, not one.
    var longPage = false
    /// `--tc-string-only` (`sharing-cost`): the stored record has a TC string only (the usual record in the EU), not
    /// a TC, a GPP and a US Privacy string.
    var tcStringOnly = false
    /// `--cycles` (`soak`).
    var cycles = 200
    /// `--minimal-bodies` (`soak`).
    var minimalBodies = false
    /// `--terminate-web-process`: end the web content process once when the page is first ready.
    var terminateWebProcess = false
    /// `--app-context` (`run`): the bridge sends ``HostSession/testAppContext`` to the page.
    var appContext = false
    /// `--retain-bridges` (`soak`): the check's own check.
    var retainBridges = false
    /// `--settings`: open the page in settings mode.
    var settings = false
    /// `--settings-url`: the "Privacy settings" page, when it is not the CMP page.
    var settingsURL: URL?
    /// `--settings-call` or `--settings-preset`: the call that opens the CMP's preferences.
    var settingsCall: PrivacySettingsCall?
    /// `--slow-factor F` (1 to 20): multiplies the host's fixed waits on a loaded machine
    /// (``HostSession/Options/slowFactor``).
    var slowFactor: Double = 1
    /// `--sourcepoint-pm ID`, `--sourcepoint-usnat-pm ID`: Sourcepoint's privacy manager ids for the automatic opener.
    var sourcepointPrivacyManagerID: Int?
    var sourcepointUSNatPrivacyManagerID: Int?
    /// `--fallback FILE`: the app's fallback page.
    var fallback: URL?
    /// `--screenshot DIR` (`check`): where the pictures go.
    var screenshot: URL?
    /// `--size WxH`: the web view's size in pixels.
    var size = GTKWebView.defaultSize
    /// Whether the command line asks for the usage (`--help` or `-h`); nothing else is read then.
    var help = false

    /// The options that take one value.
    static let valueOptions: Set<String> = [
        "--dialect", "--state", "--timeout", "--settle", "--settings-url", "--settings-call", "--settings-preset",
        "--sourcepoint-pm", "--sourcepoint-usnat-pm", "--slow-factor",
        "--update-from", "--gpc", "--fallback", "--screenshot", "--size", "--saves", "--cycles", "--count", "--pairs",
    ]
    /// The options that may be given any number of times.
    static let repeatableOptions: Set<String> = [
        "--click", "--eval", "--allow-origin", "--content-origin", "--preset", "--seed",
    ]
    /// The flags.
    static let flagOptions: Set<String> = [
        "--json", "--with-frame", "--long-page", "--tc-string-only", "--raw", "--settings", "--terminate-web-process", "--app-context", "--minimal-bodies",
        "--retain-bridges", "--help", "-h",
    ]

    /// Reads `arguments` (the command line after the executable's name): the command, an optional URL, then options.
    init(_ arguments: [String]) throws(UsageError) {
        let parsed = try CommandLineArguments(
            arguments, valueOptions: Self.valueOptions, repeatableOptions: Self.repeatableOptions,
            flagOptions: Self.flagOptions, help: "webcmp-host --help")
        help = parsed.has("--help") || parsed.has("-h")
        if help { return }
        var positional = parsed.positional[...]
        guard let command = positional.popFirst() else { throw UsageError("missing command") }
        self.command = command
        url = try positional.popFirst().map(Self.url)
        if let extra = positional.first { throw UsageError("unexpected argument \(UntrustedText.quoted(extra))") }
        clicks = parsed.all("--click")
        evaluations = parsed.all("--eval")
        origins = Set(parsed.all("--allow-origin"))
        contentOrigins = parsed.all("--content-origin")
        presets = parsed.all("--preset")
        seeds = parsed.all("--seed")
        json = parsed.has("--json")
        withFrame = parsed.has("--with-frame")
        longPage = parsed.has("--long-page")
        tcStringOnly = parsed.has("--tc-string-only")
        raw = parsed.has("--raw")
        settings = parsed.has("--settings")
        terminateWebProcess = parsed.has("--terminate-web-process")
        appContext = parsed.has("--app-context")
        minimalBodies = parsed.has("--minimal-bodies")
        retainBridges = parsed.has("--retain-bridges")
        state = parsed["--state"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        updateFrom = parsed["--update-from"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let text = parsed["--gpc"] {
            guard let setting = GlobalPrivacyControl(rawValue: text) else {
                throw UsageError("--gpc takes automatic, always or never, not \(UntrustedText.quoted(text))")
            }
            globalPrivacyControl = setting
        }
        fallback = parsed["--fallback"].map { URL(fileURLWithPath: $0) }
        screenshot = parsed["--screenshot"].map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let text = parsed["--size"] { size = try parseSize(text) }
        if let name = parsed["--dialect"] { dialect = try Self.dialect(name) }
        settingsCall = try Self.settingsCall(parsed)
        settingsURL = try parsed["--settings-url"].map(Self.settingsURL)
        timeout = try parsed.seconds("--timeout", in: 0...600) ?? timeout
        guard timeout > 0 else { throw UsageError("option --timeout needs more than 0 seconds") }
        settle = try parsed.seconds("--settle", in: 0...600) ?? settle
        saves = try parsed.integer("--saves", in: 1...1_000_000)
        pairs = try parsed.integer("--pairs", in: 1...10_000)
        cycles = try parsed.integer("--cycles", in: 1...10_000) ?? cycles
        count = try parsed.integer("--count", in: 1...100_000) ?? count
        slowFactor = try parsed.seconds("--slow-factor", in: 1...20) ?? slowFactor
        sourcepointPrivacyManagerID = try parsed.integer("--sourcepoint-pm", in: 1...Self.maximumPrivacyManagerID)
        sourcepointUSNatPrivacyManagerID = try parsed.integer(
            "--sourcepoint-usnat-pm", in: 1...Self.maximumPrivacyManagerID)
    }

    /// The largest privacy manager id accepted (a JSON number holds it exactly).
    static let maximumPrivacyManagerID = 1 << 53

    /// The page: an `http(s)` or `file` URL, or the path of an existing file.
    private static func url(_ text: String) throws(UsageError) -> URL {
        if let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) {
            return parsed
        }
        guard FileManager.default.fileExists(atPath: text) else {
            throw UsageError("\(UntrustedText.quoted(text)) is not an http(s) or file URL")
        }
        return URL(fileURLWithPath: text).standardizedFileURL
    }

    /// `--dialect`: a dialect's raw value, `osb` for Onesecondbefore, or `auto` (`nil`: detected).
    private static func dialect(_ name: String) throws(UsageError) -> CMPDialect? {
        switch name {
        case "auto": return nil
        case "osb": return .onesecondbefore
        default:
            guard let dialect = CMPDialect(rawValue: name) else {
                throw UsageError("unknown dialect \(UntrustedText.quoted(name))")
            }
            return dialect
        }
    }

    /// `--settings-call CALL` or `--settings-preset NAME` (not both).
    private static func settingsCall(_ parsed: CommandLineArguments) throws(UsageError) -> PrivacySettingsCall? {
        switch (parsed["--settings-call"], parsed["--settings-preset"]) {
        case (nil, nil): return nil
        case (let call?, nil): return try parseSettingsCall(call)
        case (nil, let name?):
            guard let preset = PrivacySettingsCall.preset(named: name) else {
                throw UsageError(
                    "--settings-preset: unknown preset \(UntrustedText.quoted(name)) ("
                        + PrivacySettingsCall.presetNames.joined(separator: ", ") + ")")
            }
            return preset
        case (_?, _?): throw UsageError("give --settings-call or --settings-preset, not both")
        }
    }

    /// `--settings-url`: an absolute URL.
    private static func settingsURL(_ text: String) throws(UsageError) -> URL {
        guard let url = URL(string: text), url.scheme != nil else {
            throw UsageError("--settings-url needs an absolute URL, not \(UntrustedText.quoted(text))")
        }
        return url
    }
}

/// Parses `--settings-call`: `PATH(ARGUMENTS)` where PATH is a dot-separated function path from `window` and
/// ARGUMENTS are JSON values separated by commas; a last argument `callback` passes a callback (the `__tcfapi`
/// convention). `PATH` alone calls it without arguments.
func parseSettingsCall(_ text: String) throws(UsageError) -> PrivacySettingsCall {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let open = trimmed.firstIndex(of: "(") else { return try checkedCall(trimmed, [], false, text) }
    guard trimmed.hasSuffix(")") else { throw UsageError("--settings-call: missing ')' in \(UntrustedText.quoted(text))") }
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
        throw UsageError("--settings-call: the arguments of \(UntrustedText.quoted(text)) are not JSON values")
    }
    return try checkedCall(path, arguments, callback, text)
}

/// The call of `--settings-call` once its path is checked: names of letters, digits, `_` and `$`, joined by dots.
private func checkedCall(_ path: String, _ arguments: [JSONValue], _ callback: Bool, _ text: String) throws(UsageError)
    -> PrivacySettingsCall
{
    let names = path.split(separator: ".", omittingEmptySubsequences: false)
    guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" } })
    else {
        throw UsageError(
            "--settings-call: \(UntrustedText.quoted(text)) does not start with a function path like Didomi.preferences.show")
    }
    return PrivacySettingsCall(path, arguments: arguments, appendsCallback: callback)
}

/// Parses `--size WxH` (also `W×H`): whole pixels from 100 to 4000 each.
func parseSize(_ text: String) throws(UsageError) -> (width: Int, height: Int) {
    let parts = text.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
        (100...4000).contains(width), (100...4000).contains(height)
    else {
        throw UsageError(
            "--size takes WIDTHxHEIGHT in pixels, each from 100 to 4000 (e.g. 390x844), not \(UntrustedText.quoted(text))")
    }
    return (width, height)
}
