import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Privacy settings (`BridgeMachine+Settings.swift`): the opener's calls are judged by evidence (start, call, retry,
/// window, refused, opened, failed), on every dialect: Gravito and Onesecondbefore pages by their TCF/GPP API's UI
/// signals, heard through the forwarder; in automatic detection the generic dialect's opener applies once the page is
/// ready.
extension BridgeMachineTests {
    /// The app's own call, tried first.
    static let callA = PrivacySettingsCall("A.show", name: "A")
    /// Settings mode on the forwarder: the app's call, then the presets (Didomi, Cookiebot, …).
    static let settingsByEvidence: Configure = {
        $0.dialect = .tcf
        $0.mode = .settings
        $0.privacySettings = PrivacySettingsOpener(call: callA, triesPresets: true)
    }
    /// Settings mode on the forwarder with the app's call only.
    static let settingsWithOneCall: Configure = {
        $0.dialect = .tcf
        $0.mode = .settings
        $0.privacySettings = PrivacySettingsOpener(call: callA)
    }
    /// Settings mode with automatic detection and the default opener.
    static let settingsDetected: Configure = { $0.mode = .settings }
    /// Settings mode on Gravito, with the default opener (the `layer=settings` query item, no call).
    static let gravitoSettings: Configure = {
        $0.dialect = .gravito
        $0.mode = .settings
    }

    /// Settings mode on Gravito with the app's call.
    static let gravitoSettingsWithCall: Configure = {
        $0.dialect = .gravito
        $0.mode = .settings
        $0.privacySettings = PrivacySettingsOpener(call: callA)
    }

    /// Making `call` as attempt `attempt` (the script reports to the forwarder's handler).
    static func call(_ call: PrivacySettingsCall, _ attempt: Int) -> Effect {
        .evaluate(call.script(reportingTo: "webcmpTCF", attempt: attempt))
    }

    /// The opener's window starting, then the call.
    static func attempt(_ call: PrivacySettingsCall, _ attempt: Int) -> [Effect] {
        [.schedule(.settingsAttempt, seconds: 3), Self.call(call, attempt)]
    }

    /// An opener found: its window (re)starts and it is called again after the retry interval.
    static let openerFound: [Effect] = [.schedule(.settingsAttempt, seconds: 3), .schedule(.settingsRetry, seconds: 0.25)]

    /// A Gravito page ready in settings mode with nothing to call: the record, then the window for its UI.
    static let gravitoReadyAwaitingUI: [Effect] = [
        .cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .schedule(.settingsAttempt, seconds: 3),
        .uiReady(.gravito),
    ]
    /// The page's own UI signal during the window: opened by the page itself.
    static let openedByThePage: [Effect] = [.cancel(.settingsAttempt)] + [.diagnostic("privacy settings opened by the page itself")]

    /// Settings mode, ready, the app's call under way.
    static var calling: [Input] { started + [.tcf(tcfReady)] }
    /// The app's call made and reported as called: it is the opener.
    static var openerA: [Input] { calling + [.tcf(MachineBody.settings(attempt: 0, "called"))] }

