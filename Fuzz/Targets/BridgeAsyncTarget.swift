import Foundation

// Fuzz target "bridge-async": a byte-coded sequence of page events drives a real ConsentBridge (the runner: its
// timers, tasks and store) over an in-memory store. Slower than "bridge", which drives BridgeMachine directly; this one
// covers what lies between the machine and the app: the runner performing effects depth-first, its timers (a fake
// clock), the real ConsentStore.
// Invariants after every step: stored consent changes only on a valid save (or, for its GPP part only, a GPP
// signal) from the main frame of an allowed origin while the bridge is active, and the IAB keys and the bridge's
// record always describe the same TC string. Navigations (links, redirects before the page answered) and document
// responses are interleaved: the consent page is only ever replaced by an allowed origin's document, and nothing but
// http(s), mailto and tel is handed out.

@MainActor
private final class FuzzWebView: CMPWebView {
    var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    var handlers: Set<String> = []
    func load(_ url: URL, id: WebViewLoadID) {}
    func addUserScript(_ script: UserScript) {}
    func removeAllUserScripts() {}
    func evaluateJavaScript(_ source: String) {}
    func addMessageHandler(named name: String) throws(ConsentBridgeError) { handlers.insert(name) }
    func removeMessageHandler(named name: String) { handlers.remove(name) }
}

@MainActor
private final class FuzzClock {
    var pending: [@MainActor @Sendable () -> Void] = []
    var scheduler: BridgeScheduler {
        BridgeScheduler(now: { Date(timeIntervalSince1970: 1_750_000_000) }, schedule: { [self] _, action in
            self.pending.append(action)
            return ScheduledWork { [weak self] in self?.pending.removeAll() }
        })
    }
}

private let navigationTargets: [String?] = [
    "https://cmp.example.com/second.html", "https://elsewhere.example/privacy", "http://cmp.example.com/",
    "javascript:alert(1)", "mailto:dpo@example.com", "about:blank", "file:///etc/passwd", nil,
]

private let validStrings: [String] = {
    let models = [
        TCString(cmpID: 300, vendorListVersion: 150, policyVersion: 5, purposeConsents: IDSet(1...11), vendorConsents: [1, 755, 1001]),
        TCString(cmpID: 300, vendorListVersion: 150, policyVersion: 5),
        TCString(cmpID: 10, vendorListVersion: 3, policyVersion: 4, purposeConsents: [1, 8], vendorConsents: IDSet(1...900),
                 publisherRestrictions: [PublisherRestriction(purposeID: 2, restrictionType: .requireConsent, vendors: [4])]),
    ]
    return models.compactMap { try? $0.encoded() }
}()

func fuzzBridgeAsync(_ bytes: UnsafeRawBufferPointer) {
    let operations = Array(bytes)
    MainActor.assumeIsolated { runBridgeSequence(operations) }
}

