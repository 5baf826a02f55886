import Foundation
import Testing
import WebCMPBridge

/// `--click` clicks only what a person could click.
@Suite(.needsDisplay) struct HostClickEndToEndTests {
    typealias E2E = EndToEndTests
    static var page: String { E2E.servers.0 + "/\(E2E.pages)/hidden-buttons.html" }

    @Test(arguments: [
        ("faded", "opacity 0"), ("offscreen", "outside the viewport"), ("invisible", "visibility: hidden"),
        ("covered", "covers its centre"), ("inside-faded", "opacity 0 (an ancestor)"),
    ])
    func anElementAPersonCannotClickIsNotClicked(id: String, reason: String) throws {
        let run = try E2E.run([Self.page, "--dialect", "gravito", "--click", id, "--timeout", "10"])
        #expect(run.errorCodes == ["clickFailed"])
        let message = run.events("error").first?["message"]?.stringValue ?? ""
        #expect(message.contains("not clickable"), "\(message)")
        #expect(message.contains(reason), "\(message)")
        #expect(run.keys.isEmpty)
    }

    @Test func aVisibleElementOnTopIsClicked() throws {
        let run = try E2E.run([Self.page, "--dialect", "gravito", "--click", "visible", "--timeout", "10"])
        #expect(run.errorCodes == [])
        #expect(run.events("click").count == 1)
        #expect(run.keys["IABTCF_TCString"] != nil)
    }
}
