import Foundation

// Fuzz target "journey": random user journeys through the composed kit — bridge, presentation lifecycle, consent
// gate, pre-warmer, tracking client, the app's lifecycle, the store and its migration — with a fake web view, a fake
// clock and a fake tracking client (Fuzz/Targets/Journey/JourneyKit.swift: the only file that calls the kit's API).
// After every step the promises 1–6 of issue 36 are checked (JourneyInvariants.swift); at the end of the journey
// everything is given the time to end (prompts answered, screens dismissed, the clock run for minutes) and the
// promises that need an end are checked: every run ended, every shown presentation got its outcome once.
//
// Input: 2 header bytes (tracking policy and prompt, migration, a previous SDK's keys, consent required), then steps
// of 2 bytes (operation, argument); see `JourneyWorld.step(_:_:)`.

/// What the journey knows of one presentation (weakly: the journey must not keep what the app let go).
@MainActor
final class PresentationRecord {
    weak var presentation: JourneyPresentation?
    weak var bridge: ConsentBridge?
    weak var webView: JourneyWebView?
    let wasPrewarmed: Bool
    var deliveries = 0
    var wasShown = false
    var tornDown = false
    var appHeld = true
    /// UIKit's reference while it presents it.
    var uikit: JourneyPresentation?
    /// The app's reference (a property, SwiftUI state).
    var app: JourneyPresentation?
    var dismissRequested = false

    init(_ presentation: JourneyPresentation) {
        self.presentation = presentation
        bridge = presentation.bridge
        webView = presentation.webView
        wasPrewarmed = presentation.wasPrewarmed
    }

    /// Whether its session was never asked for nor started (a SwiftUI sheet that never appeared).
    var neverBegan: Bool { presentation.map { $0.phase == .idle && !$0.session.isStarted } ?? false }
    var runIsOver: Bool { bridge == nil || bridge?.state == .invalidated }
    /// Whether UIKit may show it: asked for, not yet dismissed or torn down.
    var mayBeOnScreen: Bool { !tornDown && (presentation?.mayBeOnScreen ?? false) }
}

private let marketingTC = (try? TCString(
    cmpID: 300, vendorListVersion: 150, policyVersion: 5, purposeConsents: IDSet(1...11), vendorConsents: [1, 755])
    .encoded()) ?? ""
private let plainTC = (try? TCString(
    cmpID: 300, vendorListVersion: 150, policyVersion: 5, purposeConsents: [1], vendorConsents: [1]).encoded()) ?? ""
private let previousSDKTC = (try? TCString(
    cmpID: 10, vendorListVersion: 3, policyVersion: 5, purposeConsents: [1, 8], vendorConsents: [1]).encoded()) ?? ""

private func tcfBody(_ status: String, _ tc: String) -> String {
    "{\"type\":\"tcf\",\"eventStatus\":\"\(status)\",\"tcString\":\"\(tc)\"}"
}
private let saveMarketing = tcfBody("useractioncomplete", marketingTC)
private let savePlain = tcfBody("useractioncomplete", plainTC)
private let reReportMarketing = tcfBody("tcloaded", marketingTC)
private let reReportPlain = tcfBody("tcloaded", plainTC)

@MainActor
final class JourneyWorld {
    let kit = JourneyKit()
    var records: [PresentationRecord] = []
    var webViews: [JourneyWebView] = []
    var foreground = true
    var active = true
    /// Settings openings in this foreground period, per page (web view).
    var settingsOpenedThisForeground: [ObjectIdentifier: Int] = [:]
    /// Whether the opener of this step's Settings request cannot open (an app extension's): the app stays in front.
    var settingsOpenerFails = false
    /// Whether Settings opened in this step: the Settings app comes to the front, the app leaves for the background.
    var leftForSettings = false
    var seededPreviousSDK = false
    var anyCommit = false
    var userChoseSinceClear = false
    var gateWaiting = false
    /// What the page posted last: a user's choice (`true`) or a re-report (`false`), `nil` for anything else.
    var posting: Bool?
    var committedDuringPost = false

