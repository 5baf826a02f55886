import Foundation

// Fuzz target "bridge": BridgeMachine driven directly by a byte-coded sequence of inputs, answered the way its runner
// (ConsentBridge) answers them: every `.store` (the save the machine's own ConsentCommit made) once the input's effects
// were performed, into an in-memory model of the store (validated, written all or nothing), timers fired only while scheduled, `.waitUntilActive` and `.requestTracking`
// answered only when asked. No clock, no web view, no task: the machine is a value, so one sequence costs a few
// microseconds and a minute explores over a million of them (`scripts/fuzz 60 bridge`).
//
// Encoding: an input is one or more sequences separated by 0xFF. In each, byte 0 picks one of the prebuilt
// configurations, byte 1 how the run is attached and started; then each step is an operation byte (low nibble: the
// kind, high nibble: a variant) and, for messages, load events and navigations, an argument byte. At most
// `maximumSteps` steps run; the bytes after them start the next sequence.
//
// Invariants, checked on every effect as the runner performs it:
// - nothing is stored (`.store`) except in answer to a message from the main frame of an allowed origin (the
//   hosted page's; the fallback page's once the fallback loaded) whose body is a save, a GPP signal with a string or
//   a US Privacy string, while the run is live, at most once per input, with the source of the page shown (in the
//   record and the history's provenance), numbered one higher than the last save, keys and record of one consent;
// - the stored keys and record change only through a stored commit or `.clearStore` (after the ready timeout, when
//   configured), and always describe the same consent: never half-written; every key of a save passes the store's
//   rules (`ConsentStore.validate`), which the store no longer checks for the mapping's keys;
// - a stored save is announced (`consentReady` with its record), a failed one is an error; a stray answer (a save never
//   asked for, an earlier one, one of a replaced load or after the run) is ignored with one diagnostic, and only the
//   live run's latest save of the current load is taken;
// - at most one `uiFinished` and one `uiReady` per sequence; `.detach` at most once, and after it no effect at all
//   but the answer to a navigation;
// - a navigation is answered by `decide(_:)`, which changes nothing; an allowed main-frame navigation stays within the
//   allowed origins and no new window is allowed; only http(s), mailto and tel are handed out; a redirect it names is
//   a cancelled main-frame http(s) navigation to another origin, of the current load of a live run, and fed back at
//   once (`.loadRedirected`); a redirect of a load that is not current has no effect;
// - `.load` only of the configured page or the fallback page, each load numbered one higher than the last;
// - the stored record is injected only into an allowed origin; scripts are evaluated only in settings mode; App
//   Tracking Transparency is requested only when the app enabled it and the app is active; timers are scheduled with
//   their configured durations;
// - the app's lifecycle (UIKit's four notifications) and a covered UI: only armed timers are cancelled, paused or
//   resumed; after every step the armed timers are paused exactly while the app is in the background or a presented
//   UI is covered, and the tracking prompt's settle window exactly while the app is inactive (the harness's own
//   model), and a paused timer never fires; the tracking status is read again only at an activation or when the
//   settle timer fires.

/// How many steps of a sequence run at most: the flows that reach the machine's deepest phases (tracking after a
/// GPP-finished UI, settings candidates, fallback after a redirect; the `machine-*` seeds) take 4 to 9 steps, so 24
/// leave room for interleavings of every other input; the bytes after them start the next sequence.
private let maximumSteps = 24

/// One configuration a sequence runs under: its fresh machine and what the harness knows about it independently.
private final class FuzzSetup: Sendable {
    /// The machine, created (not attached).
    let machine: BridgeMachine
    /// The URLs the machine may load: the hosted page and, when configured, the fallback page.
    let loadable: [URL]
    /// The fallback page's entry URL (with the configured query items), if there is a fallback page.
    let fallbackURL: URL?
    /// The configured ready timeout, finish delay and settings attempt timeout, by timer.
    let seconds: [BridgeMachine.Timer: TimeInterval]

    /// A setup (a class: each sequence refers to it without copying it).
    init(machine: BridgeMachine, loadable: [URL], fallbackURL: URL?, seconds: [BridgeMachine.Timer: TimeInterval]) {
        self.machine = machine
        self.loadable = loadable
        self.fallbackURL = fallbackURL
        self.seconds = seconds
    }
}

/// The hosted page's origin: the only configured allowed origin.
private let hostedOrigin = "https://cmp.example.com"
/// The fallback page's origin.
private let fallbackOrigin = "webcmp-fallback://app"

