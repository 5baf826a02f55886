import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Table tests of ``BridgeMachine``: every transition is a row of inputs → the exact effects of the last input and the
/// state the machine is left in. No runner, no clock, no web view: the rows feed the machine what ``ConsentBridge``
/// would (including the store's answers, ``BridgeMachine/Input/storeAnswered(_:_:trackingStatus:)``, to the save the
/// machine asked for last: ``RowFeeder``), so a row names every effect. Navigations are answered by
/// ``BridgeMachine/decide(_:)``, in a table of their own (``NavigationRow``).
///
/// One file per source concern, as in `Sources/WebCMPBridge/Bridge/Machine/`: this one holds the rows' vocabulary and
/// the machine's own concerns (attaching, starting, the ready timeout, invalidation); `+Loading`, `+Messages`,
/// `+Settings` and `+Tracking` (presentation and App Tracking Transparency) the rest.
@Suite struct BridgeMachineTests {
    typealias Input = BridgeMachine.Input
    typealias Effect = BridgeMachine.Effect

    /// A configuration change of a row.
    typealias Configure = @Sendable (inout BridgeConfiguration) -> Void

    /// Attached without a setup failure and started, App Tracking Transparency not determined: the run is loading.
    static var started: [Input] { [.attached(setupFailure: nil), .start(trackingStatus: .notDetermined)] }

    /// Gravito configured (a ready message; a close message ends the UI).
    static let gravitoDialect: Configure = { $0.dialect = .gravito }
    /// Gravito configured, with the app's fallback page.
    static let gravitoWithFallback: Configure = {
        $0.dialect = .gravito
        $0.fallback = MachinePage.fallback
    }
    /// The generic TCF/GPP forwarder configured (a user's save ends the UI).
    static let tcfDialect: Configure = { $0.dialect = .tcf }
    /// Onesecondbefore configured (no ready message; its save ends the UI).
    static let osbDialect: Configure = { $0.dialect = .onesecondbefore }

    // MARK: Attaching and starting