    @Test(arguments: [
        Transition(
            "the page loads as configured", configure: settingsByEvidence, started,
            effects: [.readyTimer, .loadPage(1)], state: .loading),
        Transition(
            "ready: the first call with its window, then the announcement", configure: settingsByEvidence, calling,
            effects: [.cancel(.ready)] + attempt(callA, 0) + [.uiReady(.tcf)], state: .ready),
        Transition(
            "the CMP shows its UI: opened by that call", configure: settingsByEvidence, calling + [.tcf(uiShown)],
            effects: [.cancel(.settingsAttempt)] + [.diagnostic("privacy settings opened by A")], state: .ready),
        Transition(
            "GPP's visible display status is evidence too", configure: settingsByEvidence, calling + [.tcf(gppVisible)],
            effects: [.cancel(.settingsAttempt)] + [.diagnostic("privacy settings opened by A")], state: .ready),
        Transition(
            "later UI signals change nothing", configure: settingsByEvidence,
            calling + [.tcf(uiShown), .tcf(uiShown)], effects: [], state: .ready),
        Transition(
            "called: its window restarts and it is called again later", configure: settingsByEvidence,
            openerA, effects: openerFound, state: .ready),
        Transition(
            "the retry: the same opener again", configure: settingsByEvidence,
            openerA + [.timerFired(.settingsRetry)], effects: [call(callA, 1)], state: .ready),
        Transition(
            "called again without the UI: another retry", configure: settingsByEvidence,
            openerA + [.timerFired(.settingsRetry), .tcf(MachineBody.settings(attempt: 1, "called"))],
            effects: [.schedule(.settingsRetry, seconds: 0.25)], state: .ready),
        Transition(
            "the opener's window ended: the next candidate gets its own", configure: settingsByEvidence,
            openerA + [.timerFired(.settingsAttempt)], effects: attempt(.didomi, 1), state: .ready),
        Transition(
            "refused: the next candidate at once", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused"))], effects: [call(.didomi, 1)], state: .ready),
        Transition(
            "threw: it may still work, it keeps its window", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "threw"))], effects: openerFound, state: .ready),
        Transition(
            "missing on the page: the next candidate at once", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "missing"))], effects: [call(.didomi, 1)], state: .ready),
        Transition(
            "a report of an earlier attempt is ignored", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused")), .tcf(MachineBody.settings(attempt: 0, "threw"))],
            effects: [], state: .ready),
        Transition(
            "no candidate left: the run fails and consent stays", configure: settingsWithOneCall,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused"))],
            effects: [.cancel(.settingsAttempt)] + [
                .failed(.privacySettingsNotOpened("A refused (success: false)")), .finished(.failed), .detach,
            ],
            state: .invalidated),
        Transition(
            "the only opener silent for its window: the run fails", configure: settingsWithOneCall,
            openerA + [.timerFired(.settingsRetry), .tcf(MachineBody.settings(attempt: 1, "called")),
                       .timerFired(.settingsAttempt)],
            effects: [.cancel(.settingsRetry)] + [
                .failed(.privacySettingsNotOpened("A showed no UI within 3.0 s")), .finished(.failed), .detach,
            ],
            state: .invalidated),
        Transition(
            "the page showed its UI before it was ready: opened by the page itself, no call",
            configure: settingsByEvidence, started + [.tcf(uiShown)],
            effects: [.cancel(.ready), .diagnostic("privacy settings opened by the page itself"), .uiReady(.tcf)],
            state: .ready),
        Transition(
            "the run ending during an attempt stops its timers", configure: settingsByEvidence,
            calling + [.presentationEnded],
            effects: [.cancel(.settingsAttempt)] + [.finished(.dismissedByUser), .detach], state: .invalidated),
        Transition(
            "a terminated web content process stops the attempt and reloads", configure: settingsByEvidence,
            calling + [.webView(.contentProcessDidTerminate)],
            effects: [.cancel(.settingsAttempt)] + [reloading, .readyTimer, .loadPage(2)], state: .loading),
        Transition(
            "and the opening starts over once the page is ready again", configure: settingsByEvidence,
            calling + [.webView(.contentProcessDidTerminate), .tcf(tcfReady)],
            effects: [.cancel(.ready)] + attempt(callA, 0), state: .ready),
        Transition(
            "a settings timer after the opening settled does nothing", configure: settingsByEvidence,
            calling + [.tcf(uiShown), .timerFired(.settingsRetry), .timerFired(.settingsAttempt)], effects: [],
            state: .ready),
        Transition(
            "consent mode: a settings report is ignored", configure: tcfDialect,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused"))], effects: [], state: .ready),
    ])
    func settingsByEvidenceTable(_ row: Transition) {
        row.check()
    }

    /// The dialect known only after detection: automatic detection (`dialect: nil`) with the default opener.
    @Test(arguments: [
        Transition(
            "the page loads with the layer=settings query item (no dialect known yet)", configure: settingsDetected,
            started,
            effects: [
                .readyTimer,
                .load(URL(string: "https://cmp.example.com/app.html?layer=settings")!, id: WebViewLoadID(rawValue: 1)),
            ],
            state: .loading),
        Transition(
            "the forwarder's ready: the generic dialect's opener (displayConsentUi first), not 'opened by the page'",
            configure: settingsDetected, started + [.tcf(tcfReady)],
            effects: [.cancel(.ready)] + attempt(.tcfDisplayConsentUI, 0), state: .ready),
        Transition(
            "refused: the first preset", configure: settingsDetected,
            started + [.tcf(tcfReady), .tcf(MachineBody.settings(attempt: 0, "refused"))],
            effects: [call(.didomi, 1)], state: .ready),
        Transition(
            "nothing opens within the window: a typed error, not a claim", configure: settingsDetected,
            started + [.tcf(tcfReady), .tcf(MachineBody.settings(attempt: 0, "refused"))]
                + PrivacySettingsCall.presets.indices.map { .tcf(MachineBody.settings(attempt: $0 + 1, "missing")) }
                + [.timerFired(.settingsAttempt)],
            effects: [.cancel(.settingsRetry)] + [
                .failed(.privacySettingsNotOpened(
                    "__tcfapi('displayConsentUi') refused (success: false); not on the page: "
                        + PrivacySettingsCall.presets.map { $0.name }.joined(separator: ", "))),
                .finished(.failed), .detach,
            ],
            state: .invalidated),
        Transition(
            "a Gravito page answering first: its opener (no call), judged by its TCF API", configure: settingsDetected,
            started + [.gravito(gravitoReady)],
            effects: gravitoReadyAwaitingUI,
            state: .ready),
        Transition(
            "and its TCF API's cmpuishown is the evidence", configure: settingsDetected,
            started + [.gravito(gravitoReady), .tcf(uiShown)],
            effects: openedByThePage, state: .ready),
    ])
    func settingsWithDetection(_ row: Transition) {
        row.check()
    }

    @Test(arguments: [
        Transition(
            "Gravito: the page is asked for its settings layer", configure: gravitoSettings, started,
            effects: [
                .readyTimer,
                .load(URL(string: "https://cmp.example.com/app.html?layer=settings")!, id: WebViewLoadID(rawValue: 1)),
            ],
            state: .loading),
        Transition(
            "Gravito: its ready message is no evidence; the window for its UI starts", configure: gravitoSettings,
            started + [.gravito(gravitoReady)],
            effects: gravitoReadyAwaitingUI,
            state: .ready),
        Transition(
            "Gravito: its TCF API's cmpuishown (heard through the forwarder) is", configure: gravitoSettings,
            started + [.gravito(gravitoReady), .tcf(uiShown)],
            effects: openedByThePage, state: .ready),
        Transition(
            "Gravito: the forwarder's consent events store nothing", configure: gravitoSettings,
            started + [.gravito(gravitoReady), .tcf(MachineBody.tcfSave(TestStrings.acceptAll, status: "tcloaded"))],
            effects: [], state: .ready),
        Transition(
            "Gravito: no UI within the window: a typed error", configure: gravitoSettings,
            started + [.gravito(gravitoReady), .timerFired(.settingsAttempt)],
            effects: [] + [
                .failed(.privacySettingsNotOpened("nothing to call, and the page showed no UI within 3.0 s")),
                .finished(.failed), .detach,
            ],
            state: .invalidated),
        Transition(
            "Gravito with the app's call: made after the record, reported through the forwarder",
            configure: gravitoSettingsWithCall,
            started + [.gravito(gravitoReady)],
            effects: [
                .cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin)] + attempt(callA, 0)
                + [.uiReady(.gravito)],
            state: .ready),
        Transition(
            "Gravito: its call's report is heard", configure: gravitoSettingsWithCall,
            started + [.gravito(gravitoReady), .tcf(MachineBody.settings(attempt: 0, "called"))],
            effects: openerFound, state: .ready),
        Transition(
            "Gravito: a second ready message calls nothing",
            configure: gravitoSettingsWithCall,
            started + [.gravito(gravitoReady), .gravito(gravitoReady)],
            effects: [.injectStoredRecord(targetOrigin: MachinePage.origin)], state: .ready),
        Transition(
            "Onesecondbefore: the finished load starts the window for its UI",
            configure: {
                $0.dialect = .onesecondbefore
                $0.mode = .settings
            },
            started + [.finished(load: 1)],
            effects: [.cancel(.ready), .schedule(.settingsAttempt, seconds: 3), .uiReady(.onesecondbefore)],
            state: .ready),
    ])
    func settingsOnAppProtocols(_ row: Transition) {
        row.check()
    }

    /// A machine that speaks no dialect able to report the UI (no forwarder among its dialects) cannot hear evidence:
    /// settings fail at once, with the reason, instead of being claimed open.
    @Test func withoutAnyEvidenceListenerSettingsFailAtOnce() {
        var configuration = MachinePage.configuration
        Self.gravitoSettings(&configuration)
        var machine = BridgeMachine(configuration: configuration, renewalReason: nil, dialects: [GravitoDialect()])
        #expect(machine.handlerNames == ["jsHandler"])
        for input in Self.started { _ = machine.handle(input) }
        let effects = machine.handle(.gravito(Self.gravitoReady))
        #expect(effects.contains(.failed(.privacySettingsNotOpened(
            "the page's dialect (gravito) reports no UI, and no TCF/GPP listener runs"))))
        #expect(effects.last == .detach)
        #expect(machine.privacySettingsOpenedBy == nil)
    }

    /// What ``BridgeMachine/privacySettingsOpenedBy`` names after each path.
    @Test(arguments: [
        (Transition("not yet opened", configure: settingsByEvidence, calling, effects: [], state: .ready), nil),
        (Transition("by a call", configure: settingsByEvidence, calling + [.tcf(uiShown)], effects: [], state: .ready), "A"),
        (
            Transition("by the page", configure: settingsByEvidence, started + [.tcf(uiShown)], effects: [], state: .ready),
            SettingsOpening.byThePage
        ),
        (
            Transition("not by Gravito's ready message", configure: gravitoSettings, started + [.gravito(gravitoReady)], effects: [], state: .ready),
            nil
        ),
        (
            Transition(
                "by a Gravito page's TCF API", configure: gravitoSettings,
                started + [.gravito(gravitoReady), .tcf(uiShown)], effects: [], state: .ready),
            SettingsOpening.byThePage
        ),
        (Transition("consent mode", configure: tcfDialect, calling, effects: [], state: .ready), nil),
    ] as [(Transition, String?)])
    func openedBy(_ row: Transition, _ expected: String?) {
        #expect(row.machineAfterInputs().privacySettingsOpenedBy == expected, "\(row.name)")
    }
}