    init() {
        kit.makeWebView = { [unowned self] in
            let webView = JourneyWebView()
            webView.onOpenSettings = { [unowned self, unowned webView] in self.settingsOpened(by: webView) }
            self.webViews.append(webView)
            return webView
        }
    }

    var uiMayBeOnScreen: Bool { records.contains { $0.mayBeOnScreen } }

    var promptMayBeOnScreen: Bool {
        switch kit.tracking.alert {
        case .none, .pending(showIn: nil): return false
        case .pending, .onScreen: return true
        }
    }

    /// The presentation the app works with: the newest one.
    var current: PresentationRecord? { records.last }

    // MARK: A journey

    func run(_ ops: [UInt8]) {
        let a = ops.count > 0 ? ops[0] : 0
        let b = ops.count > 1 ? ops[1] : 0
        let policies: [TrackingPolicy] = [.disabled, .afterConsent(), .afterConsent(), .beforeCMP]
        seededPreviousSDK = b & 2 != 0
        kit.reset(tracking: policies[Int(a & 3)], migration: b & 1 != 0, consentRequired: b & 4 == 0,
                  previousSDK: seededPreviousSDK ? previousSDKTC : nil)
        configureTracking(a >> 2)
        var index = 2
        if journeyTrace { trace("journey: tracking \(kit.configuration.tracking), migration \(kit.migrationEnabled), previous SDK \(seededPreviousSDK), consent required \(kit.consentRequired), tracking client: early denied \(kit.tracking.earlyDenied), alert after \(String(describing: kit.tracking.showDelay)) s, answered \(kit.tracking.answer) after \(kit.tracking.answerDelay) s") }
        while index + 1 < ops.count {
            if journeyTrace { trace("step \(index / 2): \(JourneyWorld.describe(ops[index], ops[index + 1]))") }
            step(ops[index], ops[index + 1])
            index += 2
            afterStep()
            if journeyTrace { trace("   -> \(state) stored TC string \(kit.store.record(includingNonTCFData: false)?.tcString.map { String($0.suffix(10)) } ?? "none")") }
        }
        if journeyTrace { trace("end of journey: settling") }
        finish()
        tearDownJourney()
    }

    /// The tracking client's behaviour: early `.denied` or not, the alert's delay (or never), the answer.
    private func configureTracking(_ bits: UInt8) {
        kit.tracking.earlyDenied = bits & 1 != 0
        kit.tracking.showDelay = bits & 6 == 6 ? nil : TimeInterval((bits >> 1) & 3) * 3
        kit.tracking.answerDelay = TimeInterval((bits >> 3) & 3) * 4 + 1
        kit.tracking.answer = [.authorized, .denied, .authorized, .denied][Int(bits >> 5) & 3]
    }

    func step(_ op: UInt8, _ arg: UInt8) {
        switch op & 15 {
        case 0: present(takePrewarm: arg & 1 != 0, appKeeps: arg & 2 != 0, showsAtOnce: arg & 4 != 0, sheetLater: arg & 8 != 0)
        case 1: if let record = current, let p = record.presentation { shown(record, p) }
        case 2: presentTwice()
        case 3: dismiss(arg)
        case 4: if let p = current?.presentation { kit.covered(p) }
        case 5: if let p = current?.presentation { kit.uncovered(p) }
        case 6: tearDown()
        case 7:
            current?.app = nil
            current?.appHeld = false
        case 8: arg & 1 == 0 ? enterBackground() : enterForeground()
        case 9: arg & 1 == 0 ? resignActive() : becomeActive()
        case 10: page(arg)
        case 11: advance(TimeInterval(arg & 15) + (arg & 16 != 0 ? 30 : 0.5))
        case 12:
            switch arg & 3 {
            case 0, 1: kit.prewarm()
            case 2: kit.releasePrewarm()
            default: kit.memoryWarning()
            }
        case 13: gateWaiting = true
        case 14: kit.consentRequired = arg & 1 == 0
        default: if let p = current?.presentation { kit.closeTapped(p) }
        }
    }

