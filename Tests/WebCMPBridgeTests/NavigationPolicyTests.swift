import Foundation
import Testing
@testable import WebCMPBridge

@MainActor
@Suite struct NavigationPolicyTests {
    let bridge = BridgeHarness().bridge  // CMP at https://cmp.example.com/app/index.html

    func decide(_ url: String?, mainFrame: Bool = true, newWindow: Bool = false) -> NavigationDecision {
        bridge.decidePolicy(for: NavigationRequest(
            url: url.flatMap(URL.init(string:)), isMainFrame: mainFrame, opensNewWindow: newWindow))
    }

    @Test func theCMPPageStays() {
        #expect(decide("https://cmp.example.com/app/index.html?lang=de") == .allow)
        #expect(decide("https://cmp.example.com/app/second-layer.html") == .allow)
        #expect(decide("https://CMP.example.com:443/x") == .allow)
        #expect(decide("about:blank") == .allow)
        #expect(decide("about:srcdoc", mainFrame: false) == .allow)
    }

    @Test func subFramesLoadWhateverTheyLoad() {
        #expect(decide("https://vendorlist.example/list", mainFrame: false) == .allow)
        #expect(decide(nil, mainFrame: false) == .allow)
    }

    @Test func linksAwayOpenOutsideTheConsentUI() {
        let policy = URL(string: "https://publisher.example/privacy")!
        #expect(decide(policy.absoluteString) == .openExternally(policy))
        #expect(decide("https://cmp.example.com/app/vendor.html", newWindow: true)
            == .openExternally(URL(string: "https://cmp.example.com/app/vendor.html")!))
        #expect(decide("http://cmp.example.com/app/index.html") == .openExternally(URL(string: "http://cmp.example.com/app/index.html")!))
        #expect(decide("mailto:dpo@publisher.example") == .openExternally(URL(string: "mailto:dpo@publisher.example")!))
    }

    @Test func schemesThatCannotLeaveAreCancelled() {
        #expect(decide("javascript:alert(1)") == .cancel)
        #expect(decide("file:///etc/passwd") == .cancel)
        #expect(decide("myapp://settings") == .cancel)
        #expect(decide("about:blank", newWindow: true) == .cancel)
        #expect(decide(nil) == .cancel)
    }

    @Test func blockingKeepsThePage() {
        let blocking = BridgeHarness { $0.externalLinks = .block }.bridge
        #expect(blocking.decidePolicy(for: NavigationRequest(
            url: URL(string: "https://publisher.example/privacy"), isMainFrame: true)) == .cancel)
    }

    @Test func attachInstallsThePolicyAndInvalidateRemovesIt() {
        let harness = BridgeHarness()
        let request = NavigationRequest(url: URL(string: "https://elsewhere.example/"), isMainFrame: true)
        #expect(harness.webView.navigationPolicy?(request) == .openExternally(URL(string: "https://elsewhere.example/")!))
        harness.bridge.invalidate()
        #expect(harness.webView.navigationPolicy == nil)
    }
}
