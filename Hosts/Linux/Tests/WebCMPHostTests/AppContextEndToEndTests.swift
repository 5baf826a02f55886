import Foundation
import Testing
import WebCMPBridge

/// The app's context in real WebKit (`webcmp-host run --app-context`): the CMP page's first script already sees the
/// app's context as `window.webcmpAppContext` (frozen, not replaceable), with a language holding quotes and
/// `</script>` unchanged, and none of it in the URL the server receives (no field is opted in to the URL); without the
/// flag the page sees nothing. The page never becomes ready: the run lasts its whole `--timeout`, then the page's
/// record is read, so the timeout is the time the page has to load (10 s: 3 s was too short once, on a clean-clone
/// run at load 13, where the first script had not run yet).
@Suite(.serialized, .needsDisplay) struct AppContextEndToEndTests {
    typealias E2E = EndToEndTests
    static var page: String { E2E.servers.0 + "/\(E2E.pages)/app-context.html" }
    /// What `--app-context` sends (`HostSession.testAppContext`).
    static let sent = AppContext(
        platform: .other, osVersion: "6.3", language: "de-CH\"</script>'", trackingStatus: .denied,
        trackingStatusBeforeLastRequest: .notDetermined, colorScheme: .dark, dynamicTypeSize: .accessibility2,
        reduceMotion: true)

    @Test func theFirstPageScriptSeesTheFrozenContextAndTheURLCarriesNone() async throws {
        let run = try await E2E.run([
            Self.page, "--dialect", "tcf", "--app-context", "--timeout", "10", "--eval", "window.__sawContext",
        ])
        let saw = try #require(run.output["eval"]?.arrayValue?.first?.objectValue)
        #expect(saw["defined"] == .bool(true))
        #expect(saw["frozen"] == .bool(true))
        #expect(saw["afterWrites"] == .string("denied"))
        #expect(saw["value"] == Self.sent.javaScriptValue)
        // Device details stay in the device by default: the URL (and the CMP host's server logs) carries none.
        #expect(Self.sent.fieldsInURL.isEmpty)
        #expect(saw["search"] == .string(""))
    }

    @Test func withoutAContextThePageSeesNone() async throws {
        let run = try await E2E.run([Self.page, "--dialect", "tcf", "--timeout", "10", "--eval", "window.__sawContext"])
        let saw = try #require(run.output["eval"]?.arrayValue?.first?.objectValue)
        #expect(saw["defined"] == .bool(false))
        #expect(saw["search"] == .string(""))
    }
}