    @Test(arguments: [
        Transition("attached: nothing to do until the start", [.attached(setupFailure: nil)], effects: [], state: .idle),
        Transition(
            "unreadable script resources: one diagnostic each",
            [.attached(setupFailure: nil, resourceFailures: ["a.js: missing", "b.js: missing"])],
            effects: [.diagnostic("a.js: missing"), .diagnostic("b.js: missing")], state: .idle),
        Transition(
            "a second attach is ignored",
            [.attached(setupFailure: nil), .attached(setupFailure: nil, resourceFailures: ["a.js: missing"])],
            effects: [], state: .idle),
        Transition("a start before the attach is ignored", [.start(trackingStatus: .notDetermined)], effects: [], state: .idle),
        Transition(
            "start: the ready timeout, then the page's load",
            started, effects: [.readyTimer, .loadPage(1)], state: .loading),
        Transition(
            "the configured timeout and query items",
            configure: {
                $0.readyTimeout = 5
                $0.language = "de"
            },
            started,
            effects: [
                .schedule(.ready, seconds: 5),
                .load(URL(string: "https://cmp.example.com/app.html?lang=de")!, id: WebViewLoadID(rawValue: 1)),
            ],
            state: .loading),
        Transition("a second start is ignored", started + [.start(trackingStatus: .notDetermined)], effects: [], state: .loading),
        Transition(
            "a setup failure ends the run without a load",
            [.attached(setupFailure: .webViewSetupFailed(.messageHandlerNameInUse("jsHandler"))), .start(trackingStatus: .notDetermined)],
            effects: [.failed(.webViewSetupFailed(.messageHandlerNameInUse("jsHandler"))), .finished(.failed), .detach],
            state: .invalidated),
        Transition(
            "a setup failure is no reason for the fallback page",
            configure: { $0.fallback = MachinePage.fallback },
            [.attached(setupFailure: .webViewSetupFailed(.urlSchemeInUse("webcmp-fallback"))), .start(trackingStatus: .notDetermined)],
            effects: [.failed(.webViewSetupFailed(.urlSchemeInUse("webcmp-fallback"))), .finished(.failed), .detach],
            state: .invalidated),
        Transition(
            "a setup failure asks for no tracking before the CMP",
            configure: { $0.tracking = .beforeCMP },
            [.attached(setupFailure: .webViewSetupFailed(.messageHandlerNameInUse("webcmpTCF"))), .start(trackingStatus: .notDetermined)],
            effects: [.failed(.webViewSetupFailed(.messageHandlerNameInUse("webcmpTCF"))), .finished(.failed), .detach],
            state: .invalidated),
        Transition(
            "tracking before the CMP: first an active app, nothing loads yet",
            configure: { $0.tracking = .beforeCMP }, started, effects: [.waitUntilActive], state: .loading),
        Transition(
            "tracking before the CMP, already determined: the page loads at once",
            configure: { $0.tracking = .beforeCMP },
            [.attached(setupFailure: nil), .start(trackingStatus: .authorized)],
            effects: [.readyTimer, .loadPage(1)], state: .loading),
        Transition(
            "pre-warmed: the ready timeout waits for a presentation",
            [.attached(setupFailure: nil), .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined)],
            effects: [.loadPage(1)], state: .loading),
        Transition(
            "pre-warmed but already presented: the ready timeout starts",
            [
                .attached(setupFailure: nil), .presentationBegan,
                .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined),
            ],
            effects: [.readyTimer, .loadPage(1)], state: .loading),
    ])
    func attachingAndStarting(_ row: Transition) {
        row.check()
    }

    // MARK: The ready timeout

    @Test(arguments: [
        Transition(
            "the page never became ready: the run ends",
            started + [.timerFired(.ready)],
            effects: [.failed(.timeout(seconds: 30)), .finished(.timedOut), .detach], state: .invalidated),
        Transition(
            "clearsConsentOnTimeout: the store is cleared before the end",
            configure: { $0.clearsConsentOnTimeout = true },
            started + [.timerFired(.ready)],
            effects: [.failed(.timeout(seconds: 30)), .clearStore, .finished(.timedOut), .detach], state: .invalidated),
        Transition(
            "with a fallback page: it loads instead, with a new timeout",
            configure: { $0.fallback = MachinePage.fallback },
            started + [.timerFired(.ready)],
            effects: [
                .diagnostic("the CMP page did not become ready within 30.0 s; showing the app's fallback page (webcmp-fallback://app)"),
                .readyTimer, .loadFallback(2),
            ],
            state: .loading),
        Transition(
            "the fallback page timing out too ends the run",
            configure: { $0.fallback = MachinePage.fallback },
            started + [.timerFired(.ready), .timerFired(.ready)],
            effects: [.failed(.timeout(seconds: 30)), .finished(.timedOut), .detach], state: .invalidated),
        Transition(
            "no fallback for consent that was given on the fallback page",
            configure: { $0.fallback = MachinePage.fallback }, renewalReason: .hostedPageNotShown,
            started + [.timerFired(.ready)],
            effects: [.failed(.timeout(seconds: 30)), .finished(.timedOut), .detach], state: .invalidated),
        Transition(
            "a fire after the page became ready is ignored",
            configure: gravitoDialect,
            started + [.gravito(#"{"type":"CMP-loaded"}"#), .timerFired(.ready)], effects: [], state: .ready),
        Transition(
            "a pre-warmed page's timer was never scheduled: a stray fire is ignored",
            [
                .attached(setupFailure: nil), .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined),
                .timerFired(.ready),
            ],
            effects: [], state: .loading),
        Transition(
            "timers that were not scheduled are ignored",
            started + [.timerFired(.finishDelay), .timerFired(.settingsAttempt)], effects: [], state: .loading),
    ])
    func readyTimeout(_ row: Transition) {
        row.check()
    }

    // MARK: Invalidation

    /// Inputs that bring the machine into each of its phases (and stages).
    static let phases: [Transition] = [
        Transition("created", [], effects: [], state: .idle),
        Transition("attached", [.attached(setupFailure: nil)], effects: [], state: .idle),
        Transition(
            "tracking first, waiting for an active app",
            configure: { $0.tracking = .beforeCMP }, started, effects: [.waitUntilActive], state: .loading),
        Transition(
            "tracking first, asked",
            configure: { $0.tracking = .beforeCMP }, started + [.appActive], effects: [.requestTracking], state: .loading),
        Transition("loading", started, effects: [.readyTimer, .loadPage(1)], state: .loading),
        Transition(
            "ready, a commit under way",
            configure: tcfDialect, started + [.tcf(MachineBody.tcfSave(TestStrings.acceptAll))],
            effects: [.cancel(.ready), .uiReady(.tcf), .store(MachineCommit.tcfSave(TestStrings.acceptAll))],
            state: .ready),
        Transition(
            "finished, the tracking prompt waits for the presentation's end",
            configure: MachineFlows.trackingAfterConsent,
            [.presentationBegan] + MachineFlows.savedWithTrackingPending + [.timerFired(.finishDelay)],
            effects: [.finished(.consentSaved)], state: .finished(.consentSaved)),
        Transition(
            "finished, the tracking prompt waits for an active app",
            configure: MachineFlows.trackingAfterConsent,
            MachineFlows.savedWithTrackingPending + [.timerFired(.finishDelay)],
            effects: [.finished(.consentSaved), .waitUntilActive], state: .finished(.consentSaved)),
        Transition(
            "finished, the tracking prompt under way",
            configure: MachineFlows.trackingAfterConsent,
            MachineFlows.savedWithTrackingPending + [.timerFired(.finishDelay), .appActive],
            effects: [.requestTracking], state: .finished(.consentSaved)),
    ]

    @Test(arguments: phases)
    func invalidateDetachesOnce(_ phase: Transition) {
        phase.check()
        var machine = phase.machineAfterInputs()
        #expect(machine.handle(.invalidate) == [.detach], "\(phase.name)")
        #expect(machine.state == .invalidated, "\(phase.name)")
        #expect(machine.handle(.invalidate) == [], "\(phase.name)")
    }

    /// One input of every kind (and every web view event, timer and answer).
    static let everyInput: [InputCase] = [
        InputCase("attached", .attached(setupFailure: nil, resourceFailures: ["a.js: missing"])),
        InputCase("attached with a setup failure", .attached(setupFailure: .webViewSetupFailed(.messageHandlerNameInUse("jsHandler")))),
        InputCase("start", .start(trackingStatus: .notDetermined)),
        InputCase("a valid message", .gravito(#"{"type":"CMP-loaded"}"#)),
        InputCase("a save", .gravito(MachineBody.gravitoSave(TestStrings.acceptAll))),
        InputCase("an invalid message", .gravito("[]")),
        InputCase("a sub-frame's message", .message("jsHandler", #"{"type":"close"}"#, mainFrame: false)),
        InputCase("a forbidden origin's message", .message("jsHandler", #"{"type":"close"}"#, origin: "https://evil.example")),
        InputCase("an HTTP error", .response("https://cmp.example.com/app.html", status: 500, load: nil)),
        InputCase("a finished load", .webView(.didFinishLoading(nil))),
        InputCase("a failed load", .failed(WebViewLoadFailure.urlErrorDomain, -1009, load: nil)),
        InputCase("a terminated web content process", .webView(.contentProcessDidTerminate)),
        InputCase("the ready timer", .timerFired(.ready)),
        InputCase("the finish-delay timer", .timerFired(.finishDelay)),
        InputCase("the settings-attempt timer", .timerFired(.settingsAttempt)),
        InputCase("presentation began", .presentationBegan),
        InputCase("presentation ended", .presentationEnded),
        InputCase("app active", .appActive),
        InputCase("tracking answered", .trackingAnswered(.success(.authorized))),
        InputCase("tracking failed", .trackingAnswered(.failure(.trackingAuthorizationFailed(.missingUsageDescription)))),
        InputCase("stored", .storeAnswered(1, nil, trackingStatus: .notDetermined)),
        InputCase("store failed", .storeAnswered(1, .tooLarge(bytes: 2_000_000, limit: 1_048_576), trackingStatus: .notDetermined)),
        InputCase("a redirect of the first load", .loadRedirected(BridgeMachine.LoadRedirect(
            load: WebViewLoadID(rawValue: 1), url: URL(string: "https://elsewhere.example/landing")!,
            origin: "https://elsewhere.example"))),
        InputCase("the tracking-settle timer", .timerFired(.trackingSettle)),
        InputCase("presentation covered", .presentationCovered),
        InputCase("presentation uncovered", .presentationUncovered),
        InputCase("the app resigns active", .webView(.appLifecycle(.willResignActive))),
        InputCase("the app in the background", .webView(.appLifecycle(.didEnterBackground))),
        InputCase("the app back in the foreground", .webView(.appLifecycle(.willEnterForeground))),
        InputCase("the app active", .webView(.appLifecycle(.didBecomeActive))),
        InputCase("an early tracking denial", .trackingAnswered(.success(.denied), statusNow: .notDetermined)),
        InputCase("the tracking status read again", .trackingStatusRead(.authorized)),
        InputCase("invalidate", .invalidate),
    ]

    /// After ``BridgeMachine/Effect/detach`` the machine emits nothing: no report, timer, load, commit or second
    /// detach, whatever comes in and whichever phase it was invalidated in.
    @Test(arguments: phases, everyInput)
    func nothingAfterInvalidation(_ phase: Transition, _ input: InputCase) {
        var machine = phase.machineAfterInputs()
        _ = machine.handle(.invalidate)
        #expect(machine.handle(input.input) == [], "\(input.name) after invalidating in \(phase.name)")
        #expect(machine.state == .invalidated)
    }

    /// A navigation is still answered (the web view no longer asks once the runner detached, but
    /// ``ConsentBridge/decidePolicy(for:)`` is public): the navigation policy's decision alone, never a redirect.
    @Test(arguments: phases)
    func aNavigationAfterInvalidationIsOnlyDecided(_ phase: Transition) {
        var machine = phase.machineAfterInputs()
        _ = machine.handle(.invalidate)
        #expect(machine.decide(.to("https://elsewhere.example/landing")) == BridgeMachine.NavigationAnswer(
            decision: .openExternally(URL(string: "https://elsewhere.example/landing")!)))
        #expect(machine.decide(.to("javascript:alert(1)")) == BridgeMachine.NavigationAnswer(decision: .cancel))
        #expect(machine.decide(.to("https://cmp.example.com/second.html")) == BridgeMachine.NavigationAnswer(decision: .allow))
    }

    @Test func theRunEndingOnItsOwnDetachesOnce() {
        var machine = MachinePage.machine { $0.dialect = .gravito }
        for input in Self.started { _ = machine.handle(input) }
        #expect(machine.handle(.gravito(#"{"type":"close"}"#)) == [.cancel(.ready), .finished(.closed), .detach])
        #expect(machine.handle(.invalidate) == [])
        #expect(machine.handle(.gravito(#"{"type":"CMP-loaded"}"#)) == [])
    }
}

// MARK: - The rows' vocabulary

/// One row of a transition table: a machine for the configuration (``MachinePage/configuration``, changed by
/// `configure`), fed `inputs`; the last input's effects must be exactly `effects`, and the machine's state `state`.
///
/// `@unchecked Sendable`: ``BridgeMachine/Input`` is not `Sendable` only because a ``ScriptMessageBody`` may hold a
/// Foundation object; rows build JSON text bodies only.
struct Transition: @unchecked Sendable, CustomTestStringConvertible {
    /// What the row shows.
    let name: String
    /// The configuration change.
    let configure: @Sendable (inout BridgeConfiguration) -> Void
    /// Why consent was needed.
    let renewalReason: ConsentRenewalReason?
    /// The inputs, in order.
    let inputs: [BridgeMachine.Input]
    /// The last input's effects.
    let effects: [BridgeMachine.Effect]
    /// The state afterwards.
    let state: ConsentBridge.State

    init(
        _ name: String, configure: @escaping @Sendable (inout BridgeConfiguration) -> Void = { _ in },
        renewalReason: ConsentRenewalReason? = .noConsent, _ inputs: [BridgeMachine.Input],
        effects: [BridgeMachine.Effect], state: ConsentBridge.State
    ) {
        self.name = name
        self.configure = configure
        self.renewalReason = renewalReason
        self.inputs = inputs
        self.effects = effects
        self.state = state
    }

    var testDescription: String { name }

    /// A machine of this row's configuration, fed every input.
    func machineAfterInputs() -> BridgeMachine {
        feederAfterInputs().machine
    }

    /// A feeder of this row's configuration, fed every input.
    func feederAfterInputs() -> RowFeeder {
        var feeder = RowFeeder(MachinePage.machine(renewalReason: renewalReason, configure))
        for input in inputs { _ = feeder.feed(input) }
        return feeder
    }

    /// Feeds the inputs and compares the last one's effects and the state.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        var feeder = RowFeeder(MachinePage.machine(renewalReason: renewalReason, configure))
        var last: [BridgeMachine.Effect] = []
        for input in inputs { last = feeder.feed(input) }
        #expect(last == effects, "\(name)", sourceLocation: sourceLocation)
        #expect(feeder.machine.state == state, "\(name)", sourceLocation: sourceLocation)
    }
}

/// A flow: every step's effects are compared, not only the last one's.
struct Flow: @unchecked Sendable, CustomTestStringConvertible {
    /// One input and its exact effects.
    typealias Step = (input: BridgeMachine.Input, effects: [BridgeMachine.Effect])

    /// What the flow shows.
    let name: String
    /// The configuration change.
    let configure: @Sendable (inout BridgeConfiguration) -> Void
    /// The steps, in order.
    let steps: [Step]
    /// The state afterwards.
    let state: ConsentBridge.State

    init(
        _ name: String, configure: @escaping @Sendable (inout BridgeConfiguration) -> Void = { _ in }, _ steps: [Step],
        state: ConsentBridge.State
    ) {
        self.name = name
        self.configure = configure
        self.steps = steps
        self.state = state
    }

    var testDescription: String { name }

    /// Feeds the steps and compares each one's effects, then the state.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        var feeder = RowFeeder(MachinePage.machine(configure))
        for (index, step) in steps.enumerated() {
            #expect(feeder.feed(step.input) == step.effects, "\(name), step \(index + 1)", sourceLocation: sourceLocation)
        }
        #expect(feeder.machine.state == state, "\(name)", sourceLocation: sourceLocation)
    }
}

/// Feeds a machine as ``ConsentBridge`` does: the store's answer to a save names the save it answers. An answer
/// written with ``RowFeeder/latest`` (``MachineCommit/stored``, ``BridgeMachine/Input/answer(_:trackingStatus:)``)
/// answers the save the machine asked for last; before any, the placeholder goes in as it is (a save never asked for).
struct RowFeeder {
    /// The placeholder of "the save the machine asked for last".
    static let latest = 0
    /// The machine.
    private(set) var machine: BridgeMachine
    /// The id of the last ``BridgeMachine/Effect/store(_:)`` so far.
    private(set) var latestSave: Int?

    init(_ machine: BridgeMachine) {
        self.machine = machine
    }

    /// Feeds `input` (its placeholder answer completed) and returns its effects.
    mutating func feed(_ input: BridgeMachine.Input) -> [BridgeMachine.Effect] {
        var input = input
        if case .storeAnswered(let id, let error, let written, let status) = input, id == Self.latest, let latestSave {
            input = .storeAnswered(latestSave, error, written: written, trackingStatus: status)
        }
        let effects = machine.handle(input)
        for case .store(let save) in effects { latestSave = save.id }
        return effects
    }
}

/// A named input, for tables over inputs.
struct InputCase: @unchecked Sendable, CustomTestStringConvertible {
    let name: String
    let input: BridgeMachine.Input

    init(_ name: String, _ input: BridgeMachine.Input) {
        self.name = name
        self.input = input
    }

    var testDescription: String { name }
}

/// The hosted page of every row, and its app's fallback page.
enum MachinePage {
    /// The CMP page (``BridgeConfiguration/cmpURL``); its origin is the only allowed one.
    static let url = URL(string: "https://cmp.example.com/app.html")!
    /// The page's origin.
    static let origin = "https://cmp.example.com"
    /// The app's fallback page, origin `webcmp-fallback://app`.
    static let fallback: FallbackPage = {
        do {
            return try FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("<p>Consent</p>".utf8))])
        } catch {
            preconditionFailure("a valid fallback page: \(error)")
        }
    }()
    /// The fallback page's entry URL.
    static let fallbackURL = URL(string: "webcmp-fallback://app/index.html")!
    /// The fallback page's origin.
    static let fallbackOrigin = "webcmp-fallback://app"

    /// The time of every row's web view events (a save's date).
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// The rows' configuration: the page, automatic dialect detection, every default.
    static var configuration: BridgeConfiguration { BridgeConfiguration(cmpURL: url) }

    /// A machine for ``configuration`` changed by `configure`.
    static func machine(
        renewalReason: ConsentRenewalReason? = .noConsent, _ configure: (inout BridgeConfiguration) -> Void = { _ in }
    ) -> BridgeMachine {
        var configuration = configuration
        configure(&configuration)
        return BridgeMachine(configuration: configuration, renewalReason: renewalReason)
    }
}

