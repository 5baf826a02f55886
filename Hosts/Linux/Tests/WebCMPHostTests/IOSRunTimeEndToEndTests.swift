import Foundation
import Testing
import WebCMPBridge

/// The iOS run-time behaviours that WebKitGTK can show (issue 20): a terminated web content process. (Load events are
/// reported as WebKitGTK gives them — cancelled and policy-interrupted loads included — and the core ignores those:
/// `LifecycleEndToEndTests.linksAwayLeaveTheCMPPageInPlaceAndItStillSaves` and the fallback suite run through them.)
@Suite(.serialized, .needsDisplay) struct IOSRunTimeEndToEndTests {
    typealias E2E = EndToEndTests

    /// `webkit_web_view_terminate_web_process` once the page is ready: the bridge reloads it once, the user's save on
    /// the reloaded page is stored, and the run ends normally.
    @Test func aTerminatedWebProcessReloadsThePageOnceAndTheSaveIsStored() throws {
        let run = try E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--terminate-web-process",
                               "--click", "accept-all"])
        #expect(run.errorCodes == [])
        let terminated = try #require(run.events.firstIndex { $0["type"] == .string("terminateWebProcess") })
        let reloading = try #require(run.events.firstIndex {
            $0["type"] == .string("diagnostic") && $0["message"]?.stringValue?.contains("terminated") == true
        })
        #expect(terminated < reloading)
        #expect(run.keys["IABTCF_TCString"] != nil)
    }
}

/// Issue 22, item 5: `--click` clicks only what a person could click.
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
