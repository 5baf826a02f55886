import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The app's lifecycle and a covered UI (`BridgeMachine.swift`, "Timers" and "The app's lifecycle"): the page's time
/// is the machine's time, so armed timers pause while the app is in the background or the UI is covered and resume
/// when both are over; a web content process terminated in the background reloads in the foreground, once per page;
/// App Tracking Transparency's early `.denied` is read again at the app's next activation, bounded.
extension BridgeMachineTests {
    typealias Lifecycle = AppLifecycleEvent

    /// One of UIKit's lifecycle notifications, as the adapter reports it.
    static func app(_ event: Lifecycle) -> Input { .webView(.appLifecycle(event)) }
    /// UIKit's order when the app leaves: `willResignActive`, `didEnterBackground`.
    static var leaves: [Input] { [app(.willResignActive), app(.didEnterBackground)] }
    /// UIKit's order when the app returns: `willEnterForeground`, `didBecomeActive`.
    static var returns: [Input] { [app(.willEnterForeground), app(.didBecomeActive)] }

    /// One phase and what each of UIKit's four notifications, in their order, does in it: leaving pauses exactly the
    /// timers armed in that phase, returning resumes them; nothing else happens and the state stays.
    struct LifecyclePhase: @unchecked Sendable, CustomTestStringConvertible {
        let phase: Transition
        /// The effects of `willResignActive`, `didEnterBackground`, `willEnterForeground`, `didBecomeActive`.
        let effects: [[Effect]]
        var testDescription: String { phase.name }
    }

    /// The settling phase: App Tracking Transparency answered `.denied` early after the UI.
    static let settlingPhase = Transition(
        "finished, the tracking answer settling",
        configure: MachineFlows.trackingAfterConsent,
        MachineFlows.savedWithTrackingPending + [
            .timerFired(.finishDelay), .appActive, .trackingAnswered(.success(.denied), statusNow: .notDetermined),
        ],
        effects: [.schedule(.trackingSettle, seconds: 10)], state: .finished(.consentSaved))

    static let lifecycleInEveryPhase: [LifecyclePhase] = {
        let nothing: [[Effect]] = [[], [], [], []]
        var rows = phases.map { phase -> LifecyclePhase in
            switch phase.name {
            case "loading": return LifecyclePhase(phase: phase, effects: [[], [.pause(.ready)], [.resume(.ready)], []])
            default: return LifecyclePhase(phase: phase, effects: nothing)
            }
        }
        rows.append(LifecyclePhase(
            phase: settlingPhase,
            // The settle window counts the app's active time: it pauses as the app resigns active (the alert is up),
            // not only in the background, and goes on (and the status is read again) only once it is active again.
            effects: [[.pause(.trackingSettle)], [], [], [.resume(.trackingSettle), .readTrackingStatus]]))
        return rows
    }()

    @Test(arguments: lifecycleInEveryPhase)
    func backgroundAndForegroundInEveryPhase(_ row: LifecyclePhase) {
        row.phase.check()
        var machine = row.phase.machineAfterInputs()
        let before = machine.state
        for (input, expected) in zip(Self.leaves + Self.returns, row.effects) {
            #expect(machine.handle(input) == expected, "\(row.phase.name): \(input)")
        }
        #expect(machine.state == before, "\(row.phase.name)")
    }

    @Test(arguments: phases)
    func aForegroundAppThatBecomesActiveAgainChangesNothing(_ phase: Transition) {
        var machine = phase.machineAfterInputs()
        let before = machine.state
        // An alert, the app switcher or Control Center: inactive, not in the background. No page timer pauses (only
        // the tracking prompt's settle window, in the flows below).
        #expect(machine.handle(Self.app(.willResignActive)) == [], "\(phase.name)")
        #expect(machine.handle(Self.app(.didBecomeActive)) == [], "\(phase.name)")
        #expect(machine.state == before, "\(phase.name)")
    }

