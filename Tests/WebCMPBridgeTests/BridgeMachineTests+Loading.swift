import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Load events (`BridgeMachine+Loading.swift`) and navigation decisions (`BridgeMachine+Navigation.swift`): events of
/// replaced loads, the kinds of load failure, HTTP error statuses, a terminated web content process, and redirects
/// before the page answered.
extension BridgeMachineTests {
    /// The load failure of load 1 ("offline", no URL), as ``ConsentBridgeError/loadFailed(_:)``.
    static let offline = ConsentBridgeError.loadFailed(WebViewLoadError(url: nil, reason: "offline"))
    /// A real failure of load 1.
    static var offlineInput: Input { .failed(WebViewLoadFailure.urlErrorDomain, -1009, load: 1) }
    /// The end of a run that fails while its ready timer runs.
    static func failedWhileLoading(_ error: ConsentBridgeError) -> [Effect] {
        [.failed(error), .cancel(.ready), .finished(.failed), .detach]
    }

    // MARK: Load events

    @Test(arguments: [
        Transition(
            "a finished load is not ready for a dialect with a ready message",
            configure: gravitoDialect, started + [.finished(load: 1)], effects: [], state: .loading),
        Transition(
            "nor in automatic detection",
            started + [.finished(load: 1)], effects: [], state: .loading),
        Transition(
            "Onesecondbefore: the finished load is ready",
            configure: osbDialect, started + [.finished(load: 1)],
            effects: [.cancel(.ready), .uiReady(.onesecondbefore)], state: .ready),
        Transition(
            "Onesecondbefore: a replaced load's finish is ignored",
            configure: osbDialect,
            started + [.webView(.contentProcessDidTerminate), .finished(load: 1)], effects: [], state: .loading),
        Transition(
            "Onesecondbefore: a page-initiated navigation's finish counts",
            configure: osbDialect, started + [.finished(load: nil)],
            effects: [.cancel(.ready), .uiReady(.onesecondbefore)], state: .ready),
        Transition(
            "events before the start are ignored",
            configure: gravitoDialect, [.attached(setupFailure: nil), offlineInput, .webView(.contentProcessDidTerminate)],
            effects: [], state: .idle),
    ])
    func loadEvents(_ row: Transition) {
        row.check()
    }