/// Message bodies, as pages post them (JSON text).
enum MachineBody {
    /// A Gravito save of `tcString`.
    static func gravitoSave(_ tcString: String) -> String {
        #"{"type":"save","tcstring":"\#(tcString)"}"#
    }

    /// A forwarded TCF event with `tcString` (`useractioncomplete`: the user's choice; `tcloaded`: what the CMP had).
    static func tcfSave(_ tcString: String, status: String = "useractioncomplete") -> String {
        #"{"type":"tcf","eventStatus":"\#(status)","tcString":"\#(tcString)"}"#
    }

    /// An Onesecondbefore consent message with `tcString`.
    static func osbSave(_ tcString: String) -> String {
        #"{"consent":{"tcString":"\#(tcString)"}}"#
    }

    /// A forwarded GPP event.
    static func gpp(_ fields: String) -> String {
        #"{"type":"gpp",\#(fields)}"#
    }

    /// What a privacy-settings call reported.
    static func settings(attempt: Int, _ result: String) -> String {
        #"{"type":"settings","attempt":\#(attempt),"result":"\#(result)"}"#
    }
}

/// Commit requests and the store's answers, as the machine builds and the runner gives them.
enum MachineCommit {
    /// The rules of a commit under the rows' configuration (default expiry: minimum policy version 4).
    static func rules(
        keepsPreviousNonTCFData: Bool = true, configVersion: String? = nil, source: ConsentProvenance.Source = .cmpPage
    ) -> ConsentCommit.Rules {
        ConsentCommit.Rules(
            configVersion: configVersion, minimumPolicyVersion: 4, keepsPreviousNonTCFData: keepsPreviousNonTCFData,
            source: source)
    }