    @Test(arguments: [
        Flow(
            "the user switches away while the banner loads: the ready timeout pauses and resumes",
            MachineFlows.startedSteps + [
                (app(.willResignActive), []),
                (app(.didEnterBackground), [.pause(.ready)]),
                (app(.didEnterBackground), []),
                (app(.willEnterForeground), [.resume(.ready)]),
                (app(.didBecomeActive), []),
                (.timerFired(.ready), [.failed(.timeout(seconds: 30)), .finished(.timedOut), .detach]),
            ],
            state: .invalidated),
        Flow(
            "a return reported only as didBecomeActive resumes too",
            MachineFlows.startedSteps + [
                (app(.didEnterBackground), [.pause(.ready)]),
                (app(.didBecomeActive), [.resume(.ready)]),
            ],
            state: .loading),
        Flow(
            "a covered consent screen pauses its timers; the run goes on and a save is stored",
            configure: tcfDialect,
            MachineFlows.startedSteps + [
                (.presentationBegan, []),
                (.presentationCovered, [.pause(.ready)]),
                (.presentationCovered, []),
                (.presentationUncovered, [.resume(.ready)]),
            ] + MachineFlows.userSaveSteps,
            state: .ready),
        Flow(
            "covered and in the background: the timers resume only when both are over",
            MachineFlows.startedSteps + [
                (.presentationBegan, []),
                (.presentationCovered, [.pause(.ready)]),
                (app(.didEnterBackground), []),
                (.presentationUncovered, []),
                (app(.willEnterForeground), [.resume(.ready)]),
            ],
            state: .loading),
        Flow(
            "a timer armed in the background is armed paused",
            configure: tcfDialect,
            MachineFlows.startedSteps + [
                (
                    .tcf(MachineBody.tcfSave(TestStrings.acceptAll)),
                    [.cancel(.ready), .uiReady(.tcf), .store(MachineCommit.tcfSave(TestStrings.acceptAll))]
                ),
                (app(.didEnterBackground), []),
                (
                    MachineCommit.stored,
                    [.userAction(), .consentReady(TestStrings.acceptAll), .finishDelay, .pause(.finishDelay)]
                ),
                (app(.willEnterForeground), [.resume(.finishDelay)]),
                (.timerFired(.finishDelay), [.finished(.consentSaved), .detach]),
            ],
            state: .invalidated),
        Flow(
            "the UI's end cancels paused timers as it cancels running ones",
            configure: gravitoDialect,
            MachineFlows.startedSteps + [
                (.presentationBegan, []),
                (app(.didEnterBackground), [.pause(.ready)]),
                (.presentationEnded, [.cancel(.ready), .finished(.dismissedByUser), .detach]),
                (app(.willEnterForeground), []),
            ],
            state: .invalidated),
    ])
    func pausingTimers(_ flow: Flow) {
        flow.check()
    }

    /// A ready page; its process then terminates.
    static var readyPageSteps: [Flow.Step] {
        MachineFlows.startedSteps + [
        (.gravito(#"{"type":"CMP-loaded"}"#), [
            .cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .uiReady(.gravito),
        ]),
        ]
    }
    static let reloadingInForeground = Effect.diagnostic(
        "the web content process terminated in the background; reloading the CMP page once when the app returns to "
            + "the foreground")

