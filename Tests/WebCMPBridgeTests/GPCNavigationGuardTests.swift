import Foundation
import Testing
@testable import WebCMPBridge

/// Which navigations a content web view re-issues with `Sec-GPC: 1` (cancel, then load the same request with the
/// header): only a user's link activation, so GPC never changes how a page navigates (promise 7 of
/// SessionPromises.md), and it never loops.
@Suite struct GPCNavigationGuardTests {
    typealias Action = GPCNavigationGuard.Action

    static let page = URL(string: "https://news.example/a")!
    static let next = URL(string: "https://news.example/b")!

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var action: Action
        var enabled = true
        var expected: GPCNavigationGuard.Decision
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "link in the main frame", action: Action(url: next, isMainFrame: true, kind: .linkActivated),
            expected: .reissueWithHeader),
        Row(name: "a script's navigation, location.replace or a meta refresh (other)",
            action: Action(url: next, isMainFrame: true, kind: .other), expected: .allow),
        Row(name: "a server redirect reported as other",
            action: Action(url: next, isMainFrame: true, kind: .other, isRedirect: true), expected: .allow),
        Row(name: "a server redirect of a link",
            action: Action(url: next, isMainFrame: true, kind: .linkActivated, isRedirect: true), expected: .allow),
        Row(name: "the GET after a form POST (303 See Other)",
            action: Action(url: next, isMainFrame: true, kind: .formSubmitted, isRedirect: true), expected: .allow),
        Row(name: "GET form", action: Action(url: next, httpMethod: "get", isMainFrame: true, kind: .formSubmitted),
            expected: .allow),
        Row(name: "signal off", action: Action(url: next, isMainFrame: true, kind: .linkActivated), enabled: false,
            expected: .allow),
        Row(name: "already carries the header",
            action: Action(url: next, gpcHeader: "1", isMainFrame: true, kind: .linkActivated), expected: .allow),
        Row(name: "iframe", action: Action(url: next, isMainFrame: false, kind: .linkActivated), expected: .allow),
        Row(name: "unknown frame or new window", action: Action(url: next, isMainFrame: nil, kind: .linkActivated),
            expected: .allow),
        Row(name: "POST form", action: Action(url: next, httpMethod: "POST", hasBody: true, isMainFrame: true,
                                              kind: .formSubmitted), expected: .allow),
        Row(name: "GET with a body", action: Action(url: next, hasBody: true, isMainFrame: true, kind: .linkActivated),
            expected: .allow),
        Row(name: "form resubmission", action: Action(url: next, isMainFrame: true, kind: .formResubmitted),
            expected: .allow),
        Row(name: "reload", action: Action(url: page, isMainFrame: true, kind: .reload), expected: .allow),
        Row(name: "back/forward", action: Action(url: page, isMainFrame: true, kind: .backForward), expected: .allow),
        Row(name: "mailto", action: Action(url: URL(string: "mailto:a@news.example"), isMainFrame: true,
                                           kind: .linkActivated), expected: .allow),
        Row(name: "no URL", action: Action(url: nil, isMainFrame: true, kind: .other), expected: .allow),
        Row(name: "fragment of the current page",
            action: Action(url: URL(string: "https://news.example/a#comments"), isMainFrame: true,
                           kind: .linkActivated, currentURL: page), expected: .allow),
        Row(name: "fragment of another page",
            action: Action(url: URL(string: "https://news.example/b#comments"), isMainFrame: true,
                           kind: .linkActivated, currentURL: page), expected: .reissueWithHeader),
    ]

    @Test(arguments: rows)
    func decision(_ row: Row) {
        var guardState = GPCNavigationGuard()
        #expect(guardState.decide(row.action, enabled: row.enabled) == row.expected)
    }

    /// Every navigation type × method × redirect, in the main frame, without the header: only a link the user
    /// activated, a GET that is no redirect, is re-issued.
    static let grid: [Row] = Action.Kind.allCases.flatMap { kind in
        [("GET", false), ("POST", true), ("HEAD", false), ("PUT", true)].flatMap { method, hasBody in
            [false, true].map { isRedirect in
                Row(name: "\(kind) \(method)\(isRedirect ? " redirect" : "")",
                    action: Action(url: next, httpMethod: method, hasBody: hasBody, isMainFrame: true, kind: kind,
                                   currentURL: page, isRedirect: isRedirect),
                    expected: kind == .linkActivated && method == "GET" && !isRedirect ? .reissueWithHeader : .allow)
            }
        }
    }

    @Test(arguments: grid)
    func onlyAUsersLinkActivationIsReissued(_ row: Row) {
        var guardState = GPCNavigationGuard()
        #expect(guardState.decide(row.action, enabled: true) == row.expected)
    }

    /// A page that replaces itself (`location.replace`, meta refresh) again and again: never re-issued, so no new
    /// history entry is made and Back leaves the page.
    @Test func aPageThatReplacesItselfIsNeverReissued() {
        var guardState = GPCNavigationGuard()
        for index in 0..<5 {
            let url = URL(string: "https://news.example/step\(index)")!
            #expect(guardState.decide(Action(url: url, isMainFrame: true, kind: .other, currentURL: Self.page),
                                      enabled: true) == .allow)
        }
        #expect(guardState.lastReissued == nil)
    }

    @Test func aReissuedRequestThatComesBackWithoutTheHeaderIsAllowedOnce() {
        var guardState = GPCNavigationGuard()
        let link = Action(url: Self.next, isMainFrame: true, kind: .linkActivated)
        #expect(guardState.decide(link, enabled: true) == .reissueWithHeader)
        #expect(guardState.lastReissued == Self.next)
        // The platform dropped the header: no second re-issue, no loop.
        #expect(guardState.decide(link, enabled: true) == .allow)
        #expect(guardState.lastReissued == nil)
        // A later link to the same page is re-issued again.
        #expect(guardState.decide(link, enabled: true) == .reissueWithHeader)
    }

    @Test func theReissuedRequestWithTheHeaderGoesAheadAndClearsTheGuard() {
        var guardState = GPCNavigationGuard()
        #expect(guardState.decide(Action(url: Self.next, isMainFrame: true, kind: .linkActivated), enabled: true)
            == .reissueWithHeader)
        #expect(guardState.decide(Action(url: Self.next, gpcHeader: "1", isMainFrame: true, kind: .other),
                                  enabled: true) == .allow)
        #expect(guardState.lastReissued == nil)
    }
}