    /// The save the machine hands the store for `payload` with the page's signals `page` under `rules`, starting
    /// from `previous`, from a page speaking `dialect`: the run's save `id`. Built by the same ``ConsentCommit`` the machine runs, at the rows' time
    /// (``MachinePage/now``), so that a row proves what the machine passes to it (the payload, the page's signals, the
    /// rules and the record in force) by what reaches the store.
    static func save(
        _ payload: ConsentPayload, page: PageSignals = PageSignals(), rules: ConsentCommit.Rules = rules(),
        previous: ConsentRecord? = nil, dialect: CMPDialect = .tcf, id: Int = 1,
        replacing: ConsentStore.RecordVersion = ConsentStore.RecordVersion()
    ) -> BridgeMachine.Save {
        do {
            let commit = try ConsentCommit(
                payload: payload, page: page, previous: previous, rules: rules, now: MachinePage.now)
            return BridgeMachine.Save(
                id: id, keys: commit.keys, record: commit.record, provenance: commit.change,
                details: ["pageURL": MachinePage.url.absoluteString, "dialect": dialect.rawValue],
                now: MachinePage.now, replacing: replacing)
        } catch {
            preconditionFailure("a row's save commits: \(error)")
        }
    }

    /// The save of a Gravito save of `tcString` (a save carries its extras, here all absent: Gravito's complete
    /// non-TCF data is theirs to write): the run's save `id`.
    static func gravitoSave(
        _ tcString: String, configVersion: String? = nil, source: ConsentProvenance.Source = .cmpPage,
        action: ConsentProvenance.Action = .userChoice, previous: ConsentRecord? = nil, id: Int = 1
    ) -> BridgeMachine.Save {
        save(
            ConsentPayload(
                action: action, strings: ConsentStrings(tcString: tcString), extras: GravitoDialect.Extras()),
            rules: rules(configVersion: configVersion, source: source), previous: previous, dialect: .gravito, id: id)
    }