@MainActor
private func runBridgeSequence(_ ops: [UInt8]) {
    let store = ConsentStore.inMemory()
    let webView = FuzzWebView()
    let clock = FuzzClock()
    let dialect: CMPDialect? = ops.first.map { [nil, .gravito, .onesecondbefore, .tcf][Int($0) % 4] } ?? nil
    let bridge = ConsentBridge(
        configuration: BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/")!, dialect: dialect),
        store: store, scheduler: clock.scheduler)
    bridge.attach(to: webView)
    bridge.start()

    func post(_ handler: String, _ body: String, mainFrame: Bool = true, origin: String = "https://cmp.example.com") {
        guard webView.handlers.contains(handler) else { return }
        webView.eventHandler?(.message(ScriptMessage(handlerName: handler, body: .json(body), isMainFrame: mainFrame, origin: origin)))
    }
    func save(_ tc: String, handler: Int) -> (String, String) {
        let literal = JavaScriptLiteral.string(tc)
        switch handler % 3 {
        case 0: return ("jsHandler", "{\"type\":\"save\",\"tcstring\":\(literal)}")
        case 1: return ("osbCmpMessageHandler", "{\"consent\":{\"tcString\":\(literal)}}")
        default: return ("webcmpTCF", "{\"type\":\"tcf\",\"eventStatus\":\"useractioncomplete\",\"tcString\":\(literal)}")
        }
    }

    var index = 1
    while index < ops.count {
        let op = ops[index]
        let argument = index + 1 < ops.count ? Int(ops[index + 1]) : 0
        index += 2
        let before = store.record()
        let wasActive = bridge.state == .loading || bridge.state == .ready
        var validSaveSent = false
        var gppUpdateSent = false
        switch op % 12 {
        case 0: post("jsHandler", "{\"type\":\"CMP-loaded\"}")
        case 1:
            let (handler, body) = save(validStrings[argument % validStrings.count], handler: argument / 3)
            post(handler, body)
            validSaveSent = true
        case 2:
            let (handler, body) = save(validStrings[argument % validStrings.count], handler: argument / 3)
            post(handler, body, mainFrame: false)
        case 3:
            let (handler, body) = save(validStrings[argument % validStrings.count], handler: argument / 3)
            post(handler, body, origin: "https://evil.example")
        case 4:
            let start = min(index, ops.count)
            let garbage = String(decoding: ops[start..<min(ops.count, start + argument)], as: UTF8.self)
            let (handler, body) = save(garbage, handler: argument)
            post(handler, body)
            post(handler, garbage)
            index += argument
        case 5: post("jsHandler", "{\"type\":\"close\"}")
        case 6:
            let due = clock.pending
            clock.pending.removeAll()
            for action in due { action() }
        case 7:
            // Load events of the current load, a replaced one or the page's own navigation: finished, cancelled,
            // interrupted by the policy, failed, or the content process gone (reloaded once, then the run fails).
            let load = argument % 3 == 0 ? nil : WebViewLoadID(rawValue: argument % 4)
            let failure = { (domain: String, code: Int) in
                WebViewLoadFailure(url: nil, domain: domain, code: code, description: "fuzz")
            }
            switch argument / 4 % 5 {
            case 0: webView.eventHandler?(.didFinishLoading(nil, load: load))
            case 1: webView.eventHandler?(.didFailLoading(failure("NSURLErrorDomain", -999), load: load))
            case 2: webView.eventHandler?(.didFailLoading(failure("WebKitErrorDomain", 102), load: load))
            case 3: webView.eventHandler?(.didFailLoading(failure("NSURLErrorDomain", -1009), load: load))
            default: webView.eventHandler?(.contentProcessDidTerminate)
            }
        case 8: if argument % 8 == 0 { bridge.invalidate() }
        case 9:
            post("webcmpTCF", "{\"type\":\"gpp\",\"gppString\":\"DBABTA~1YNN\"}")
            gppUpdateSent = true
        case 10:
            let url = navigationTargets[argument % navigationTargets.count].flatMap(URL.init(string:))
            let request = NavigationRequest(url: url, isMainFrame: argument & 8 == 0, opensNewWindow: argument & 16 != 0)
            let decision = bridge.decidePolicy(for: request)
            let scheme = url?.scheme?.lowercased() ?? ""
            if decision == .allow, request.isMainFrame || request.opensNewWindow, scheme != "about" {
                fuzzCheck(url?.host == "cmp.example.com" && scheme == "https" && !request.opensNewWindow,
                          "the consent page was replaced by \(url?.absoluteString ?? "nil")")
            }
            if case .openExternally(let target) = decision {
                fuzzCheck(["http", "https", "mailto", "tel"].contains(target.scheme?.lowercased() ?? ""),
                          "handed out \(target.absoluteString)")
            }
        default:
            let own = argument & 1 == 0
            let url = URL(string: own ? "https://cmp.example.com/" : "https://elsewhere.example/x")
            webView.eventHandler?(.didReceiveResponse(url, statusCode: [200, 404, 500, 302][(argument >> 1) % 4]))
        }
        let after = store.record()
        if after != before {
            // A GPP signal from the page's __gpp updates the GPP part of the stored consent, never the TC string.
            let gppOnly = gppUpdateSent && after?.tcString == before?.tcString
            fuzzCheck(wasActive && (validSaveSent || gppOnly), "stored consent changed without a valid save (op \(op % 12))")
        }
        var storedTC: String?
        if case .string(let value)? = store.iabKeys()["IABTCF_TCString"] { storedTC = value }
        fuzzCheck(storedTC == after?.tcString, "IAB keys and record disagree: half-written consent")
    }
    bridge.invalidate()
}