    // MARK: Presentations

    private func present(takePrewarm: Bool, appKeeps: Bool, showsAtOnce: Bool, sheetLater: Bool) {
        guard !uiMayBeOnScreen else { return }   // the process-wide presentation gate
        let presentation = kit.makePresentation(takePrewarm: takePrewarm)
        let record = PresentationRecord(presentation)
        record.app = appKeeps ? presentation : nil
        record.appHeld = appKeeps
        record.uikit = presentation
        presentation.onFinish { [weak self, weak record] _ in
            // weak: a run a broken promise left going (counted under WEBCMP_JOURNEY_KEEP_GOING) may deliver after
            // its journey was torn down.
            guard let self, let record else { return }
            record.deliveries += 1
            self.checkOutcomeDelivery(record)
        }
        presentation.onDismissRequest { [weak record] in record?.dismissRequested = true }
        presentation.onEvent { [unowned self] event in self.bridgeEvent(event) }
        records.append(record)
        // SwiftUI: the sheet is asked for now, and appears (and loads) later.
        if sheetLater { return }
        if !kit.present(presentation) { record.uikit = nil }
        if showsAtOnce { shown(record, presentation) }
    }

    private func shown(_ record: PresentationRecord, _ p: JourneyPresentation) {
        guard !record.tornDown, p.phase == .presenting || p.phase == .covered || p.phase == .idle else { return }
        if p.phase == .idle {   // a SwiftUI sheet asked for earlier appears now
            guard !uiMayBeOnScreen, kit.present(p) else { return }
        }
        record.bridge = p.bridge   // a released pre-warm is replaced when the run starts
        record.webView = p.webView
        if p.phase != .covered {
            record.wasShown = true
            checkShownAlive(record)
        }
        // The session begins the bridge's presentation on `.shown` only while presenting (ConsentPresentationLifecycle).
        if p.phase == .presenting { p.webView.shownToUser = true }
        kit.shown(p)
    }

    private func presentTwice() {
        guard let record = current, let p = record.presentation else { return }
        let wasLive = record.bridge?.state != .invalidated
        kit.present(p)
        checkSecondPresent(record, wasLive: wasLive)
    }

    private func dismiss(_ arg: UInt8) {
        guard let record = current, let p = record.presentation, !record.tornDown else { return }
        switch arg & 3 {
        case 0:   // UIKit completes the dismissal the UI asked for
            guard record.dismissRequested else { return }
        case 1:   // the user swipes the sheet down
            guard p.bridge.allowsInteractiveDismissal, p.phase == .shown else { return }
        case 2:   // the app dismisses it
            break
        default:  // SwiftUI removes it from its parent
            kit.removedFromParent(p)
            record.uikit = nil
            return
        }
        kit.dismissed(p)
        record.uikit = nil
    }

    private func tearDown() {
        guard let record = current, let p = record.presentation, !record.tornDown, p.mayBeOnScreen else { return }
        kit.tornDown(p)
        record.tornDown = true
        record.uikit = nil
    }

    // MARK: The page