    /// The payload of a forwarded TCF event with `tcString`.
    static func tcfPayload(_ tcString: String, action: ConsentProvenance.Action = .userChoice) -> ConsentPayload {
        ConsentPayload(action: action, strings: ConsentStrings(tcString: tcString))
    }

    /// The save of a forwarded TCF event with `tcString`, with the page's signals `page`: the run's save `id`.
    static func tcfSave(
        _ tcString: String, action: ConsentProvenance.Action = .userChoice, page: PageSignals = PageSignals(),
        previous: ConsentRecord? = nil, id: Int = 1
    ) -> BridgeMachine.Save {
        save(tcfPayload(tcString, action: action), page: page, previous: previous, id: id)
    }

    /// What the machine reports once `save` is stored.
    static func summary(_ save: BridgeMachine.Save) -> ConsentSummary {
        ConsentSummary(record: save.record, decoded: save.record.tcString.flatMap { try? TCString(decoding: $0) })
    }

    /// The store's answer to the latest save: written, the app's tracking status not determined.
    static var stored: BridgeMachine.Input { .answer() }

    /// The diagnostic of an answer the machine ignores.
    static func ignored(_ id: Int, _ why: String) -> BridgeMachine.Effect {
        .diagnostic("ignored the store's answer to commit \(id): \(why)")
    }
}