    @Test(arguments: [
        Flow(
            "terminated in the background: reloaded when the app returns, not before",
            configure: gravitoDialect,
            readyPageSteps + [
                (app(.didEnterBackground), []),
                (.webView(.contentProcessDidTerminate), [reloadingInForeground]),
                (.webView(.contentProcessDidTerminate), []),
                (app(.willEnterForeground), [reloading, .readyTimer, .loadPage(2)]),
                (app(.didBecomeActive), []),
            ],
            state: .loading),
        Flow(
            "terminated while loading in the background: the reload's timeout starts in the foreground",
            configure: gravitoDialect,
            MachineFlows.startedSteps + [
                (app(.didEnterBackground), [.pause(.ready)]),
                (.webView(.contentProcessDidTerminate), [reloadingInForeground]),
                (app(.willEnterForeground), [.resume(.ready), reloading, .cancel(.ready), .readyTimer, .loadPage(2)]),
            ],
            state: .loading),
        Flow(
            "one reload per page: a page reloaded and ready may be reloaded again",
            configure: gravitoDialect,
            readyPageSteps + [
                (.webView(.contentProcessDidTerminate), [reloading, .readyTimer, .loadPage(2)]),
                (.gravito(#"{"type":"CMP-loaded"}"#), [.cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin)]),
                (.webView(.contentProcessDidTerminate), [reloading, .readyTimer, .loadPage(3)]),
                (
                    .webView(.contentProcessDidTerminate),
                    [.failed(.webContentTerminated), .cancel(.ready), .finished(.failed), .detach]
                ),
            ],
            state: .invalidated),
    ])
    func terminationAndTheForeground(_ flow: Flow) {
        flow.check()
    }

    /// After consent, presented and dismissed: the request is under way.
    static var requestingAfterUI: [Flow.Step] {
        MachineFlows.startedSteps + MachineFlows.userSaveSteps + [
            (.timerFired(.finishDelay), [.finished(.consentSaved), .waitUntilActive]),
            (.appActive, [.requestTracking]),
        ]
    }

    @Test(arguments: [
        Flow(
            "an early denial waits for the next activation, then the status the user chose",
            configure: MachineFlows.trackingAfterConsent,
            requestingAfterUI + [
                (.trackingAnswered(.success(.denied), statusNow: .notDetermined), [.schedule(.trackingSettle, seconds: 10)]),
                (app(.willResignActive), [.pause(.trackingSettle)]),   // the alert shows: its window pauses
                (app(.didBecomeActive), [.resume(.trackingSettle), .readTrackingStatus]),
                (
                    .trackingStatusRead(.authorized),
                    [.cancel(.trackingSettle), .report(.trackingAuthorization(.authorized)), .detach]
                ),
            ],
            state: .invalidated),
        Flow(
            "an early denial with no alert: never denied; asked once more, then ends not determined",
            configure: MachineFlows.trackingAfterConsent,
            requestingAfterUI + [
                (.trackingAnswered(.success(.denied), statusNow: .notDetermined), [.schedule(.trackingSettle, seconds: 10)]),
                (.appActive, []),
                (.timerFired(.trackingSettle), [.readTrackingStatus]),
                (.trackingStatusRead(.notDetermined), [.waitUntilActive]),   // Apple: another request is needed
                (.appActive, [.requestTracking]),
                (.trackingAnswered(.success(.denied), statusNow: .notDetermined), [.schedule(.trackingSettle, seconds: 10)]),
                (.timerFired(.trackingSettle), [.readTrackingStatus]),
                (.trackingStatusRead(.notDetermined), [.report(.trackingAuthorization(.notDetermined)), .detach]),
            ],
            state: .invalidated),
        Flow(
            "the alert stays up: its window is paused until the app is active again, then the user's answer",
            configure: MachineFlows.trackingAfterConsent,
            requestingAfterUI + [
                (.trackingAnswered(.success(.denied), statusNow: .notDetermined), [.schedule(.trackingSettle, seconds: 10)]),
                (app(.willResignActive), [.pause(.trackingSettle)]),
                (app(.didEnterBackground), []),   // the user leaves with the alert up
                (app(.willEnterForeground), []),   // back, the alert still up: inactive
                (app(.didBecomeActive), [.resume(.trackingSettle), .readTrackingStatus]),
                (.trackingStatusRead(.denied), [.cancel(.trackingSettle), .report(.trackingAuthorization(.denied)), .detach]),
            ],
            state: .invalidated),
        Flow(
            "a denial the status agrees with is final at once",
            configure: MachineFlows.trackingAfterConsent,
            requestingAfterUI + [
                (.trackingAnswered(.success(.denied), statusNow: .denied), [.report(.trackingAuthorization(.denied)), .detach]),
            ],
            state: .invalidated),
        Flow(
            "a status read nobody asked for changes nothing",
            configure: MachineFlows.trackingAfterConsent,
            requestingAfterUI + [
                (.trackingStatusRead(.authorized), []),
                (.trackingAnswered(.success(.authorized), statusNow: .authorized), [.report(.trackingAuthorization(.authorized)), .detach]),
            ],
            state: .invalidated),
        Flow(
            "before the CMP: the settled answer, then the page",
            configure: {
                $0.dialect = .tcf
                $0.tracking = .beforeCMP
            },
            [
                (.attached(setupFailure: nil), []),
                (.start(trackingStatus: .notDetermined), [.waitUntilActive]),
                (.appActive, [.requestTracking]),
                (.trackingAnswered(.success(.denied), statusNow: .notDetermined), [.schedule(.trackingSettle, seconds: 10)]),
                (app(.didEnterBackground), [.pause(.trackingSettle)]),
                (app(.willEnterForeground), []),   // still inactive
                (app(.didBecomeActive), [.resume(.trackingSettle), .readTrackingStatus]),
                (
                    .trackingStatusRead(.denied),
                    [.cancel(.trackingSettle), .report(.trackingAuthorization(.denied)), .readyTimer, .loadPage(1)]
                ),
            ],
            state: .loading),
        Flow(
            "before the CMP: a UI dismissed while an early answer settles ends its run only after the alert's answer",
            configure: {
                $0.dialect = .tcf
                $0.tracking = .beforeCMP
            },
            [
                (.attached(setupFailure: nil), []),
                (.start(trackingStatus: .notDetermined), [.waitUntilActive]),
                (.presentationBegan, []),
                (.appActive, [.requestTracking]),
                (.trackingAnswered(.success(.denied), statusNow: .notDetermined), [.schedule(.trackingSettle, seconds: 10)]),
                (.presentationEnded, [.finished(.dismissedByUser)]),   // the alert is still to come: the run goes on
                (app(.willResignActive), [.pause(.trackingSettle)]),   // the alert shows
                (app(.didBecomeActive), [.resume(.trackingSettle), .readTrackingStatus]),
                (
                    .trackingStatusRead(.denied),
                    [.cancel(.trackingSettle), .report(.trackingAuthorization(.denied)), .detach]
                ),
            ],
            state: .invalidated),
    ])
    func trackingSettlesAtTheNextActivation(_ flow: Flow) {
        flow.check()
    }
}
