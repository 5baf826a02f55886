import Foundation
import Testing
import WebCMPBridge

/// Issue 32, item 2, in real WebKit (`webcmp-host run --app-context`): the CMP page's first script already sees the
/// app's context as `window.webcmpAppContext` (frozen, not replaceable) and as query items, with a language holding
/// quotes and `</script>` unchanged; without the flag the page sees nothing.
@Suite(.serialized, .needsDisplay) struct AppContextEndToEndTests {
    typealias E2E = EndToEndTests
    static var page: String { E2E.servers.0 + "/\(E2E.pages)/app-context.html" }
    /// What `--app-context` sends (`HostSession.testAppContext`).
    static let sent = AppContext(
        platform: .other, osVersion: "6.3", language: "de-CH\"</script>'", trackingStatus: .denied,
        trackingStatusBeforeLastRequest: .notDetermined, colorScheme: .dark, dynamicTypeSize: .accessibility2,
        reduceMotion: true)

    @Test func theFirstPageScriptSeesTheFrozenContextAndTheQueryItems() throws {
        let run = try E2E.run([
            Self.page, "--dialect", "tcf", "--app-context", "--timeout", "3", "--eval", "window.__sawContext",
        ])
        let saw = try #require(run.output["eval"]?.arrayValue?.first?.objectValue)
        #expect(saw["defined"] == .bool(true))
        #expect(saw["frozen"] == .bool(true))
        #expect(saw["afterWrites"] == .string("denied"))
        #expect(saw["value"] == Self.sent.javaScriptValue)
        let search = try #require(saw["search"]?.stringValue)
        let items = URLComponents(string: "https://x.example/" + search)?.queryItems ?? []
        #expect(items == Self.sent.queryItems)
    }

    @Test func withoutAContextThePageSeesNone() throws {
        let run = try E2E.run([Self.page, "--dialect", "tcf", "--timeout", "3", "--eval", "window.__sawContext"])
        let saw = try #require(run.output["eval"]?.arrayValue?.first?.objectValue)
        #expect(saw["defined"] == .bool(false))
        #expect(saw["search"] == .string(""))
    }
}