    private func page(_ arg: UInt8) {
        // The page of the current presentation, or the pre-warmed one (the newest web view).
        let webView: JourneyWebView?
        if arg & 128 != 0 { webView = webViews.last } else { webView = current?.webView }
        // Only a web view the bridge loaded has a page: before the first load (a tracking prompt before the CMP is
        // under way) there is no document to post, finish, fail or be killed (WebKit runs user scripts and message
        // handlers only in a loaded document; the fake would otherwise deliver messages no page could send).
        guard let webView, webView.eventHandler != nil, webView.lastLoad != nil else { return }
        switch arg & 15 {
        case 0, 1: webView.post("{\"type\":\"ready\"}")
        case 2: webView.post("{\"type\":\"tcf\",\"eventStatus\":\"cmpuishown\"}")
        case 3, 4: post(webView, arg & 1 == 0 ? saveMarketing : savePlain, userChoice: webView.userCanAct)
        case 5, 6: post(webView, arg & 1 == 0 ? reReportMarketing : reReportPlain, userChoice: false)
        case 7: webView.post("{\"type\":\"gpp\",\"gppString\":\"DBABTA~1YNN\"}")
        case 8:
            settingsOpenerFails = arg & 16 != 0
            webView.post("{\"type\":\"webcmp.openAppSettings\"}")
            settingsOpenerFails = false
        case 9:
            if let decision = webView.navigationPolicy?(NavigationRequest(
                url: URL(string: "app-settings:"), isMainFrame: true, opensNewWindow: arg & 16 != 0)) {
                checkNavigationDecision(decision)
            }
        case 10: webView.send(.contentProcessDidTerminate)
        case 11, 12: webView.send(.didFinishLoading(nil, load: webView.lastLoad))
        case 13:
            webView.send(.didFailLoading(
                WebViewLoadFailure(url: nil, domain: "NSURLErrorDomain", code: -1009, description: "offline"),
                load: webView.lastLoad))
        default: webView.post("{\"type\":\"close\"}")
        }
    }

    private func post(_ webView: JourneyWebView, _ body: String, userChoice: Bool) {
        posting = userChoice
        committedDuringPost = false
        let storedBefore = userChoice ? kit.store.record(includingNonTCFData: false)?.tcString : nil
        let historyBefore = kit.historyText()
        webView.post(body)
        posting = nil
        if journeyTrace {
            let stored = kit.store.record(includingNonTCFData: false)?.tcString
            trace("   posted: committed \(committedDuringPost), stored TC string \(stored == storedBefore ? "unchanged" : "changed") (\(storedBefore.map { String($0.suffix(10)) } ?? "none") -> \(stored.map { String($0.suffix(10)) } ?? "none")), history: \(kit.consentHistory().map { "\($0.provenance.source)/\($0.provenance.action)" })")
        }
        // A commit that wrote no history entry (nothing changed) says nothing about what the user did.
        if committedDuringPost, kit.historyText() != historyBefore {
            anyCommit = true
            // A user's save of the very TC string already stored may be recorded as a re-report (it changes nothing).
            let changed = kit.store.record(includingNonTCFData: false)?.tcString != storedBefore
            if userChoice && changed { userChoseSinceClear = true }
            checkHistory(lastCommitWasUserChoice: userChoice, sameConsentAgain: userChoice && !changed)
        }
    }

    private func bridgeEvent(_ event: ConsentBridgeEvent) {
        switch event {
        case .consentReady: committedDuringPost = true
        case .trackingAuthorization(let status): checkTrackingReport(status)
        default: break
        }
    }

    /// Apple (`UIApplication.openSettingsURLString`): the URL passed to `open(_:options:completionHandler:)`
    /// "launch[es] the Settings app": the app leaves for the background after the step (unless its opener could not
    /// open, as an app extension's cannot).
    private func settingsOpened(by webView: JourneyWebView) {
        settingsOpenedThisForeground[ObjectIdentifier(webView), default: 0] += 1
        if !settingsOpenerFails { leftForSettings = true }
        checkSettingsOpenings(by: webView)
    }

    // MARK: The app and time

    private var liveWebViews: [JourneyWebView] { webViews.filter { $0.eventHandler != nil } }

    private func send(_ event: AppLifecycleEvent) { kit.lifecycle(event, webViews: liveWebViews) }

    private func resignActive() {
        guard active else { return }
        active = false
        kit.tracking.active = false
        send(.willResignActive)
    }

    private func becomeActive() {
        guard !active, foreground, !isAlertOnScreen else { return }
        active = true
        kit.tracking.active = true
        send(.didBecomeActive)
    }

    private func enterBackground() {
        resignActive()
        guard foreground else { return }
        foreground = false
        send(.didEnterBackground)
    }

    private func enterForeground() {
        guard !foreground else { return becomeActive() }
        foreground = true
        settingsOpenedThisForeground.removeAll()
        send(.willEnterForeground)
        becomeActive()
    }

