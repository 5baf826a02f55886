import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The presentation and App Tracking Transparency (`BridgeMachine.swift`): a UI dismissed by the user, a pre-warmed
/// page's ready timeout, and the tracking prompt after consent (once the UI is gone and the app is active) or before
/// the CMP.
extension BridgeMachineTests {
    @Test(arguments: [
        Transition(
            "presented while loading: nothing changes", configure: gravitoDialect, started + [.presentationBegan],
            effects: [], state: .loading),
        Transition(
            "the user dismissed the UI before the page finished", configure: gravitoDialect,
            started + [.presentationBegan, .presentationEnded],
            effects: [.cancel(.ready), .finished(.dismissedByUser), .detach], state: .invalidated),
        Transition(
            "after the page was ready too", configure: gravitoDialect,
            started + [.presentationBegan, .gravito(gravitoReady), .presentationEnded],
            effects: [.finished(.dismissedByUser), .detach], state: .invalidated),
        Transition(
            "pre-warmed: the presentation starts the ready timeout", configure: gravitoDialect,
            [
                .attached(setupFailure: nil), .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined),
                .presentationBegan,
            ],
            effects: [.readyTimer], state: .loading),
        Transition(
            "pre-warmed: a second presentation does not restart it", configure: gravitoDialect,
            [
                .attached(setupFailure: nil), .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined),
                .presentationBegan, .presentationBegan,
            ],
            effects: [], state: .loading),
        Transition(
            "pre-warmed and ready before it was presented: no timeout at all", configure: gravitoDialect,
            [
                .attached(setupFailure: nil), .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined),
                .gravito(gravitoReady), .presentationBegan,
            ],
            effects: [], state: .ready),
        Transition(
            "pre-warmed: ready before the presentation, no timer to stop", configure: gravitoDialect,
            [
                .attached(setupFailure: nil), .start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined),
                .gravito(gravitoReady),
            ],
            effects: [.injectStoredRecord(targetOrigin: MachinePage.origin), .uiReady(.gravito)], state: .ready),
        Transition(
            "an app becoming active or a tracking answer nobody asked for changes nothing", configure: gravitoDialect,
            started + [.appActive, .trackingAnswered(.success(.authorized))], effects: [], state: .loading),
    ])
    func presentation(_ row: Transition) {
        row.check()
    }

    @Test(arguments: [
        Flow(
            "after consent, presented: the prompt waits for the UI's end, then for an active app",
            configure: MachineFlows.trackingAfterConsent,
            MachineFlows.startedSteps + [(.presentationBegan, [])] + MachineFlows.userSaveSteps + [
                (.timerFired(.finishDelay), [.finished(.consentSaved)]),
                (.appActive, []),
                (.presentationEnded, [.waitUntilActive]),
                (.appActive, [.requestTracking]),
                (.appActive, []),
                (.trackingAnswered(.success(.authorized)), [.report(.trackingAuthorization(.authorized)), .detach]),
            ],
            state: .invalidated),
        Flow(
            "a pre-warmed page no UI has shown saves marketing consent and ends: no prompt (it follows a consent UI)",
            configure: MachineFlows.trackingAfterConsent,
            [
                (.attached(setupFailure: nil), []),
                (.start(readyTimeoutWaitsForPresentation: true, trackingStatus: .notDetermined), [.loadPage(1)]),
                (
                    .tcf(MachineBody.tcfSave(TestStrings.acceptAll)),
                    [
                        .uiReady(.tcf), .diagnostic(BridgeMachine.unseenChoice),
                        .store(MachineCommit.tcfSave(TestStrings.acceptAll, action: .reReport)),
                    ]
                ),
                (
                    MachineCommit.stored,
                    [.consentReady(MachineCommit.tcfSave(TestStrings.acceptAll, action: .reReport)), .finishDelay]
                ),
                (.timerFired(.finishDelay), [.finished(.consentSaved), .detach]),
                (.appActive, []),
            ],
            state: .invalidated),
        Flow(
            "after consent, not presented: an active app at once; a failed request is reported",
            configure: MachineFlows.trackingAfterConsent,
            MachineFlows.startedSteps + MachineFlows.userSaveSteps + [
                (.timerFired(.finishDelay), [.finished(.consentSaved), .waitUntilActive]),
                (.trackingAnswered(.success(.authorized)), []),
                (.appActive, [.requestTracking]),
                (
                    .trackingAnswered(.failure(.trackingAuthorizationFailed(.missingUsageDescription))),
                    [.error(.trackingAuthorizationFailed(.missingUsageDescription)), .detach]
                ),
            ],
            state: .invalidated),
        Flow(
            "dismissed by the user with the prompt due: the delay stops, the prompt follows",
            configure: MachineFlows.trackingAfterConsent,
            MachineFlows.startedSteps + [(.presentationBegan, [])] + MachineFlows.userSaveSteps + [
                (.presentationEnded, [.cancel(.finishDelay), .finished(.dismissedByUser), .waitUntilActive]),
                (.appActive, [.requestTracking]),
                (.trackingAnswered(.success(.denied)), [.report(.trackingAuthorization(.denied)), .detach]),
            ],
            state: .invalidated),
        Flow(
            "the app's status is already determined: no prompt",
            configure: MachineFlows.trackingAfterConsent,
            MachineFlows.startedSteps + [
                (.tcf(MachineBody.tcfSave(accept)), [.cancel(.ready), .uiReady(.tcf), .store(MachineCommit.tcfSave(accept))]),
                (
                    .answer(trackingStatus: .denied),
                    [.userAction(), .consentReady(accept), .finishDelay]
                ),
                (.timerFired(.finishDelay), [.finished(.consentSaved), .detach]),
            ],
            state: .invalidated),
        Flow(
            "no marketing purpose granted: no prompt",
            configure: MachineFlows.trackingAfterConsent,
            MachineFlows.startedSteps + [
                (
                    .tcf(MachineBody.tcfSave(TestStrings.analyticsOnly)),
                    [.cancel(.ready), .uiReady(.tcf), .store(MachineCommit.tcfSave(TestStrings.analyticsOnly))]
                ),
                (
                    MachineCommit.stored,
                    [.userAction(), .consentReady(TestStrings.analyticsOnly), .finishDelay]
                ),
                (.timerFired(.finishDelay), [.finished(.consentSaved), .detach]),
            ],
            state: .invalidated),
        Flow(
            "tracking disabled: no prompt",
            configure: tcfDialect,
            MachineFlows.startedSteps + MachineFlows.userSaveSteps + [
                (.timerFired(.finishDelay), [.finished(.consentSaved), .detach]),
            ],
            state: .invalidated),
        Flow(
            "before the CMP: an active app, the prompt, its answer, then the page",
            configure: {
                $0.dialect = .tcf
                $0.tracking = .beforeCMP
            },
            [
                (.attached(setupFailure: nil), []),
                (.start(trackingStatus: .notDetermined), [.waitUntilActive]),
                (.trackingAnswered(.success(.authorized)), []),
                (.timerFired(.ready), []),
                (.appActive, [.requestTracking]),
                (.appActive, []),
                (.trackingAnswered(.success(.denied)), [.report(.trackingAuthorization(.denied)), .readyTimer, .loadPage(1)]),
                (.trackingAnswered(.success(.denied)), []),
            ],
            state: .loading),
    ])
    func tracking(_ flow: Flow) {
        flow.check()
    }
}

