import Foundation
import Testing
import WebCMPBridge

/// End-to-end tests: real pages, served from loopback HTTP servers the tests start, run in real WebKit (WebKitGTK)
/// through the real bridge by the `webcmp-host` executable, whose `--json` output (the tool's contract) is checked.
/// Run under a display: `xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" swift test --filter WebCMPHostTests` at the
/// root (scripts/test-e2e does it; `-noreset` because the tests start host processes in parallel). Without a display
/// every suite of this target is skipped with one line naming scripts/test-e2e (`.needsDisplay`), so that a plain
/// `swift test` passes on a headless machine; scripts/test runs the root suite with `--skip WebCMPHostTests`.
@Suite(.serialized, .needsDisplay) struct EndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let pages = "Hosts/Linux/Tests/WebCMPHostTests/Pages"

    /// Two servers on two ports: two origins, for the cross-origin iframe.
    static let servers: (String, String) = {
        (LoopbackServer.start(serving: repository), LoopbackServer.start(serving: repository))
    }()

    static var sample: String { servers.0 + "/SampleHost/index.html" }

    struct Run {
        var status: Int32
        var output: JSONValue
        var stdout: String

        var events: [JSONValue] { output["events"]?.arrayValue ?? [] }
        var keys: [String: JSONValue] { output["keys"]?.objectValue ?? [:] }
        func events(_ type: String) -> [JSONValue] { events.filter { $0["type"] == .string(type) } }
        var errorCodes: [String] { events("error").compactMap { $0["code"]?.stringValue } }
    }

    /// Runs `webcmp-host` with `arguments` and returns its exit status and standard output.
    ///
    /// The host is waited for on a thread of its own, not on one of Swift concurrency's cooperative threads, of which
    /// there are as many as cores: a test that blocked one while its host ran kept the other suites from starting
    /// theirs, so the suite ran about two hosts at a time on a 2-core machine, mostly waiting for pages
    /// (`scripts/test-e2e` took ~7 minutes with the CPU ~65 % idle). ``HostSlots`` bounds how many run at once.
    static func host(_ arguments: [String]) async throws -> (Int32, String) {
        await HostSlots.shared.acquire()
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<(Int32, String), any Error>, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: Result { try hostWaitingOnThisThread(arguments) })
            }
        }
        await HostSlots.shared.release()
        return try result.get()
    }

    /// ``host(_:)``'s blocking part: starts the host and waits for it on the calling thread.
    private static func hostWaitingOnThisThread(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        // The test bundle runs from the build products folder, where `swift build` put webcmp-host.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        process.executableURL = products.appendingPathComponent("webcmp-host")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func run(_ arguments: [String]) async throws -> Run {
        let (status, stdout) = try await host(["run"] + arguments + ["--json"])
        let output = try Self.json(stdout)
        return Run(status: status, output: output, stdout: stdout)
    }

    /// The host's JSON output (`--json`, or a subcommand's one JSON object), parsed with room for the largest one
    /// (a run's events and keys).
    static func json(_ stdout: String) throws -> JSONValue {
        try JSONValue(parsing: stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                      limits: JSONLimits(maximumBytes: 16 << 20, maximumDepth: 64))
    }

    static func newState() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("webcmp-e2e-\(UUID().uuidString)").path
    }

    static func ids(_ binary: JSONValue?) -> [Int] {
        guard let text = binary?.stringValue else { return [] }
        return text.enumerated().compactMap { $0.element == "1" ? $0.offset + 1 : nil }
    }

    @Test func firstRunAcceptAllThenSecondRunRestores() async throws {
        let state = Self.newState()
        let first = try await Self.run([Self.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state,
                                  "--click", "manage", "--click", "purpose-consent-1", "--click", "purpose-consent-4",
                                  "--click", "vendor-consent-755", "--click", "save"])
        #expect(first.status == 0)
        #expect(first.events("uiReady").first?["dialect"] == .string("gravito"))
        #expect(first.errorCodes == [])
        #expect(Self.ids(first.keys["IABTCF_PurposeConsents"]) == [1, 4])
        #expect(Self.ids(first.keys["IABTCF_VendorConsents"]) == [755])
        #expect(first.keys["IABTCF_gdprApplies"] == .number(1))
        #expect(first.keys["IABTCF_CmpSdkID"] == .number(300))
        let stored = try #require(first.keys["IABTCF_TCString"]?.stringValue)

        let second = try await Self.run([Self.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state, "--timeout", "4",
                                   "--eval", "Array.from(document.querySelectorAll('input:checked')).map(e => e.id).filter(id => !id.includes('-li-'))",
                                   "--eval", "document.getElementById('log').textContent"])
        #expect(second.errorCodes == [])
        #expect(second.keys["IABTCF_TCString"] == .string(stored))
        let checked = second.output["eval"]?.arrayValue?.first?.arrayValue ?? []
        #expect(Set(checked.compactMap { $0.stringValue }) == ["purpose-consent-1", "purpose-consent-4", "vendor-consent-755"])
        #expect(second.output["eval"]?.arrayValue?.last?.stringValue?.contains("with a stored TC string") == true)
    }

    @Test func rejectAllAndCloseWithoutSaving() async throws {
        let reject = try await Self.run([Self.sample + "?dialect=gravito", "--dialect", "gravito", "--click", "reject-all"])
        #expect(reject.events("userAction").first?["isRejectAll"] == .bool(true))
        #expect(reject.keys["IABTCF_PurposeConsents"] == .string(""))
        #expect(reject.keys["IABTCF_VendorConsents"] == .string(""))

        let close = try await Self.run([Self.sample + "?dialect=gravito", "--dialect", "gravito", "--click", "manage", "--click", "close"])
        #expect(close.events("uiFinished").first?["reason"] == .string("closed"))
        #expect(close.events("consentReady").isEmpty)
        #expect(close.keys.isEmpty)
    }

    @Test func legacyGravitoAndOnesecondbeforeAndGenericTCF() async throws {
        let legacy = try await Self.run([Self.sample + "?dialect=gravito-legacy", "--dialect", "gravito", "--click", "accept-all"])
        #expect(Self.ids(legacy.keys["IABTCF_PurposeConsents"]) == Array(1...11))

        let osb = try await Self.run([Self.sample + "?dialect=osb", "--dialect", "onesecondbefore", "--click", "manage",
                                "--click", "purpose-consent-8", "--click", "save"])
        #expect(osb.errorCodes == [])
        #expect(osb.events("uiReady").first?["dialect"] == .string("onesecondbefore"))
        #expect(Self.ids(osb.keys["IABTCF_PurposeConsents"]) == [8])

        let tcf = try await Self.run([Self.sample + "?dialect=tcf", "--dialect", "tcf", "--click", "accept-all"])
        #expect(tcf.errorCodes == [])
        #expect(tcf.events("uiReady").first?["dialect"] == .string("tcf"))
        #expect(tcf.events("uiFinished").first?["reason"] == .string("consentSaved"))
        #expect(Self.ids(tcf.keys["IABTCF_SpecialFeaturesOptIns"]) == [1, 2])

        let automatic = try await Self.run([Self.sample + "?dialect=gravito", "--click", "accept-all"])
        #expect(automatic.events("uiReady").first?["dialect"] == .string("gravito"))
        #expect(automatic.errorCodes == [])
        #expect(automatic.events("consentReady").count == 1)
    }

    @Test func neverReadyPageTimesOutAndKeepsStoredConsent() async throws {
        let state = Self.newState()
        let accepted = try await Self.run([Self.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state, "--click", "accept-all"])
        let before = accepted.keys
        #expect(!before.isEmpty)
        let stuck = try await Self.run([Self.servers.0 + "/\(Self.pages)/never-ready.html", "--dialect", "gravito",
                                  "--state", state, "--timeout", "2"])
        #expect(stuck.errorCodes == ["timeout"])
        #expect(stuck.events("uiFinished").first?["reason"] == .string("timedOut"))
        #expect(stuck.keys == before)
    }

    @Test func hostilePageChangesNothing() async throws {
        let state = Self.newState()
        let accepted = try await Self.run([Self.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state, "--click", "reject-all"])
        let hostile = try await Self.run([Self.servers.0 + "/\(Self.pages)/hostile.html", "--dialect", "gravito", "--state", state])
        #expect(hostile.status == 0)
        #expect(hostile.errorCodes == ["invalidMessage", "invalidMessage", "invalidMessage", "invalidMessage",
                                       "invalidConsent", "invalidMessage", "invalidMessage", "invalidConsent"])
        #expect(hostile.events("error").compactMap { $0["consentCode"]?.stringValue } == ["invalidTCString", "invalidAdditionalConsent"])
        #expect(hostile.events("error").allSatisfy { $0["endsUI"] == .bool(false) }, "the UI went on after each")
        #expect(hostile.events("consentReady").isEmpty)
        #expect(hostile.events("uiFinished").first?["reason"] == .string("closed"))
        #expect(hostile.keys == accepted.keys)
    }

    @Test func crossOriginIframeCannotForgeASave() async throws {
        let frame = Self.servers.1 + "/\(Self.pages)/forge.html"
        let page = Self.servers.0 + "/\(Self.pages)/iframe-forgery.html?frame=" + frame.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let run = try await Self.run([page, "--dialect", "gravito", "--eval", "window.__forgeryReport"])
        #expect(run.events("consentReady").isEmpty)
        #expect(run.keys.isEmpty)
        #expect(run.events("uiFinished").first?["reason"] == .string("closed"))
        // The frame really tried, and every path was closed to it.
        let reported = run.output["eval"]?.arrayValue?.first?["attempts"]?.arrayValue ?? []
        let attempts = reported.compactMap { $0.stringValue }
        #expect(attempts.count == 3)
        #expect(!attempts.contains { $0.hasSuffix("posted") || $0.hasSuffix("reached") })
    }

    @Test func consentIsSharedIntoAContentPage() async throws {
        let state = Self.newState()
        let accepted = try await Self.run([Self.sample + "?dialect=gravito", "--dialect", "gravito", "--state", state, "--click", "accept-all"])
        let stored = try #require(accepted.keys["IABTCF_TCString"]?.stringValue)
        let (status, stdout) = try await Self.host(["share", Self.servers.0 + "/\(Self.pages)/content.html?article=1#top", "--state", state, "--json"])
        #expect(status == 0)
        let output = try Self.json(stdout)
        // The URL is loaded as given (no _sp_pass_consent: that asks for Sourcepoint's message, which we do not send).
        #expect(output["url"]?.stringValue?.hasSuffix("content.html?article=1#top") == true)
        #expect(output["tcData"]?["tcString"] == .string(stored))
        #expect(output["tcData"]?["ok"] == .bool(true))
        #expect(output["nativeBacked"]?["tcfapi"] == .bool(true))
        #expect(output["pageResult"]?["tcString"] == .string(stored))
        #expect(output["pageResult"]?["purpose1"] == .bool(true))
        #expect(output["pageSaw"]?["gdpr"]?["euconsent"] == .string(stored))
    }

    @Test func escapingSurvivesJavaScriptCore() async throws {
        let (status, stdout) = try await Self.host(["selftest-escaping", "--count", "300"])
        #expect(status == 0)
        #expect(stdout.contains("300 passed, 0 failed"))
    }

    @Test func conformanceCheck() async throws {
        let (good, report) = try await Self.host(["check", Self.sample + "?dialect=gravito", "--dialect", "gravito", "--click", "accept-all",
                                            "--timeout", "5"])
        #expect(good == 0, "\(report)")
        #expect(report.contains("Result: conforms"))
        #expect(report.contains("PASS  accepts the injected record"))
        let (bad, badReport) = try await Self.host(["check", Self.servers.0 + "/\(Self.pages)/never-ready.html", "--dialect", "gravito", "--timeout", "2"])
        #expect(bad == 1)
        #expect(badReport.contains("FAIL  ready message"))
        let (usage, _) = try await Self.host(["check"])
        #expect(usage == 2)
        let (unknown, _) = try await Self.host(["run", "https://x.example", "--dialect", "nope"])
        #expect(unknown == 2)
    }
}