// MARK: - Input and effect shorthands

extension BridgeMachine.Input {
    /// A message posted to `handler` with the JSON text `body` (from the main frame of the CMP page's origin unless
    /// said otherwise).
    static func message(
        _ handler: String, _ body: String, mainFrame: Bool = true, origin: String? = MachinePage.origin
    ) -> Self {
        .webView(
            .message(ScriptMessage(handlerName: handler, body: .json(body), isMainFrame: mainFrame, origin: origin)),
            now: MachinePage.now)
    }

    /// A Gravito message (`jsHandler`).
    static func gravito(_ body: String) -> Self { .message("jsHandler", body) }
    /// A message of the TCF/GPP forwarder (`webcmpTCF`).
    static func tcf(_ body: String) -> Self { .message("webcmpTCF", body) }
    /// An Onesecondbefore message (`osbCmpMessageHandler`).
    static func osb(_ body: String) -> Self { .message("osbCmpMessageHandler", body) }

    /// The main frame finished loading (load `load`, `nil`: a navigation the page started).
    static func finished(load: Int?) -> Self {
        .webView(.didFinishLoading(nil, load: load.map(WebViewLoadID.init(rawValue:))))
    }

    /// The main frame's navigation failed with `domain` and `code`, described as "offline".
    static func failed(_ domain: String, _ code: Int, load: Int?) -> Self {
        .webView(.didFailLoading(
            WebViewLoadFailure(url: nil, domain: domain, code: code, description: "offline"),
            load: load.map(WebViewLoadID.init(rawValue:))))
    }