    @Test(arguments: [
        Transition(
            "a failure of the current load ends the run", configure: gravitoDialect,
            started + [offlineInput], effects: failedWhileLoading(offline), state: .invalidated),
        Transition(
            "so does one of a navigation the page started", configure: gravitoDialect,
            started + [.failed(WebViewLoadFailure.urlErrorDomain, -1009, load: nil)],
            effects: failedWhileLoading(offline), state: .invalidated),
        Transition(
            "a cancelled load (NSURLErrorCancelled) is no failure", configure: gravitoDialect,
            started + [.failed(WebViewLoadFailure.urlErrorDomain, -999, load: 1)], effects: [], state: .loading),
        Transition(
            "nor is WebKitGTK's cancellation", configure: gravitoDialect,
            started + [.failed(WebViewLoadFailure.webKitGTKNetworkErrorDomain, 302, load: 1)], effects: [], state: .loading),
        Transition(
            "a load the navigation policy interrupted is no failure", configure: gravitoDialect,
            started + [.failed(WebViewLoadFailure.webKitErrorDomain, 102, load: 1)], effects: [], state: .loading),
        Transition(
            "nor on WebKitGTK", configure: gravitoDialect,
            started + [.failed(WebViewLoadFailure.webKitGTKPolicyErrorDomain, 102, load: 1)], effects: [], state: .loading),
        Transition(
            "a replaced load's failure is ignored", configure: gravitoDialect,
            started + [.webView(.contentProcessDidTerminate), offlineInput], effects: [], state: .loading),
        Transition(
            "with a fallback page, a failure loads it", configure: gravitoWithFallback,
            started + [offlineInput],
            effects: [
                .diagnostic("the CMP page failed to load: offline; showing the app's fallback page (webcmp-fallback://app)"),
                .cancel(.ready), .readyTimer, .loadFallback(2),
            ],
            state: .loading),
        Transition(
            "the hosted page's late failure after the fallback replaced it is ignored", configure: gravitoWithFallback,
            started + [offlineInput, offlineInput], effects: [], state: .loading),
        Transition(
            "the fallback page's own failure ends the run", configure: gravitoWithFallback,
            started + [offlineInput, .failed(WebViewLoadFailure.urlErrorDomain, -1009, load: 2)],
            effects: failedWhileLoading(offline), state: .invalidated),
        Transition(
            "a failure after the page was ready ends the run, without the fallback", configure: gravitoWithFallback,
            started + [.gravito(#"{"type":"CMP-loaded"}"#), offlineInput],
            effects: [.failed(offline), .finished(.failed), .detach], state: .invalidated),
    ])
    func loadFailures(_ row: Transition) {
        row.check()
    }

    /// The error for an HTTP `status` of the CMP page (`url`).
    static func httpError(_ status: Int, url: String? = "https://cmp.example.com/app.html") -> ConsentBridgeError {
        .loadFailed(WebViewLoadError(
            url: url.flatMap(URL.init(string:)), statusCode: status, reason: "the server answered an error"))
    }

    @Test(arguments: [
        Transition(
            "HTTP 400 for the page's own document ends the run", configure: gravitoDialect,
            started + [.response("https://cmp.example.com/app.html", status: 400, load: 1)],
            effects: failedWhileLoading(httpError(400)), state: .invalidated),
        Transition(
            "so does one without a URL", configure: gravitoDialect,
            started + [.response(nil, status: 503, load: 1)],
            effects: failedWhileLoading(httpError(503, url: nil)), state: .invalidated),
        Transition(
            "HTTP 399 is not an error", configure: gravitoDialect,
            started + [.response("https://cmp.example.com/app.html", status: 399, load: 1)], effects: [], state: .loading),
        Transition(
            "another origin's document (a link about to open outside) is not the page's", configure: gravitoDialect,
            started + [.response("https://elsewhere.example/x", status: 500, load: nil)], effects: [], state: .loading),
        Transition(
            "a replaced load's error status is ignored", configure: gravitoDialect,
            started + [.webView(.contentProcessDidTerminate), .response("https://cmp.example.com/app.html", status: 500, load: 1)],
            effects: [], state: .loading),
        Transition(
            "with a fallback page, an error status loads it", configure: gravitoWithFallback,
            started + [.response("https://cmp.example.com/app.html", status: 404, load: 1)],
            effects: [
                .diagnostic(
                    "the CMP page failed to load: HTTP status 404 (the server answered an error); showing the app's "
                        + "fallback page (webcmp-fallback://app)"),
                .cancel(.ready), .readyTimer, .loadFallback(2),
            ],
            state: .loading),
    ])
    func httpStatus(_ row: Transition) {
        row.check()
    }

    /// The diagnostic of the first termination.
    static let reloading = Effect.diagnostic("the web content process terminated; reloading the CMP page once")

    @Test(arguments: [
        Transition(
            "a terminated web content process reloads the page as a new load", configure: gravitoDialect,
            started + [.webView(.contentProcessDidTerminate)],
            effects: [reloading, .cancel(.ready), .readyTimer, .loadPage(2)], state: .loading),
        Transition(
            "after the page was ready too: loading again, with a new timeout", configure: gravitoDialect,
            started + [.gravito(#"{"type":"CMP-loaded"}"#), .webView(.contentProcessDidTerminate)],
            effects: [reloading, .readyTimer, .loadPage(2)], state: .loading),
        Transition(
            "the second time in a run ends it", configure: gravitoDialect,
            started + [.webView(.contentProcessDidTerminate), .webView(.contentProcessDidTerminate)],
            effects: failedWhileLoading(.webContentTerminated), state: .invalidated),
        Transition(
            "a crash is no reason for the fallback page", configure: gravitoWithFallback,
            started + [.webView(.contentProcessDidTerminate), .webView(.contentProcessDidTerminate)],
            effects: failedWhileLoading(.webContentTerminated), state: .invalidated),
        Transition(
            "the fallback page is what is reloaded once it shows", configure: gravitoWithFallback,
            started + [offlineInput, .webView(.contentProcessDidTerminate)],
            effects: [reloading, .cancel(.ready), .readyTimer, .loadFallback(3)], state: .loading),
        Transition(
            "before anything was loaded (tracking first) there is nothing to reload",
            configure: { $0.tracking = .beforeCMP }, started + [.webView(.contentProcessDidTerminate)],
            effects: [.failed(.webContentTerminated), .finished(.failed), .detach], state: .invalidated),
    ])
    func contentProcessTermination(_ row: Transition) {
        row.check()
    }

    // MARK: Navigation decisions

    /// Where redirects and links go in the rows.
    static let elsewhere = URL(string: "https://elsewhere.example/landing")!
    /// The error of a redirect to ``elsewhere`` before the page answered.
    static let redirected = redirectedTo(elsewhere.absoluteString, origin: "https://elsewhere.example")
    /// Gravito configured, external links blocked.
    static let gravitoBlockingLinks: Configure = {
        $0.dialect = .gravito
        $0.externalLinks = .block
    }

    /// The error of a redirect to `url` (of origin `origin`) before the page answered.
    static func redirectedTo(_ url: String, origin: String) -> ConsentBridgeError {
        .loadFailed(WebViewLoadError(
            url: URL(string: url),
            reason: "the page was redirected to \"\(origin)\" before it loaded, which is not an allowed "
                + "origin (BridgeConfiguration.allowedOrigins)"))
    }

    @Test(arguments: [
        NavigationRow(
            "a redirect away before the page answered: cancelled, and the run fails", configure: gravitoDialect,
            started, .to(elsewhere.absoluteString), decision: .cancel, redirectOf: 1,
            effects: failedWhileLoading(redirected), state: .invalidated),
        NavigationRow(
            "with a fallback page, it loads instead", configure: gravitoWithFallback,
            started, .to(elsewhere.absoluteString), decision: .cancel, redirectOf: 1,
            effects: [
                .diagnostic(
                    "the CMP page failed to load: the page was redirected to \"https://elsewhere.example\" before it "
                        + "loaded, which is not an allowed origin (BridgeConfiguration.allowedOrigins); showing the app's "
                        + "fallback page (webcmp-fallback://app)"),
                .cancel(.ready), .readyTimer, .loadFallback(2),
            ],
            state: .loading),
        NavigationRow(
            "the fallback page redirected before it answered: the run fails, no second fallback",
            configure: gravitoWithFallback,
            started + [offlineInput], .to(elsewhere.absoluteString), decision: .cancel, redirectOf: 2,
            effects: failedWhileLoading(redirected), state: .invalidated),
        NavigationRow(
            "an https page redirected to http is redirected away too", configure: gravitoDialect,
            started, .to("http://cmp.example.com/app.html"), decision: .cancel, redirectOf: 1,
            effects: failedWhileLoading(redirectedTo("http://cmp.example.com/app.html", origin: "http://cmp.example.com")),
            state: .invalidated),
        NavigationRow(
            "blocked external links: a redirect before the page answered still fails",
            configure: gravitoBlockingLinks,
            started, .to(elsewhere.absoluteString), decision: .cancel, redirectOf: 1,
            effects: failedWhileLoading(redirected), state: .invalidated),
        NavigationRow(
            "another origin's document does not count as the page answering", configure: gravitoDialect,
            started + [.response("https://elsewhere.example/landing", status: 200, load: 1)], .to(elsewhere.absoluteString),
            decision: .cancel, redirectOf: 1, effects: failedWhileLoading(redirected), state: .invalidated),
        NavigationRow(
            "after a finished load it is a link: it opens outside", configure: gravitoDialect,
            started + [.finished(load: 1)], .to(elsewhere.absoluteString), decision: .openExternally(elsewhere),
            state: .loading),
        NavigationRow(
            "after the page's own document arrived too", configure: gravitoDialect,
            started + [.response("https://cmp.example.com/app.html", status: 200, load: 1)], .to(elsewhere.absoluteString),
            decision: .openExternally(elsewhere), state: .loading),
        NavigationRow(
            "after a message too", configure: gravitoDialect,
            started + [.gravito(#"{"type":"CMP-loaded"}"#)], .to(elsewhere.absoluteString),
            decision: .openExternally(elsewhere), state: .ready),
        NavigationRow(
            "blocked external links are cancelled",
            configure: gravitoBlockingLinks,
            started + [.finished(load: 1)], .to(elsewhere.absoluteString), decision: .cancel, state: .loading),
        NavigationRow(
            "the page's own origin stays, even before it answered", configure: gravitoDialect,
            started, .to("https://cmp.example.com/second.html"), decision: .allow, state: .loading),
        NavigationRow(
            "sub-frames navigate freely", configure: gravitoDialect,
            started, .to(elsewhere.absoluteString, mainFrame: false), decision: .allow, state: .loading),
        NavigationRow(
            "a new window before the page answered is a link, not a redirect", configure: gravitoDialect,
            started, .to(elsewhere.absoluteString, newWindow: true), decision: .openExternally(elsewhere), state: .loading),
        NavigationRow(
            "so is mailto:", configure: gravitoDialect,
            started, .to("mailto:dpo@example.com"), decision: .openExternally(URL(string: "mailto:dpo@example.com")!),
            state: .loading),
        NavigationRow(
            "javascript: is cancelled, and nothing fails", configure: gravitoDialect,
            started, .to("javascript:alert(1)"), decision: .cancel, state: .loading),
        NavigationRow(
            "a main-frame navigation without a URL is cancelled", configure: gravitoDialect,
            started, .to(nil), decision: .cancel, state: .loading),
        NavigationRow(
            "before the start it is only decided", configure: gravitoDialect,
            [.attached(setupFailure: nil)], .to(elsewhere.absoluteString), decision: .openExternally(elsewhere),
            state: .idle),
        NavigationRow(
            "tracking before the CMP: nothing loads yet, so it is only decided",
            configure: {
                $0.dialect = .gravito
                $0.tracking = .beforeCMP
            },
            started, .to(elsewhere.absoluteString), decision: .openExternally(elsewhere), state: .loading),
        NavigationRow(
            "after the UI finished it is only decided", configure: MachineFlows.trackingAfterConsent,
            MachineFlows.savedWithTrackingPending + [.timerFired(.finishDelay)], .to(elsewhere.absoluteString),
            decision: .openExternally(elsewhere), state: .finished(.consentSaved)),
        NavigationRow(
            "the fallback page's origin stays while it shows", configure: gravitoWithFallback,
            started + [offlineInput], .to("webcmp-fallback://app/second.html"), decision: .allow, state: .loading),
        NavigationRow(
            "but not before it shows", configure: gravitoWithFallback,
            started + [.finished(load: 1)], .to("webcmp-fallback://app/second.html"), decision: .cancel, state: .loading),
    ])
    func navigation(_ row: NavigationRow) {
        row.check()
    }

    /// A redirect of load `load` to ``elsewhere``, as ``BridgeMachine/decide(_:)`` names it.
    static func redirect(of load: Int) -> Input {
        .loadRedirected(BridgeMachine.LoadRedirect(
            load: WebViewLoadID(rawValue: load), url: elsewhere, origin: "https://elsewhere.example"))
    }

    /// The runner feeds a redirect back at once; one that comes late (its load replaced or answered since) changes
    /// nothing.
    @Test(arguments: [
        Transition(
            "a redirect of the current load before it answered fails it", configure: gravitoDialect,
            started + [redirect(of: 1)], effects: failedWhileLoading(redirected), state: .invalidated),
        Transition(
            "a redirect of a replaced load is ignored", configure: gravitoWithFallback,
            started + [offlineInput, redirect(of: 1)], effects: [], state: .loading),
        Transition(
            "a redirect of a load that answered since is ignored", configure: gravitoDialect,
            started + [.finished(load: 1), redirect(of: 1)], effects: [], state: .loading),
        Transition(
            "a redirect before anything loaded is ignored", configure: { $0.tracking = .beforeCMP },
            started + [redirect(of: 1)], effects: [], state: .loading),
    ])
    func lateRedirects(_ row: Transition) {
        row.check()
    }

    // MARK: Load identity

    @Test func loadTrackerTellsStaleLoadsByIdentity() {
        var tracker = LoadTracker()
        let url = URL(string: "https://cmp.example.com/app/index.html")!
        #expect(!tracker.isStale(nil))
        let first = tracker.begin(url)
        #expect(!tracker.isStale(first))
        let second = tracker.begin(url)   // the same URL again: still a different load
        #expect(tracker.isStale(first))
        #expect(!tracker.isStale(second))
        #expect(!tracker.isStale(nil))            // a navigation the page started: the current page
    }
}

/// One row of the navigation table: a machine of the configuration (changed by `configure`), fed `inputs`, is asked
/// about `request` (``BridgeMachine/decide(_:)``); its decision must be `decision`, naming a redirect of load
/// `redirectOf` (`nil`: none). The redirect fed back as the runner does (``BridgeMachine/Input/loadRedirected(_:)``)
/// must have exactly `effects`, and the machine is left in `state`.
struct NavigationRow: @unchecked Sendable, CustomTestStringConvertible {
    let name: String
    let configure: @Sendable (inout BridgeConfiguration) -> Void
    let inputs: [BridgeMachine.Input]
    let request: NavigationRequest
    let decision: NavigationDecision
    let redirectOf: Int?
    let effects: [BridgeMachine.Effect]
    let state: ConsentBridge.State

    init(
        _ name: String, configure: @escaping @Sendable (inout BridgeConfiguration) -> Void = { _ in },
        _ inputs: [BridgeMachine.Input], _ request: NavigationRequest, decision: NavigationDecision,
        redirectOf: Int? = nil, effects: [BridgeMachine.Effect] = [], state: ConsentBridge.State
    ) {
        self.name = name
        self.configure = configure
        self.inputs = inputs
        self.request = request
        self.decision = decision
        self.redirectOf = redirectOf
        self.effects = effects
        self.state = state
    }

    var testDescription: String { name }

    /// Asks the machine, feeds a named redirect back, and compares the answer, the effects and the state.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        var feeder = Transition(name, configure: configure, inputs, effects: [], state: .idle).feederAfterInputs()
        let answer = feeder.machine.decide(request)
        #expect(answer.decision == decision, "\(name)", sourceLocation: sourceLocation)
        #expect(answer.redirect?.load == redirectOf.map(WebViewLoadID.init(rawValue:)), "\(name)", sourceLocation: sourceLocation)
        if let redirect = answer.redirect {
            #expect(redirect.url == request.url, "\(name)", sourceLocation: sourceLocation)
        }
        let after = answer.redirect.map { feeder.feed(.loadRedirected($0)) } ?? []
        #expect(after == effects, "\(name)", sourceLocation: sourceLocation)
        #expect(feeder.machine.state == state, "\(name)", sourceLocation: sourceLocation)
    }
}