/// Every combination of dialect (automatic, Gravito, Onesecondbefore, generic TCF), mode, fallback page, tracking
/// policy and a set of non-default options (clearing on timeout, blocked links, a language, refused missing
/// DisclosedVendors, consent given on the fallback page).
private let fuzzSetups: [FuzzSetup] = {
    let fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("<p>Consent</p>".utf8))])
    var setups: [FuzzSetup] = []
    for dialect in [nil, .gravito, .onesecondbefore, .tcf] as [CMPDialect?] {
        for mode in [ConsentUIMode.consent, .settings] {
            for withFallback in [false, true] {
                for tracking in [TrackingPolicy.disabled, .afterConsent(), .beforeCMP] {
                    for options in [false, true] {
                        var configuration = BridgeConfiguration(
                            cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: dialect, readyTimeout: 20,
                            tracking: tracking)
                        configuration.mode = mode
                        configuration.fallback = withFallback ? fallback : nil
                        if options {
                            configuration.clearsConsentOnTimeout = true
                            configuration.externalLinks = .block
                            configuration.language = "de"
                            configuration.missingDisclosedVendors = .refuse
                            configuration.finishDelay = 1.5
                            configuration.settingsAttemptTimeout = 2
                        }
                        let fallbackURL = configuration.fallback.map { configuration.addingQueryItems(to: $0.entryURL) }
                        setups.append(FuzzSetup(
                            machine: BridgeMachine(
                                configuration: configuration, renewalReason: options ? .hostedPageNotShown : .noConsent),
                            loadable: [configuration.resolvedURL] + (fallbackURL.map { [$0] } ?? []),
                            fallbackURL: fallbackURL,
                            seconds: [
                                .ready: configuration.readyTimeout, .finishDelay: configuration.finishDelay,
                                .settingsAttempt: configuration.settingsAttemptTimeout,
                                .settingsRetry: SettingsOpening.retryInterval,
                                .trackingSettle: TrackingPrompt.settleWindow,
                            ]))
                    }
                }
            }
        }
    }
    return setups
}()

/// A message body of the table: its handler, its JSON text, and whether it can carry consent (a save, a GPP signal
/// with a string, a US Privacy string: the only bodies that may lead to a commit).
private struct FuzzBody: Sendable {
    let handler: String
    let json: String
    let carriesConsent: Bool
}

/// TC strings: all purposes, none, analytics only, one that is not service-specific (refused), an old policy version
/// (a diagnostic), one created after 2026-02-28 without DisclosedVendors (a diagnostic, or refused), and garbage.
private let fuzzTCStrings: [String] = {
    let created: Int64 = 17_500_000_000
    let models = [
        TCString(createdDeciseconds: created, lastUpdatedDeciseconds: created, cmpID: 300, cmpVersion: 2,
                 vendorListVersion: 150, policyVersion: 5, specialFeatureOptIns: [1, 2], purposeConsents: IDSet(1...11),
                 vendorConsents: [1, 2, 755, 1001], disclosedVendors: [1, 2, 755, 1001]),
        TCString(createdDeciseconds: created, lastUpdatedDeciseconds: created, cmpID: 300, vendorListVersion: 150,
                 policyVersion: 5),
        TCString(createdDeciseconds: created, lastUpdatedDeciseconds: created, cmpID: 10, vendorListVersion: 3,
                 policyVersion: 5, purposeConsents: [1, 8, 9], vendorConsents: IDSet(1...900)),
        TCString(createdDeciseconds: created, cmpID: 300, policyVersion: 5, isServiceSpecific: false, purposeConsents: [1]),
        TCString(createdDeciseconds: created, cmpID: 300, policyVersion: 2, purposeConsents: [2, 3]),
        TCString(createdDeciseconds: 17_800_000_000, lastUpdatedDeciseconds: 17_800_000_000, cmpID: 300,
                 policyVersion: 5, purposeConsents: [1, 2]),
    ]
    return models.compactMap { try? $0.encoded() } + ["CPnotATCstring"]
}()