    private var isAlertOnScreen: Bool {
        if case .onScreen = kit.tracking.alert { return true }
        return false
    }

    /// Moves the clock on in steps of at most one second; the tracking alert shows after its delay of active time,
    /// makes the app resign active, and is answered after its delay, which makes the app active again.
    private func advance(_ seconds: TimeInterval) {
        // UIKit completes a presentation's transition well within a second.
        for record in records { if let p = record.presentation, p.phase == .presenting { shown(record, p) } }
        var left = seconds
        while left > 0 {
            // One-second ticks while the tracking alert is to show or up (its delays count in whole seconds);
            // otherwise the clock jumps (the kit's timers still fire in order, each followed by `settle()`).
            let alertPending: Bool
            switch kit.tracking.alert {
            case .none, .pending(showIn: nil): alertPending = false
            case .pending, .onScreen: alertPending = true
            }
            let tick = alertPending ? min(1, left) : left
            // A jump stops where a request makes an alert pending (iOS shows it after its delay of active time, in
            // one-second ticks from then on): time must not run past an alert that is to show.
            let unused = kit.clock.advance(by: tick, after: { self.kit.settle() },
                                           stopWhen: { !alertPending && self.promptMayBeOnScreen })
            left -= tick - unused
            if unused > 0 { continue }
            switch kit.tracking.alert {
            case .pending(showIn: let delay?) where active:
                if delay - tick <= 0 {
                    kit.tracking.alert = .onScreen(answerIn: kit.tracking.answerDelay)
                    resignActive()
                } else {
                    kit.tracking.alert = .pending(showIn: delay - tick)
                }
            case .onScreen(answerIn: let delay):
                if delay - tick <= 0 {
                    kit.tracking.alert = .none
                    kit.tracking.status = kit.tracking.answer
                    becomeActive()
                } else {
                    kit.tracking.alert = .onScreen(answerIn: delay - tick)
                }
            default: break
            }
            kit.settle()
        }
    }

    private func afterStep() {
        kit.settle()
        if leftForSettings {
            leftForSettings = false
            enterBackground()
            kit.settle()
        }
        checkMigration()
        if gateWaiting {
            checkGate()
            if kit.gateDecision() != nil { gateWaiting = false }
        }
    }

    /// The world in one line, for traces.
    var state: String {
        let presentations = records.map { record in
            "[\(record.presentation.map { "\($0.phase)" } ?? "released")\(record.tornDown ? " torn down" : "") bridge \(record.bridge.map { "\($0.state)" } ?? "gone") outcomes \(record.deliveries)]"
        }
        return "presentations \(presentations.joined(separator: " ")) alert \(kit.tracking.alert) status \(kit.tracking.status) foreground \(foreground) active \(active) pre-warmed \(kit.isPrewarmed) gate \(gateWaiting ? String(describing: kit.gateDecision()) : "not waiting") t=\(kit.clock.elapsed)"
    }

    /// A step in words.
    static func describe(_ op: UInt8, _ arg: UInt8) -> String {
        switch op & 15 {
        case 0: return "present (take pre-warm \(arg & 1 != 0), app keeps it \(arg & 2 != 0), shows at once \(arg & 4 != 0), SwiftUI sheet appears later \(arg & 8 != 0))"
        case 1: return "UIKit shows it"
        case 2: return "present(from:) again (double tap)"
        case 3: return ["UIKit completes the requested dismissal", "the user swipes it down", "the app dismisses it", "SwiftUI removes it from its parent"][Int(arg & 3)]
        case 4: return "covered"
        case 5: return "uncovered"
        case 6: return "screen torn down (root replaced)"
        case 7: return "the app drops its reference"
        case 8: return arg & 1 == 0 ? "app to background" : "app to foreground"
        case 9: return arg & 1 == 0 ? "app resigns active" : "app becomes active"
        case 10:
            let what = ["page ready", "page ready", "page: cmpuishown", "page: user saves (marketing)", "page: user saves (no marketing)",
                        "page: re-report tcloaded (marketing)", "page: re-report tcloaded (no marketing)", "page: GPP update",
                        "page asks for Settings", "page navigates to app-settings:", "page killed (content process)",
                        "load finished", "load finished", "load failed (offline)", "page: close", "page: close"][Int(arg & 15)]
            let opener = arg & 15 == 8 && arg & 16 != 0 ? " (its opener cannot open)" : ""
            return what + opener + (arg & 128 != 0 ? " (newest web view)" : "")
        case 11: return "clock +\(TimeInterval(arg & 15) + (arg & 16 != 0 ? 30 : 0.5)) s"
        case 12: return ["pre-warm", "pre-warm", "release the pre-warm", "memory warning"][Int(arg & 3)]
        case 13: return "the app waits on the gate"
        case 14: return "consent required \(arg & 1 == 0)"
        default: return "the user taps Close"
        }
    }

