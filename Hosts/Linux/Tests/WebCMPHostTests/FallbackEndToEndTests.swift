import Foundation
import Testing
import WebCMPBridge

/// The offline path and pre-warming in real WebKit (WebKitGTK): a hosted URL that cannot be reached, or answers an
/// HTTP error, is replaced by the app's fallback page (SampleHost, served through the URI scheme handler under
/// `webcmp-fallback://app`); a pre-warmed page is presented without a new load.
@Suite(.serialized, .needsDisplay) struct FallbackEndToEndTests {
    static var fallback: String { EndToEndTests.repository.appendingPathComponent("SampleHost/index.html").path }

    /// A URL on a loopback port nothing listens on (bound by a short-lived process, then closed).
    static func unreachableURL() throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c",
                             "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let port = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return "http://127.0.0.1:\(port.trimmingCharacters(in: .whitespacesAndNewlines))/consent.html?dialect=gravito"
    }

    static func diagnostics(_ run: EndToEndTests.Run) -> [String] {
        run.events("diagnostic").compactMap { $0["message"]?.stringValue }
    }

    @Test func unreachableHostedPageWithAFallbackStoresTheFallbacksSave() async throws {
        let run = try await EndToEndTests.run([try Self.unreachableURL(), "--dialect", "gravito", "--fallback", Self.fallback,
                                         "--click", "accept-all", "--timeout", "15",
                                         "--eval", "location.origin", "--eval", "window.isSecureContext"])
        #expect(run.errorCodes == [])
        // The failure is reported, not lost: a diagnostic naming the network error and the fallback's origin.
        let diagnostic = try #require(Self.diagnostics(run).first)
        #expect(diagnostic.contains("failed to load"))
        #expect(diagnostic.contains("webcmp-fallback://app"))
        #expect(run.events("uiReady").first?["dialect"] == .string("gravito"))
        #expect(run.events("consentReady").count == 1)
        #expect(EndToEndTests.ids(run.keys["IABTCF_PurposeConsents"]) == Array(1...11))
        // WebKitGTK gives the scheme-served page a real origin (the scheme is registered secure and CORS-enabled).
        #expect(run.output["eval"]?.arrayValue == [.string("webcmp-fallback://app"), .bool(true)])
    }

    @Test func unreachableHostedPageWithoutAFallbackFailsAndKeepsConsent() async throws {
        let state = EndToEndTests.newState()
        let first = try await EndToEndTests.run([EndToEndTests.sample + "?dialect=gravito", "--dialect", "gravito",
                                           "--state", state, "--click", "reject-all"])
        #expect(first.events("consentReady").count == 1)
        let run = try await EndToEndTests.run([try Self.unreachableURL(), "--dialect", "gravito", "--state", state,
                                         "--timeout", "15"])
        #expect(run.errorCodes == ["loadFailed"])
        #expect(run.events("uiFinished").first?["reason"] == .string("failed"))
        #expect(Self.diagnostics(run).isEmpty)
        #expect(run.keys == first.keys)
    }

    @Test func hostedPageAnswering500ShowsTheFallback() async throws {
        let run = try await EndToEndTests.run([EndToEndTests.servers.0 + "/status/500", "--dialect", "gravito",
                                         "--fallback", Self.fallback, "--click", "reject-all", "--timeout", "15"])
        #expect(run.errorCodes == [])
        #expect(Self.diagnostics(run).first?.contains("500") == true)
        #expect(run.events("consentReady").count == 1)
        #expect(run.keys["IABTCF_PurposeConsents"] == .string(""))
    }

    @Test func schemeHandlerRefusesPathsTheAppDidNotRegister() async throws {
        let fetch = "fetch(%@).then(function (r) { return 'status ' + r.status; }, function () { return 'refused'; })"
        let run = try await EndToEndTests.run([
            try Self.unreachableURL(), "--dialect", "gravito", "--fallback", Self.fallback, "--timeout", "15",
            "--eval", String(format: fetch, "'/index.html'"),
            "--eval", String(format: fetch, "'/README.md'"),
            "--eval", String(format: fetch, "'/../../README.md'"),
            "--eval", String(format: fetch, "'webcmp-fallback://other/index.html'"),
        ])
        #expect(run.output["eval"]?.arrayValue == [
            .string("status 200"), .string("refused"), .string("refused"), .string("refused"),
        ])
    }

    @Test func checkReportsTheFallbackServedFromTheAppsScheme() async throws {
        let (status, output) = try await EndToEndTests.host(["check", "--fallback", Self.fallback, "--dialect", "gravito",
                                                       "--click", "accept-all", "--timeout", "15"])
        #expect(status == 0)
        #expect(output.contains("PASS  hosted failure reported, fallback shown"))
        #expect(output.contains("PASS  save stored with source fallbackPage"))
        #expect(output.contains("PASS  accepts the injected record"))
    }

    @Test func prewarmedPageIsPresentedWithoutANewLoad() async throws {
        let (status, stdout) = try await EndToEndTests.host(["prewarm", EndToEndTests.sample + "?dialect=gravito",
                                                       "--dialect", "gravito", "--click", "accept-all"])
        #expect(status == 0)
        let output = try EndToEndTests.json(stdout)
        #expect(output["readyBeforePresent"] == .bool(true))
        #expect(output["loadsBeforePresent"] == .number(1))
        #expect(output["loadsAfterPresent"] == .number(1))
        #expect(output["offScreenEvents"]?.arrayValue?.first?["type"] == .string("uiReady"))
        let events = output["events"]?.arrayValue ?? []
        #expect(events.contains { $0["type"] == .string("consentReady") })
        #expect(!events.contains { $0["type"] == .string("error") })
        #expect((output["presentToReadyMs"]?.numberValue ?? .infinity) < 1000)
    }
}
