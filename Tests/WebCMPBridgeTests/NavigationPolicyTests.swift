import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
@Suite struct NavigationPolicyTests {
    /// The CMP at https://cmp.example.com/app/index.html, loaded: what the user can click on.
    let bridge: ConsentBridge = {
        let harness = BridgeHarness()
        harness.webView.finishLoading()
        return harness.bridge
    }()

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
        #expect(decide(nil, mainFrame: false, newWindow: true) == .cancel)  // found by the bridge fuzz target
    }

    @Test func blockingKeepsThePage() {
        let harness = BridgeHarness { $0.externalLinks = .block }
        harness.webView.finishLoading()
        let blocking = harness.bridge
        #expect(blocking.decidePolicy(for: NavigationRequest(
            url: URL(string: "https://publisher.example/privacy"), isMainFrame: true)) == .cancel)
    }

    @Test func attachInstallsThePolicyAndInvalidateRemovesIt() {
        let harness = BridgeHarness()
        harness.webView.finishLoading()
        let request = NavigationRequest(url: URL(string: "https://elsewhere.example/"), isMainFrame: true)
        #expect(harness.webView.navigationPolicy?(request) == .openExternally(URL(string: "https://elsewhere.example/")!))
        harness.bridge.invalidate()
        #expect(harness.webView.navigationPolicy == nil)
    }

    /// Before the page has answered, the load going to another origin (an HTTP redirect of the CMP URL) fails the run
    /// with the origin named; nothing opens in the browser.
    @Test func aRedirectOfTheLoadFailsTheRunInsteadOfOpeningTheBrowser() {
        let harness = BridgeHarness()
        let redirect = NavigationRequest(url: URL(string: "https://consent.elsewhere.example/cmp?x=1"), isMainFrame: true)
        #expect(harness.bridge.decidePolicy(for: redirect) == .cancel)
        let errors = harness.events.compactMap { event -> ConsentBridgeError? in
            if case .failed(let error) = event { return error }
            return nil
        }
        #expect(errors.map(\.code) == [.loadFailed])
        #expect(errors.first.map(String.init(describing:))?.contains("https://consent.elsewhere.example") == true)
        #expect(harness.events.filter(\.endsPresentation) == [.uiFinished(.failed)])
        // http → https of the same host is another origin too.
        let upgraded = BridgeHarness { $0.cmpURL = URL(string: "http://cmp.example.com/app/index.html")! }
        #expect(upgraded.bridge.decidePolicy(for: NavigationRequest(
            url: URL(string: "https://cmp.example.com/app/index.html"), isMainFrame: true)) == .cancel)
        #expect(upgraded.events.contains(.uiFinished(.failed)))
    }

    /// What counts as the page having answered: its own document's response (not the redirect target's, which
    /// WebKitGTK reports before asking), a finished load, or a message. New windows and sub-frames are never a
    /// redirect of the load.
    @Test func theFirstAnswerTurnsRedirectsIntoLinks() {
        let away = URL(string: "https://publisher.example/privacy")!
        let target = BridgeHarness()
        target.webView.eventHandler?(.didReceiveResponse(away, statusCode: 200))
        #expect(target.bridge.decidePolicy(for: NavigationRequest(url: away, isMainFrame: true)) == .cancel)

        let answered = BridgeHarness()
        answered.webView.eventHandler?(.didReceiveResponse(
            URL(string: "https://cmp.example.com/app/index.html"), statusCode: 200))
        #expect(answered.bridge.decidePolicy(for: NavigationRequest(url: away, isMainFrame: true)) == .openExternally(away))

        let messaged = BridgeHarness()
        messaged.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(messaged.bridge.decidePolicy(for: NavigationRequest(url: away, isMainFrame: true)) == .openExternally(away))

        let loading = BridgeHarness()
        #expect(loading.bridge.decidePolicy(for: NavigationRequest(url: away, isMainFrame: true, opensNewWindow: true))
            == .openExternally(away))
        #expect(loading.bridge.decidePolicy(for: NavigationRequest(url: away, isMainFrame: false)) == .allow)
        #expect(loading.events.isEmpty || !loading.events.contains(.uiFinished(.failed)))
    }

    /// With a fallback page, a redirected hosted page is a load failure like any other: the fallback is shown.
    @Test func aRedirectOfTheLoadShowsTheFallback() throws {
        let harness = BridgeHarness {
            $0.fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("x".utf8))])
        }
        #expect(harness.bridge.decidePolicy(for: NavigationRequest(
            url: URL(string: "https://cdn.elsewhere.example/cmp"), isMainFrame: true)) == .cancel)
        #expect(harness.webView.loadedURLs.last?.scheme == "webcmp-fallback")
        #expect(!harness.events.contains(.uiFinished(.failed)))
        // The fallback's own load answers; its links then open outside.
        harness.webView.finishLoading()
        let link = URL(string: "https://publisher.example/privacy")!
        #expect(harness.bridge.decidePolicy(for: NavigationRequest(url: link, isMainFrame: true)) == .openExternally(link))
    }

    /// WebKitGTK reports the response of a link's document before asking the policy: an error status there is the
    /// other site's, not a failure of the CMP page, which stays.
    @Test func anErrorResponseFromALinkTargetIsNotTheCMPPagesFailure() {
        let harness = BridgeHarness()
        harness.webView.finishLoading()
        let away = URL(string: "https://publisher.example/missing")!
        harness.webView.eventHandler?(.didReceiveResponse(away, statusCode: 404))
        #expect(harness.bridge.decidePolicy(for: NavigationRequest(url: away, isMainFrame: true)) == .openExternally(away))
        #expect(harness.errorCodes.isEmpty)
        harness.webView.eventHandler?(.didReceiveResponse(URL(string: "https://cmp.example.com/app/index.html"), statusCode: 503))
        #expect(harness.errorCodes == ["loadFailed"])
    }

    @Test func windowOpenAndBlankTargetsGoThroughTheNavigationPolicy() {
        let harness = BridgeHarness()
        harness.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        let vendor = URL(string: "https://vendor.example.org/privacy")!
        #expect(harness.webView.openNewWindowDecision(vendor) == .openExternally(vendor))
        #expect(harness.webView.openNewWindowDecision(URL(string: "javascript:alert(1)")!) == .cancel)
        #expect(harness.webView.openNewWindowDecision(nil) == .cancel)
        #expect(harness.webView.openedExternally == [vendor])
        #expect(harness.webView.loadedURLs.count == 1)   // nothing loads in the consent view
        #expect(harness.bridge.state == .ready)
        let blocked = BridgeHarness { $0.externalLinks = .block }
        #expect(blocked.webView.openNewWindowDecision(vendor) == .cancel)
    }
}