    /// Gives everything the time to end: the app in front and active, the prompt answered, every screen on it
    /// shown and dismissed, minutes on the clock; then the promises that need an end.
    private func finish() {
        enterForeground()
        // Eight rounds of 30 s, and one more per presentation: runs waiting for tracking settle one at a time (one
        // request over the client in flight, each with a 10 s settle window of active time, each resumed through a
        // task), so a journey of many torn-down presentations needs more rounds (fifteen needed more than eight).
        for _ in 0..<(8 + records.count) {
            for record in records where record.mayBeOnScreen {
                guard let p = record.presentation else { continue }
                if p.phase == .presenting { shown(record, p) }
                if p.phase == .covered { kit.uncovered(p) }
                kit.dismissed(p)
                record.uikit = nil
            }
            advance(30)
            enterForeground()
        }
        kit.releasePrewarm()
        kit.settle()
        checkEveryRunEnded()
        checkEveryOutcomeDelivered()
        checkGate()
    }

    /// Ends whatever is left (so that nothing reaches the next journey) and empties the world.
    private func tearDownJourney() {
        for record in records { record.bridge?.invalidate() }
        kit.releasePrewarm()
        kit.tracking.resumeWaitingForActive()   // what still waits for an active app ends with its bridge
        records.removeAll()
        webViews.removeAll()
        kit.settle()
        kit.forgetSessions()
        drainMainQueue()
        foreground = true
        active = true
        settingsOpenedThisForeground.removeAll()
        leftForSettings = false
        anyCommit = false
        userChoseSinceClear = false
        gateWaiting = false
    }
}

/// `WEBCMP_JOURNEY_TRACE=1`: every step and the world after it on standard error (to read a reproducer:
/// `WEBCMP_JOURNEY_TRACE=1 WEBCMP_FUZZ_TARGET=journey .build/fuzz/webcmp-fuzz-machine CRASH-FILE`).
let journeyTrace = ProcessInfo.processInfo.environment["WEBCMP_JOURNEY_TRACE"] != nil

func trace(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

@MainActor private var journeyWorld: JourneyWorld?
@MainActor private var journeyCount = 0

func fuzzJourney(_ bytes: UnsafeRawBufferPointer) {
    let ops = Array(bytes)
    MainActor.assumeIsolated {
        let world = journeyWorld ?? JourneyWorld()
        journeyWorld = world
        world.run(ops)
        journeyCount += 1
        if journeyCount == 1, journeyKeepGoing || journeyOnlyPromise != nil { atexit { MainActor.assumeIsolated { printJourneyViolations() } } }
        if journeyCount % 100_000 == 0 { printJourneyViolations() }
    }
}

/// The journeys run so far and, under `WEBCMP_JOURNEY_KEEP_GOING`, how often each promise broke.
@MainActor
func printJourneyViolations() {
    var text = "journeys: \(journeyCount)\n"
    for (promise, count) in journeyViolations.sorted(by: { $0.key < $1.key }) { text += "  broken \(count)x: promise \(promise)\n" }
    FileHandle.standardError.write(Data(text.utf8))
}