    /// The main frame's response for `url` with `status`.
    static func response(_ url: String?, status: Int, load: Int?) -> Self {
        .webView(.didReceiveResponse(
            url.flatMap(URL.init(string:)), statusCode: status, load: load.map(WebViewLoadID.init(rawValue:))))
    }

    /// The store's answer to the save the machine asked for last (``RowFeeder``): `error`, `nil` when written.
    static func answer(
        _ error: ConsentStoreError? = nil, trackingStatus: TrackingAuthorizationStatus = .notDetermined
    ) -> Self {
        .storeAnswered(RowFeeder.latest, error, trackingStatus: trackingStatus)
    }

    /// The web view reported `event`, at the rows' time.
    static func webView(_ event: WebViewEvent) -> Self { .webView(event, now: MachinePage.now) }
}

extension NavigationRequest {
    /// A navigation to `url` (the main frame's unless said otherwise).
    static func to(_ url: String?, mainFrame: Bool = true, newWindow: Bool = false) -> Self {
        NavigationRequest(url: url.flatMap(URL.init(string:)), isMainFrame: mainFrame, opensNewWindow: newWindow)
    }
}

extension BridgeMachine.Effect {
    /// Reports an error.
    static func error(_ error: ConsentBridgeError) -> Self { .report(.error(error)) }
    /// Reports the failure that ends the UI.
    static func failed(_ error: ConsentBridgeError) -> Self { .report(.failed(error)) }
    /// Reports a diagnostic.
    static func diagnostic(_ text: String) -> Self { .report(.diagnostic(text)) }
    /// Reports the UI ready.
    static func uiReady(_ dialect: CMPDialect) -> Self { .report(.uiReady(dialect)) }
    /// Reports the UI finished.
    static func finished(_ reason: UIFinishReason) -> Self { .report(.uiFinished(reason)) }
    /// Reports a user action.
    static func userAction(isRejectAll: Bool? = nil) -> Self { .report(.userAction(isRejectAll: isRejectAll)) }
    /// Reports `save` stored.
    static func consentReady(_ save: BridgeMachine.Save) -> Self { .report(.consentReady(MachineCommit.summary(save))) }
    /// Reports stored the user's TCF save of `tcString` (``MachineCommit/tcfSave(_:action:page:previous:id:)``).
    static func consentReady(_ tcString: String) -> Self { consentReady(MachineCommit.tcfSave(tcString)) }
    /// The default ready timeout (30 s).
    static let readyTimer = Self.schedule(.ready, seconds: 30)
    /// The default finish delay (0.5 s).
    static let finishDelay = Self.schedule(.finishDelay, seconds: 0.5)
    /// Loads the CMP page as load `id`.
    static func loadPage(_ id: Int) -> Self { .load(MachinePage.url, id: WebViewLoadID(rawValue: id)) }
    /// Loads the fallback page as load `id`.
    static func loadFallback(_ id: Int) -> Self { .load(MachinePage.fallbackURL, id: WebViewLoadID(rawValue: id)) }
}