/// The message bodies of every dialect: valid and invalid, consent and control.
private let fuzzBodies: [FuzzBody] = {
    var bodies: [FuzzBody] = []
    func add(_ handler: String, _ json: String, consent: Bool = false) {
        bodies.append(FuzzBody(handler: handler, json: json, carriesConsent: consent))
    }
    let tc = fuzzTCStrings.map { JavaScriptLiteral.string($0) }
    // Gravito.
    for json in [
        #"{"type":"CMP-loaded"}"#, #"{"event":"start"}"#, #""{\"type\":\"CMP-loaded\"}""#,
        #"{"type":"load","configversion":7}"#, #"{"type":"close"}"#, #"{"event":"close"}"#,
        #"{"type":"save"}"#, #"{"type":"bogus"}"#, "[]", #"{"type":"save","tcstring":5}"#,
    ] { add("jsHandler", json) }
    for literal in tc { add("jsHandler", #"{"type":"save","tcstring":\#(literal)}"#, consent: true) }
    add("jsHandler", #"{"type":"save","tcstring":\#(tc[1]),"isRejectAll":true,"nontcfdata":{"x":[1,"</script>"]}}"#, consent: true)
    add("jsHandler", #"{"type":"save","tcstring":\#(tc[0]),"acString":"2~1.35~dv.9.21","configversion":"8"}"#, consent: true)
    add("jsHandler", #"{"type":"save","tcstring":\#(tc[0]),"acString":"garbage"}"#, consent: true)
    add("jsHandler", #"{"event":"save","data":\#(tc[2])}"#, consent: true)
    add("jsHandler", #"{"type":"save","gppstring":"DBABTA~1YNN","applicableSections":[6],"uspstring":"1YNN"}"#, consent: true)
    // Onesecondbefore.
    add("osbCmpMessageHandler", #"{"consent":{"tcString":\#(tc[0]),"purposes":[1,2]},"cduid":"u1","expirationDate":1900000000000}"#, consent: true)
    add("osbCmpMessageHandler", #"{"consent":{"tcString":\#(tc[2])}}"#, consent: true)
    add("osbCmpMessageHandler", #"{"consent":{"tcString":\#(tc[3])}}"#, consent: true)
    add("osbCmpMessageHandler", #"{"consent":{}}"#)
    add("osbCmpMessageHandler", #"{"consent":{"tcString":5}}"#)
    // The TCF/GPP forwarder.
    for json in [
        #"{"type":"ready"}"#, #"{"type":"tcf","eventStatus":"bogus"}"#,
        #"{"type":"tcf"}"#, #"{"type":"usp","uspString":"2YNN"}"#,
        #"{"type":"gpp","eventName":"signalStatus","signalStatus":"ready"}"#,
        #"{"type":"gpp","eventName":"sectionChange","signalStatus":"not ready"}"#,
        #"{"type":"gpp","eventName":"bogus"}"#,
    ] { add("webcmpTCF", json) }
    // The CMP's UI shown: a default stored before it is stored again as "no choice while the UI was shown" (issue 37
    // §3), so these may commit; the hide may turn a GPP signal into the user's choice.
    for json in [
        #"{"type":"tcf","eventStatus":"cmpuishown"}"#,
        #"{"type":"gpp","eventName":"cmpDisplayStatus","cmpDisplayStatus":"visible"}"#,
        #"{"type":"gpp","eventName":"cmpDisplayStatus","cmpDisplayStatus":"hidden"}"#,
    ] { add("webcmpTCF", json, consent: true) }
    for (index, literal) in tc.enumerated() {
        let status = index == 1 ? "tcloaded" : "useractioncomplete"
        add("webcmpTCF", #"{"type":"tcf","eventStatus":"\#(status)","tcString":\#(literal),"cmpId":300,"cmpVersion":2}"#, consent: true)
    }
    for json in [
        #"{"type":"tcf","eventStatus":"tcloaded","tcString":\#(tc[0])}"#,
        #"{"type":"tcf","eventStatus":"tcloaded","gdprApplies":false}"#,
        #"{"type":"tcf","eventStatus":"useractioncomplete","tcString":\#(tc[0]),"addtlConsent":"2~1.35~dv.9.21"}"#,
        #"{"type":"gpp","gppString":"DBABTA~1YNN","applicableSections":[6]}"#,
        #"{"type":"gpp","eventName":"sectionChange","gppString":"DBABTA~1YYN","applicableSections":[6]}"#,
        #"{"type":"gpp","signalStatus":"ready","gppString":"DBAA"}"#,
        #"{"type":"gpp","signalStatus":"not ready","gppString":"DBABTA~1YNN"}"#,
        #"{"type":"gpp","gppString":"not a GPP string"}"#,
        #"{"type":"usp","uspString":"1YNN"}"#, #"{"type":"usp","uspString":"1YYN"}"#,
    ] { add("webcmpTCF", json, consent: true) }
    for attempt in 0..<3 {
        for result in SettingsOpening.CallResult.allCases {
            add("webcmpTCF", #"{"type":"settings","attempt":\#(attempt),"result":"\#(result.rawValue)"}"#)
        }
    }
    add("other", #"{"type":"CMP-loaded"}"#)
    return bodies
}()

/// Who posts a message: 16 variants, most of them the hosted page's main frame.
private let fuzzSenders: [(isMainFrame: Bool, origin: String?)] = [
    (true, hostedOrigin), (true, hostedOrigin), (true, hostedOrigin), (true, hostedOrigin),
    (true, hostedOrigin), (true, hostedOrigin), (true, nil), (true, "HTTPS://CMP.example.com:443"),
    (true, fallbackOrigin), (true, fallbackOrigin), (true, "https://evil.example"), (true, "http://cmp.example.com"),
    (true, "null"), (false, hostedOrigin), (false, "https://evil.example"), (false, fallbackOrigin),
]

/// Where navigations go, with each URL's scheme (lower case) and origin worked out once.
private let fuzzNavigationTargets: [(url: URL?, scheme: String, origin: String?)] = [
    "https://cmp.example.com/second.html", "https://elsewhere.example/privacy", "http://cmp.example.com/",
    "javascript:alert(1)", "mailto:dpo@example.com", "tel:+15550100", "about:blank", "about:srcdoc",
    "file:///etc/passwd", "webcmp-fallback://app/second.html", "custom-scheme://x", "https://cmp.example.com:8443/",
    "HTTPS://CMP.EXAMPLE.COM/upper",
].map { (text: String) in
    let url = URL(string: text)
    return (url, url?.scheme?.lowercased() ?? "", url.flatMap(SecurityOrigin.origin(of:)))
} + [(nil, "", nil)]

/// A document URL of the hosted page, one of another origin.
private let fuzzHostedDocument = URL(string: "https://cmp.example.com/app.html")
private let fuzzForeignDocument = URL(string: "https://elsewhere.example/x")

/// The byte that ends one sequence and starts the next in the same input: libFuzzer's bookkeeping per execution
/// (coverage collection, corpus updates) costs more than a sequence of the machine, so one input carries several.
private let sequenceSeparator: UInt8 = 0xFF

/// How many sequences ran (reported at exit as `bridge sequences: N`, which `scripts/fuzz` prints).
nonisolated(unsafe) private var sequenceCount = 0
nonisolated(unsafe) private var reportsSequenceCount = false

func fuzzBridge(_ bytes: UnsafeRawBufferPointer) {
    if !reportsSequenceCount {
        reportsSequenceCount = true
        atexit { FileHandle.standardError.write(Data("bridge sequences: \(sequenceCount)\n".utf8)) }
    }
    var start = 0
    while start < bytes.count {
        let end = bytes[start...].firstIndex(of: sequenceSeparator) ?? bytes.count
        var chunk = start
        // A chunk longer than `maximumSteps` steps goes on as the next sequence (its next two bytes its setup).
        while chunk < end { chunk += runSequence(UnsafeRawBufferPointer(rebasing: bytes[chunk..<end])) }
        start = end + 1
    }
}

/// Runs one sequence: byte 0 the configuration, byte 1 how it starts, then at most `maximumSteps` steps.
/// - Returns: how many bytes it used.
private func runSequence(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard bytes.count >= 2 else { return bytes.count }
    sequenceCount += 1
    var harness = MachineHarness(setup: fuzzSetups[Int(bytes[0]) % fuzzSetups.count], options: bytes[1])
    var index = 2
    var steps = 0
    while index < bytes.count, steps < maximumSteps {
        let argument = index + 1 < bytes.count ? bytes[index + 1] : 0
        index += harness.step(bytes[index], argument)
        harness.checkPausedTimers()
        steps += 1
    }
    harness.end()
    return min(index, bytes.count)
}

/// One sequence: the machine, the runner's answers, and the model the invariants are checked against.
private struct MachineHarness {
    /// What the input being handled is, for the invariants on its effects.
    enum Context {
        /// A message; `mayCommit`: it passed the checks (main frame, allowed origin) and carries consent.
        case message(mayCommit: Bool)
        case navigation
        case timer(BridgeMachine.Timer)
        /// The store's answer to a save.
        case answer
        case appActive
        case trackingAnswer
        /// One of UIKit's lifecycle notifications, reported by the web view.
        case lifecycle(AppLifecycleEvent)
        case other
    }

    let setup: FuzzSetup
    var machine: BridgeMachine
    /// The App Tracking Transparency status the store's answers carry.
    var trackingStatus: TrackingAuthorizationStatus
    /// The stored keys and record (the model of the store: replaced together, or not at all).
    var keys = IABKeySet()
    var record: ConsentRecord?
    /// Whether the store's next write fails.
    var failNextWrite = false
    /// The number of the last load.
    var lastLoad = 0
    /// The timers scheduled and not yet fired or cancelled, and those of them paused.
    var scheduled: Set<BridgeMachine.Timer> = []
    var paused: Set<BridgeMachine.Timer> = []
    /// The model of what pauses timers: the app in the background, a presented UI covered; the tracking prompt's
    /// settle window pauses while the app is inactive.
    var inBackground = false
    var inactive = false
    var presented = false
    var covered = false
    /// Whether the machine waits for an active app, or for a tracking answer.
    var waitsForActiveApp = false
    var waitsForTrackingAnswer = false
    /// Whether the run started (something loads, or the tracking prompt comes first).
    var started = false
    var fallbackShown = false
    var uiFinishedCount = 0
    var failedCount = 0
    var uiReadyCount = 0
    var detached = false
    /// Saves in the current top-level input.
    var commits = 0
    /// How many saves the machine asked for, and the load of the last one.
    var requestsSeen = 0
    var lastSaveLoad: WebViewLoadID?
    /// The saves written while the current input's effects are performed, with the store's answer: fed once they all
    /// were, as the runner does.
    var writes: [(BridgeMachine.Save, ConsentStoreError?)] = []
    /// The id of the last save the harness answered (the runner answers each one once, once the effects of its
    /// input were performed).
    var lastAnswered = 0

    init(setup: FuzzSetup, options: UInt8) {
        self.setup = setup
        machine = setup.machine
        trackingStatus = [.notDetermined, .notDetermined, .authorized, .denied][Int(options >> 6)]
        let setupFailure: ConsentBridgeError? = options & 1 != 0 ? .webViewSetupFailed(.messageHandlerNameInUse("jsHandler")) : nil
        if options & 32 != 0 {
            presented = true
            feed(.presentationBegan, .other)
        }
        feed(.attached(setupFailure: setupFailure, resourceFailures: options & 2 != 0 ? ["fuzz.js: missing"] : []), .other)
        let status: TrackingAuthorizationStatus = [.notDetermined, .authorized, .denied, .unavailable][Int(options >> 3) & 3]
        feed(.start(readyTimeoutWaitsForPresentation: options & 4 != 0, trackingStatus: status, stored: record), .other)
    }

    /// Whether the run is live: started, the UI not finished, not detached.
    var isLive: Bool { started && uiFinishedCount == 0 && !detached }

    /// Armed timers are paused exactly while the app is in the background or a presented UI is covered; the tracking
    /// prompt's settle window exactly while the app is inactive.
    func checkPausedTimers() {
        guard !detached else { return }
        fuzzCheck(paused == scheduled.filter { pauses($0) },
                  "paused \(paused) of \(scheduled), background \(inBackground), covered \(covered), inactive \(inactive)")
    }

    /// Decodes and performs one step; returns the bytes it used.
    mutating func step(_ op: UInt8, _ argument: UInt8) -> Int {
        let variant = Int(op >> 4)
        commits = 0
        switch op & 0x0F {
        case 4:
            loadEvent(variant, argument)
            return 2
        case 5:
            navigate(to: fuzzNavigationTargets[Int(argument) % fuzzNavigationTargets.count], variant)
            return 2
        case 6:
            let timer = BridgeMachine.Timer.allCases[variant % BridgeMachine.Timer.allCases.count]
            // The runner fires only armed timers that are not paused (a paused one has no work to fire); the machine
            // must also shrug off a stray fire of a timer it has not armed (a replaced timer's late one).
            if scheduled.contains(timer) {
                if !paused.contains(timer) {
                    scheduled.remove(timer)
                    feed(.timerFired(timer), .timer(timer))
                }
            } else if variant >= 12 {
                let effects = machine.handle(.timerFired(timer))
                fuzzCheck(effects.isEmpty, "a stray fire of \(timer) had effects: \(effects)")
            }
        case 7:
            presented = true
            covered = false
            feed(.presentationBegan, .other)
        case 8:
            presented = false
            covered = false
            feed(.presentationEnded, .other)
        case 12:
            let lifecycle = variant % 6
            switch lifecycle {
            case 0...3:
                let event = AppLifecycleEvent.allCases[lifecycle]
                if event == .didEnterBackground { inBackground = true }
                if event == .willEnterForeground || event == .didBecomeActive { inBackground = false }
                if event == .willResignActive || event == .didEnterBackground { inactive = true }
                if event == .didBecomeActive { inactive = false }
                feed(.webView(.appLifecycle(event), now: fuzzNow), .lifecycle(event))
            case 4:
                if presented { covered = true }
                feed(.presentationCovered, .other)
            default:
                covered = false
                feed(.presentationUncovered, .other)
            }
        case 9:
            if waitsForActiveApp || variant >= 12 {
                waitsForActiveApp = false
                feed(.appActive, .appActive)
            }
        case 10:
            if waitsForTrackingAnswer || variant >= 12 {
                waitsForTrackingAnswer = false
                let results: [Result<TrackingAuthorizationStatus, ConsentBridgeError>] = [
                    .success(.authorized), .success(.denied), .success(.notDetermined), .success(.restricted),
                    .failure(.trackingAuthorizationFailed(.missingUsageDescription)),
                    .failure(.trackingAuthorizationFailed(.unavailable("inactive"))),
                ]
                // The status read right after the answer: iOS 17.4's early `.denied` reads `.notDetermined`.
                let statusNow: TrackingAuthorizationStatus? = [nil, trackingStatus, .notDetermined][Int(argument) % 3]
                feed(.trackingAnswered(results[variant % results.count], statusNow: statusNow), .trackingAnswer)
                return 2
            }
        case 11:
            switch variant {
            case 0: feed(.invalidate, .other)
            case 1: failNextWrite = true
            case 2...5: trackingStatus = [.notDetermined, .authorized, .denied, .unavailable][variant - 2]
            case 6: feed(.attached(setupFailure: nil), .other)
            case 7: feed(.start(trackingStatus: .notDetermined, stored: record), .other)
            case 8...12: strayAnswer(variant)
            default: strayRedirect(variant)
            }
        default:
            post(fuzzBodies[Int(argument) % fuzzBodies.count], from: fuzzSenders[variant])
            return 2
        }
        return 1
    }

    /// Posts `body` from `sender`; it may commit only when it passes the checks (the model's, not the machine's).
    mutating func post(_ body: FuzzBody, from sender: (isMainFrame: Bool, origin: String?)) {
        let allowedOrigin: Bool
        switch sender.origin {
        case nil, hostedOrigin?, "HTTPS://CMP.example.com:443"?: allowedOrigin = true
        case fallbackOrigin?: allowedOrigin = fallbackShown
        default: allowedOrigin = false
        }
        let mayCommit = sender.isMainFrame && allowedOrigin && body.carriesConsent && isLive
        let message = ScriptMessage(
            handlerName: body.handler, body: .json(body.json), isMainFrame: sender.isMainFrame, origin: sender.origin)
        feed(.webView(.message(message), now: fuzzNow), .message(mayCommit: mayCommit))
    }

    /// A load event of the current load, a replaced one, a page-initiated navigation or one never started.
    mutating func loadEvent(_ variant: Int, _ argument: UInt8) {
        let ids = [lastLoad, lastLoad - 1, nil, lastLoad + 1] as [Int?]
        let load = ids[Int(argument) & 3].map(WebViewLoadID.init(rawValue:))
        func failure(_ domain: String, _ code: Int) -> WebViewEvent {
            .didFailLoading(WebViewLoadFailure(url: nil, domain: domain, code: code, description: "fuzz"), load: load)
        }
        let status = [200, 302, 399, 400, 404, 500, 503, 200][Int(argument >> 2) & 7]
        let event: WebViewEvent
        switch variant {
        case 0, 1: event = .didFinishLoading(nil, load: load)
        case 2: event = failure(WebViewLoadFailure.urlErrorDomain, -999)
        case 3: event = failure(WebViewLoadFailure.webKitErrorDomain, 102)
        case 4: event = failure(WebViewLoadFailure.webKitGTKNetworkErrorDomain, 302)
        case 5: event = failure(WebViewLoadFailure.webKitGTKPolicyErrorDomain, 102)
        case 6: event = failure(WebViewLoadFailure.urlErrorDomain, -1009)
        case 7, 8: event = .didReceiveResponse(fuzzHostedDocument, statusCode: status, load: load)
        case 9: event = .didReceiveResponse(fuzzForeignDocument, statusCode: status, load: load)
        case 10: event = .didReceiveResponse(nil, statusCode: status, load: load)
        case 11: event = .didReceiveResponse(setup.fallbackURL, statusCode: status, load: load)
        default: event = .contentProcessDidTerminate
        }
        feed(.webView(event, now: fuzzNow), .other)
    }

    /// A navigation: decided (an allowed main-frame navigation stays on an allowed origin); a redirect it names is fed
    /// back at once, as the runner does.
    mutating func navigate(to target: (url: URL?, scheme: String, origin: String?), _ variant: Int) {
        let url = target.url
        let request = NavigationRequest(url: url, isMainFrame: variant & 1 == 0, opensNewWindow: variant & 2 != 0)
        let answer = machine.decide(request)
        let decision = answer.decision
        let scheme = target.scheme
        if decision == .allow, request.isMainFrame || request.opensNewWindow, scheme != "about" {
            let origin = target.origin
            fuzzCheck(!request.opensNewWindow && (origin == hostedOrigin || (fallbackShown && origin == fallbackOrigin)),
                      "the consent page was replaced by \(url?.absoluteString ?? "nil")")
        }
        if case .openExternally(let target) = decision {
            fuzzCheck(target == url && ["http", "https", "mailto", "tel"].contains(scheme), "handed out \(target)")
        }
        guard let redirect = answer.redirect else { return }
        fuzzCheck(isLive, "a redirect named after the run: \(redirect)")
        fuzzCheck(decision == .cancel, "a redirect not cancelled: \(decision)")
        fuzzCheck(request.isMainFrame && !request.opensNewWindow && ["http", "https"].contains(scheme)
                    && redirect.url == url && redirect.origin == target.origin,
                  "a redirect named for \(request)")
        fuzzCheck(target.origin != hostedOrigin && !(fallbackShown && target.origin == fallbackOrigin),
                  "a redirect to an allowed origin: \(redirect)")
        fuzzCheck(redirect.load.rawValue == lastLoad, "a redirect of load \(redirect.load) after load #\(lastLoad)")
        feed(.loadRedirected(redirect), .navigation)
    }

    /// The current load, as the machine numbers it (`nil` before the first).
    var currentLoad: WebViewLoadID? { lastLoad == 0 ? nil : WebViewLoadID(rawValue: lastLoad) }

    /// A stray or late answer to a save (the runner answers each save once, so none comes from it): a save never
    /// asked for, an earlier one, or the last one again. Taken only when it is the live run's latest save of the
    /// current load and not answered yet (then its failure is reported); otherwise ignored with one diagnostic. The
    /// harness answers every save, so a second answer to the latest one is ignored.
    mutating func strayAnswer(_ variant: Int) {
        var id = requestsSeen
        switch variant % 3 {
        case 0: id = requestsSeen + 1
        case 1: id = requestsSeen - 1
        default: break
        }
        let taken = isLive && requestsSeen > 0 && id == requestsSeen && lastSaveLoad == currentLoad && id != lastAnswered
        let failure = ConsentStoreError.storageUnavailable(suiteName: nil)
        let effects = machine.handle(.storeAnswered(id, failure, trackingStatus: trackingStatus))
        if detached {
            fuzzCheck(effects.isEmpty, "effects after detach: \(effects)")
        } else if taken {
            fuzzCheck(effects.last == .report(.error(.storageFailed(IABConsentError(failure)))), "the latest save's answer: \(effects)")
        } else {
            fuzzCheck(effects.count == 1 && { if case .report(.diagnostic) = effects[0] { true } else { false } }(),
                      "a stray answer to \(id) taken: \(effects)")
        }
        for effect in effects { perform(effect, .answer) }
    }

    /// A redirect of a load that is not the current one (replaced, or never started): it has no effect.
    mutating func strayRedirect(_ variant: Int) {
        let load = variant == 13 && lastLoad > 1 ? lastLoad - 1 : lastLoad + 1
        let effects = machine.handle(.loadRedirected(BridgeMachine.LoadRedirect(
            load: WebViewLoadID(rawValue: load), url: URL(string: "https://elsewhere.example/privacy")!,
            origin: "https://elsewhere.example")))
        fuzzCheck(effects.isEmpty, "a redirect of load \(load) after load #\(lastLoad) had effects: \(effects)")
    }

    /// Whether the harness's model pauses `timer` now.
    func pauses(_ timer: BridgeMachine.Timer) -> Bool {
        timer == .trackingSettle ? inactive : inBackground || covered
    }

    /// Feeds `input` and performs its effects in order, as the runner does; an effect answered at once (a save, the
    /// tracking status read) is answered once every effect of the input was performed.
    mutating func feed(_ input: BridgeMachine.Input, _ context: Context) {
        let effects = machine.handle(input)
        if case .start = input, effects.contains(where: { $0.startsTheRun }) { started = true }
        for effect in effects { perform(effect, context) }
        let answers = writes
        writes = []
        for (save, error) in answers { answer(save, error) }
        if effects.contains(.readTrackingStatus) { feed(.trackingStatusRead(trackingStatus), .trackingAnswer) }
    }

    /// Performs one effect and checks it.
    mutating func perform(_ effect: BridgeMachine.Effect, _ context: Context) {
        fuzzCheck(!detached, "\(effect) after detach")
        switch effect {
        case .load(let url, let id):
            fuzzCheck(setup.loadable.contains(url), "loaded \(url)")
            fuzzCheck(id.rawValue == lastLoad + 1, "load \(id) after load #\(lastLoad)")
            fuzzCheck(isLive, "a load after the UI finished")
            lastLoad = id.rawValue
            if url == setup.fallbackURL { fallbackShown = true }
        case .evaluate:
            fuzzCheck(machine.configuration.mode == .settings, "a script evaluated in consent mode")
        case .injectStoredRecord(let origin):
            let target = origin == hostedOrigin ? origin : SecurityOrigin.normalize(origin)
            fuzzCheck(target == hostedOrigin || (fallbackShown && target == fallbackOrigin), "the record posted to \(origin)")
            guard case .message = context else { return fuzzCheck(false, "the record injected in answer to \(context)") }
        case .store(let save):
            guard case .message(let mayCommit) = context, mayCommit else {
                return fuzzCheck(false, "stored in answer to \(context)")
            }
            commits += 1
            fuzzCheck(commits == 1, "two saves for one message")
            fuzzCheck(save.id == requestsSeen + 1, "save \(save.id) after \(requestsSeen) saves")
            requestsSeen = save.id
            lastSaveLoad = currentLoad
            let source: ConsentProvenance.Source = fallbackShown ? .fallbackPage : .cmpPage
            fuzzCheck(save.provenance.source == source && save.record.source == source, "save source \(save.provenance)")
            writes.append((save, write(save)))
        case .report(let event):
            report(event, context)
        case .schedule(let timer, let seconds):
            fuzzCheck(seconds == setup.seconds[timer], "\(timer) scheduled for \(seconds) s")
            // After the UI only App Tracking Transparency's settling may arm a timer, in answer to its early denial.
            if case .trackingAnswer = context, timer == .trackingSettle {
                fuzzCheck(!detached, "\(timer) scheduled after detach")
            } else {
                fuzzCheck(isLive, "\(timer) scheduled after the UI finished")
            }
            scheduled.insert(timer)
            paused.remove(timer)
        case .cancel(let timer):
            fuzzCheck(scheduled.contains(timer), "\(timer) cancelled but not armed")
            scheduled.remove(timer)
            paused.remove(timer)
        case .pause(let timer):
            fuzzCheck(scheduled.contains(timer) && !paused.contains(timer), "\(timer) paused but not running")
            fuzzCheck(pauses(timer), "\(timer) paused while nothing pauses it")
            paused.insert(timer)
        case .resume(let timer):
            fuzzCheck(paused.contains(timer), "\(timer) resumed but not paused")
            fuzzCheck(!pauses(timer), "\(timer) resumed while it is to be paused")
            paused.remove(timer)
        case .readTrackingStatus:
            switch context {
            case .lifecycle(.didBecomeActive), .timer(.trackingSettle): break
            default: fuzzCheck(false, "the tracking status read again in answer to \(context)")
            }
        case .waitUntilActive:
            waitsForActiveApp = true
        case .requestTracking:
            guard case .appActive = context else { return fuzzCheck(false, "tracking requested in answer to \(context)") }
            fuzzCheck(machine.configuration.tracking.isEnabled, "tracking requested though the app did not enable it")
            waitsForTrackingAnswer = true
        case .openAppSettings:
            guard case .message = context else { return fuzzCheck(false, "Settings opened in answer to \(context)") }
            fuzzCheck(machine.state == .ready, "Settings opened while the page was not ready")
        case .clearStore:
            guard case .timer(.ready) = context else { return fuzzCheck(false, "store cleared in answer to \(context)") }
            fuzzCheck(machine.configuration.clearsConsentOnTimeout, "store cleared though the app did not opt in")
            keys = IABKeySet()
            record = nil
        case .detach:
            detached = true
            scheduled.removeAll()
            paused.removeAll()
        }
    }

    mutating func report(_ event: ConsentBridgeEvent, _ context: Context) {
        switch event {
        case .uiFinished(let reason):
            uiFinishedCount += 1
            fuzzCheck(uiFinishedCount == 1, "the UI finished twice")
            // The failure that ends the UI is reported once, just before it, and only then does it end as failed.
            fuzzCheck(reason.keepsErrorOnScreen == (failedCount == 1), "the UI finished (\(reason)) after \(failedCount) failures")
        case .failed:
            failedCount += 1
            fuzzCheck(failedCount == 1 && uiFinishedCount == 0, "a failure ended a UI that had ended")
        case .uiReady:
            uiReadyCount += 1
            fuzzCheck(uiReadyCount == 1, "the UI announced ready twice")
        case .consentReady, .userAction:
            guard case .answer = context else { return fuzzCheck(false, "\(event) in answer to \(context)") }
        case .trackingAuthorization:
            guard case .trackingAnswer = context else { return fuzzCheck(false, "\(event) in answer to \(context)") }
        case .diagnostic, .error:
            break
        }
    }

    /// The runner's answer to a save written (`error`: `nil`) or not: the machine must announce exactly what was
    /// stored, or report the failure.
    mutating func answer(_ save: BridgeMachine.Save, _ error: ConsentStoreError?) {
        let effects = machine.handle(.storeAnswered(save.id, error, trackingStatus: trackingStatus))
        lastAnswered = save.id
        let announced = effects.compactMap { if case .report(.consentReady(let summary)) = $0 { summary } else { nil } }
        if error == nil {
            fuzzCheck(announced.map(\.record) == [save.record], "stored but not announced: \(effects)")
        } else {
            fuzzCheck(announced.isEmpty, "announced unstored consent")
            fuzzCheck(effects.contains { if case .report(.error) = $0 { true } else { false } }, "a failed save not reported")
        }
        for effect in effects { perform(effect, .answer) }
    }

    /// The model store's write: keys and record replaced together; `nil`: written. The keys are the mapping's
    /// (`MappedIABKeys`), which the store does not check again: every one must pass the store's rules.
    mutating func write(_ save: BridgeMachine.Save) -> ConsentStoreError? {
        if failNextWrite {
            failNextWrite = false
            return .storageUnavailable(suiteName: nil)
        }
        for (key, value) in save.keys {
            do {
                try ConsentStore.validate(key, value)
            } catch {
                fuzzCheck(false, "the mapping produced an invalid key: \(error)")
            }
        }
        keys = save.keys.keySet
        record = save.record
        checkStore()
        return nil
    }

    /// The keys and the record describe the same consent.
    func checkStore() {
        func string(_ key: IABKey) -> String? {
            if case .string(let value)? = keys[key] { return value }
            return nil
        }
        fuzzCheck(string(.tcString) == record?.strings.tcString, "IAB keys and record disagree on the TC string")
        fuzzCheck(string(.gppString) == record?.strings.gppString, "IAB keys and record disagree on the GPP string")
        fuzzCheck(string(.usPrivacyString) == record?.strings.usPrivacy, "IAB keys and record disagree on US Privacy")
    }

    /// The app invalidates the bridge at the end: it detaches unless it already did, and only once.
    mutating func end() {
        let effects = machine.handle(.invalidate)
        fuzzCheck(effects == (detached ? [] : [.detach]), "invalidate at the end: \(effects)")
    }
}

/// The time of every web view event of a sequence (a save's date).
private let fuzzNow = Date(timeIntervalSince1970: 1_750_000_000)

extension BridgeMachine.Effect {
    /// Whether this effect of a start means the run started (the page loads, or the tracking prompt comes first).
    fileprivate var startsTheRun: Bool {
        switch self {
        case .load, .waitUntilActive: return true
        default: return false
        }
    }
}
