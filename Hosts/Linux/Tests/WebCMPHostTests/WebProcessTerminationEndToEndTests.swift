import Foundation
import Testing
import WebCMPBridge

/// A terminated web content process, as iOS ends it for apps in the background, in real WebKit. (Load events are
/// reported as WebKitGTK gives them — cancelled and policy-interrupted loads included — and the core ignores those:
/// `LifecycleEndToEndTests.linksAwayLeaveTheCMPPageInPlaceAndItStillSaves` and the fallback suite run through them.)
@Suite(.serialized, .needsDisplay) struct WebProcessTerminationEndToEndTests {
    typealias E2E = EndToEndTests

    /// `webkit_web_view_terminate_web_process` once the page is ready: the bridge reloads it once, the user's save on
    /// the reloaded page is stored, and the run ends normally.
    @Test func aTerminatedWebProcessReloadsThePageOnceAndTheSaveIsStored() async throws {
        let run = try await E2E.run([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--terminate-web-process",
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