/// A loopback HTTP server (`Support/loopback_server.py`, standard-library Python) for the duration of the test process.
///
/// How many `webcmp-host` processes the suites run at once: `WEBCMP_E2E_HOSTS`, else twice the cores (at least 2).
/// The suites run side by side (each suite's tests one after the other); a host mostly waits for its page, so a
/// 2-core machine runs four without its pages' timers running late.
actor HostSlots {
    static let shared = HostSlots(
        limit: ProcessInfo.processInfo.environment["WEBCMP_E2E_HOSTS"].flatMap(Int.init)
            ?? max(2, 2 * ProcessInfo.processInfo.activeProcessorCount))

    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { available = max(1, limit) }

    /// Waits for a free slot and takes it.
    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back: to the longest waiter, if any.
    func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// The server exits when its standard input reaches end-of-file. The write end of that pipe lives only in this
/// process, so the server ends with the test process however it ends: a test run leaves no server behind.
enum LoopbackServer {
    /// The servers' stdin pipes, kept open for the life of the test process.
    nonisolated(unsafe) private static var lifelines: [Pipe] = []
    private static let lock = NSLock()

    static func start(serving directory: URL) -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Support/loopback_server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", script.path, directory.path]
        let output = Pipe()
        let lifeline = Pipe()
        process.standardOutput = output
        process.standardInput = lifeline
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return "http://127.0.0.1:1" }
        lock.withLock { lifelines.append(lifeline) }
        // First line: "port 41231".
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let port = text.split(whereSeparator: \.isWhitespace).drop { $0 != "port" }.dropFirst().first.map(String.init) ?? "1"
        return "http://127.0.0.1:\(port)"
    }
}
