import Foundation
import Testing
@testable import WebCMPBridge

/// A platform error as the web view adapters report it (``WebViewLoadFailure/init(_:requestedURL:)``): the URL that
/// failed comes from the error first, and the domain and code reach the core unchanged, so that it can tell a replaced
/// load's cancellation from a failure.
@Suite struct WebViewLoadFailureTests {
    static let requested = URL(string: "https://cmp.example.com/index.html")!
    static let failing = URL(string: "https://cmp.example.com/redirected.html")!

    @Test func theFailingURLOfTheErrorWinsOverTheRequestedOne() {
        let error = NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut, userInfo: [
            NSURLErrorFailingURLErrorKey: Self.failing,
        ])
        let failure = WebViewLoadFailure(error, requestedURL: Self.requested)
        #expect(failure.url == Self.failing)
        #expect(failure.domain == NSURLErrorDomain)
        #expect(failure.code == NSURLErrorTimedOut)
        #expect(failure.kind == .failed)
    }

    @Test func theFailingURLStringIsUsedWhenTheErrorHasNoURL() {
        let error = NSError(domain: NSURLErrorDomain, code: NSURLErrorCannotFindHost, userInfo: [
            WebViewLoadFailure.failingURLStringKey: Self.failing.absoluteString,
        ])
        #expect(WebViewLoadFailure(error, requestedURL: Self.requested).url == Self.failing)
    }

    @Test func theRequestedURLIsUsedWhenTheErrorNamesNone() {
        let error = NSError(domain: "WebKit.WebPage.NavigationError", code: 3)
        let failure = WebViewLoadFailure(error, requestedURL: Self.requested)
        #expect(failure.url == Self.requested)
        #expect(failure.kind == .failed)
    }

    @Test(arguments: [
        (WebViewLoadFailure.urlErrorDomain, -999, WebViewLoadFailure.Kind.cancelled),
        (WebViewLoadFailure.webKitErrorDomain, 102, .interruptedByPolicy),
        (WebViewLoadFailure.urlErrorDomain, NSURLErrorNotConnectedToInternet, .failed),
    ])
    func theDomainAndCodeDecideTheKind(domain: String, code: Int, kind: WebViewLoadFailure.Kind) {
        let error = NSError(domain: domain, code: code, userInfo: [NSURLErrorFailingURLErrorKey: Self.failing])
        #expect(WebViewLoadFailure(error, requestedURL: nil).kind == kind)
    }

    @Test func aSwiftErrorKeepsItsBridgedDomainAndCode() {
        enum Stand: Error { case first, second }
        let failure = WebViewLoadFailure(Stand.second, requestedURL: Self.requested)
        #expect(failure.code == 1)
        #expect(failure.domain.hasSuffix("Stand"))
        #expect(failure.kind == .failed)
    }

    /// WebKitGTK's domains: a replaced load's cancellation (302) and a policy's refusal (102) read as `WKWebView`'s do;
    /// `WKErrorDomain` 102 is no policy interruption, and a real network failure is a failure.
    @Test func webKitGTKsCancellationAndPolicyCodesAreReadLikeWKWebViewsAndOthersAreFailures() {
        #expect(WebViewLoadFailure(url: nil, domain: "WebKitNetworkError", code: 302, description: "").kind == .cancelled)
        #expect(WebViewLoadFailure(url: nil, domain: "WebKitPolicyError", code: 102, description: "").kind
            == .interruptedByPolicy)
        #expect(WebViewLoadFailure(url: nil, domain: "NSURLErrorDomain", code: -1009, description: "").kind == .failed)
        #expect(WebViewLoadFailure(url: nil, domain: "WKErrorDomain", code: 102, description: "").kind == .failed)
    }
}
