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
    func anElementAPersonCannotClickIsNotClicked(id: String, reason: String) async throws {
        let run = try await E2E.run([Self.page, "--dialect", "gravito", "--click", id, "--timeout", "10"])
        #expect(run.errorCodes == ["clickFailed"])
        let message = run.events("error").first?["message"]?.stringValue ?? ""
        #expect(message.contains("not clickable"), "\(message)")
        #expect(message.contains(reason), "\(message)")
        #expect(run.keys.isEmpty)
    }

    /// A slow CMP is not a non-conforming one: a button that stays off-screen for 4 s (its animation's delay) and
    /// then slides in, longer than the 3 s grace, is clicked once its animation has finished.
    @Test func anElementThatAnimatesInSlowlyIsClickedOnceItsAnimationEnds() async throws {
        let run = try await E2E.run([Self.page, "--dialect", "gravito", "--click", "slow", "--timeout", "15"])
        #expect(run.errorCodes == [])
        #expect(run.events("click").count == 1)
        #expect(run.keys["IABTCF_TCString"] != nil)
    }

    /// A button made clickable by a timer after 6 s (no animation to wait for) outlasts the 3 s grace; `--slow-factor
    /// 3` scales the grace to 9 s and it is clicked.
    @Test(arguments: [nil, "3"] as [String?])
    func theSlowFactorScalesTheGrace(factor: String?) async throws {
        let run = try await E2E.run([Self.page, "--dialect", "gravito", "--click", "late", "--timeout", "15"]
                              + (factor.map { ["--slow-factor", $0] } ?? []))
        if factor == nil {
            #expect(run.errorCodes == ["clickFailed"])
            #expect(run.keys.isEmpty)
        } else {
            #expect(run.errorCodes == [])
            #expect(run.keys["IABTCF_TCString"] != nil)
        }
    }

    /// `--slow-factor` takes 1 to 20; `--sourcepoint-pm` a positive integer: anything else is a usage error.
    @Test(arguments: [["--slow-factor", "0.5"], ["--slow-factor", "21"], ["--slow-factor", "x"],
                      ["--sourcepoint-pm", "0"], ["--sourcepoint-usnat-pm", "abc"]])
    func outOfRangeWaitAndIDOptionsAreUsageErrors(option: [String]) async throws {
        let (status, _) = try await E2E.host(["run", Self.page] + option)
        #expect(status == 2, "\(option)")
    }

    @Test func aVisibleElementOnTopIsClicked() async throws {
        let run = try await E2E.run([Self.page, "--dialect", "gravito", "--click", "visible", "--timeout", "10"])
        #expect(run.errorCodes == [])
        #expect(run.events("click").count == 1)
        #expect(run.keys["IABTCF_TCString"] != nil)
    }
}