/// Shared steps of the tracking flows.
enum MachineFlows {
    /// The forwarder's dialect, with App Tracking Transparency requested after consent to marketing purposes.
    static let trackingAfterConsent: BridgeMachineTests.Configure = {
        $0.dialect = .tcf
        $0.tracking = .afterConsent()
    }

    /// Attaching and starting, with their effects.
    static var startedSteps: [Flow.Step] {
        [(.attached(setupFailure: nil), []), (.start(trackingStatus: .notDetermined), [.readyTimer, .loadPage(1)])]
    }

    /// A user's save granting marketing purposes on the forwarder's page, and its answer, with their effects.
    static var userSaveSteps: [Flow.Step] {
        [
            (
                .tcf(MachineBody.tcfSave(TestStrings.acceptAll)),
                [.cancel(.ready), .uiReady(.tcf), .store(MachineCommit.tcfSave(TestStrings.acceptAll))]
            ),
            (
                MachineCommit.stored,
                [.userAction(), .consentReady(TestStrings.acceptAll), .finishDelay]
            ),
        ]
    }

    /// Started, a user's save granting marketing purposes stored (with ``trackingAfterConsent``: the prompt is due).
    static var savedWithTrackingPending: [BridgeMachine.Input] {
        BridgeMachineTests.started + [
            .tcf(MachineBody.tcfSave(TestStrings.acceptAll)), MachineCommit.stored,
        ]
    }
}
