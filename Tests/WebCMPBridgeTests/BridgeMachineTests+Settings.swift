import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Privacy settings (`BridgeMachine+Settings.swift`): on a dialect that reports its UI the opener's calls are judged
/// by evidence (start, call, attempt timeout, refused, opened, failed); Gravito and Onesecondbefore pages get the first
/// call fire-and-forget and their ready message counts.
extension BridgeMachineTests {
    /// The app's own call, tried first.
    static let callA = PrivacySettingsCall("A.show", name: "A")
    /// Settings mode on the forwarder: the app's call, then the presets (Didomi, Cookiebot).
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

    /// Making `call` as attempt `attempt`: its timer first, then the script that reports to the forwarder.
    static func attempt(_ call: PrivacySettingsCall, _ attempt: Int) -> [Effect] {
        [.schedule(.settingsAttempt, seconds: 3), .evaluate(call.script(reportingTo: "webcmpTCF", attempt: attempt))]
    }

    /// Settings mode, ready, the app's call under way.
    static var calling: [Input] { started + [.tcf(tcfReady)] }

    @Test(arguments: [
        Transition(
            "the page loads as configured", configure: settingsByEvidence, started,
            effects: [.readyTimer, .loadPage(1)], state: .loading),
        Transition(
            "ready: the first call with its attempt timer, then the announcement", configure: settingsByEvidence, calling,
            effects: [.cancel(.ready)] + attempt(callA, 0) + [.uiReady(.tcf)], state: .ready),
        Transition(
            "the CMP shows its UI: opened by that call", configure: settingsByEvidence, calling + [.tcf(uiShown)],
            effects: [.cancel(.settingsAttempt), .diagnostic("privacy settings opened by A")], state: .ready),
        Transition(
            "GPP's visible display status is evidence too", configure: settingsByEvidence, calling + [.tcf(gppVisible)],
            effects: [.cancel(.settingsAttempt), .diagnostic("privacy settings opened by A")], state: .ready),
        Transition(
            "later UI signals change nothing", configure: settingsByEvidence,
            calling + [.tcf(uiShown), .tcf(uiShown)], effects: [], state: .ready),
        Transition(
            "the attempt timed out: the next candidate", configure: settingsByEvidence,
            calling + [.timerFired(.settingsAttempt)], effects: attempt(.didomi, 1), state: .ready),
        Transition(
            "refused: the next candidate at once", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused"))], effects: attempt(.didomi, 1), state: .ready),
        Transition(
            "threw: the same", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "threw"))], effects: attempt(.didomi, 1), state: .ready),
        Transition(
            "missing on the page: the same", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "missing"))], effects: attempt(.didomi, 1), state: .ready),
        Transition(
            "called: the evidence is awaited", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "called"))], effects: [], state: .ready),
        Transition(
            "a report of an earlier attempt is ignored", configure: settingsByEvidence,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused")), .tcf(MachineBody.settings(attempt: 0, "threw"))],
            effects: [], state: .ready),
        Transition(
            "no candidate left: the run fails and consent stays", configure: settingsWithOneCall,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused"))],
            effects: [
                .cancel(.settingsAttempt), .error(.privacySettingsNotOpened("A refused (success: false)")),
                .finished(.failed), .detach,
            ],
            state: .invalidated),
        Transition(
            "every candidate silent: the reasons in order", configure: settingsByEvidence,
            calling + [.timerFired(.settingsAttempt), .timerFired(.settingsAttempt), .timerFired(.settingsAttempt)],
            effects: [
                .error(.privacySettingsNotOpened(
                    "A showed no UI within 3.0 s; Didomi showed no UI within 3.0 s; Cookiebot showed no UI within 3.0 s")),
                .finished(.failed), .detach,
            ],
            state: .invalidated),
        Transition(
            "the page showed its UI before it was ready: opened by the page itself, no call",
            configure: settingsByEvidence, started + [.tcf(uiShown)],
            effects: [
                .cancel(.ready), .diagnostic("privacy settings opened by the page itself"),
                .uiReady(.tcf),
            ],
            state: .ready),
        Transition(
            "the run ending during an attempt stops its timer", configure: settingsByEvidence,
            calling + [.presentationEnded],
            effects: [.cancel(.settingsAttempt), .finished(.dismissedByUser), .detach], state: .invalidated),
        Transition(
            "a terminated web content process stops the attempt and reloads", configure: settingsByEvidence,
            calling + [.webView(.contentProcessDidTerminate)],
            effects: [.cancel(.settingsAttempt), reloading, .readyTimer, .loadPage(2)], state: .loading),
        Transition(
            "and the opening starts over once the page is ready again", configure: settingsByEvidence,
            calling + [.webView(.contentProcessDidTerminate), .tcf(tcfReady)],
            effects: [.cancel(.ready)] + attempt(callA, 0), state: .ready),
        Transition(
            "consent mode: a settings report is ignored", configure: tcfDialect,
            calling + [.tcf(MachineBody.settings(attempt: 0, "refused"))], effects: [], state: .ready),
    ])
    func settingsByEvidenceTable(_ row: Transition) {
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
            "Gravito: its ready message counts as the settings shown; no call", configure: gravitoSettings,
            started + [.gravito(gravitoReady)],
            effects: [.cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .uiReady(.gravito)],
            state: .ready),
        Transition(
            "Gravito with the app's call: made once, fire and forget, after the record",
            configure: gravitoSettingsWithCall,
            started + [.gravito(gravitoReady)],
            effects: [
                .cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .evaluate(callA.script),
                .uiReady(.gravito),
            ],
            state: .ready),
        Transition(
            "Gravito: a second ready message calls nothing",
            configure: gravitoSettingsWithCall,
            started + [.gravito(gravitoReady), .gravito(gravitoReady)],
            effects: [.injectStoredRecord(targetOrigin: MachinePage.origin)], state: .ready),
        Transition(
            "Onesecondbefore: the finished load counts",
            configure: {
                $0.dialect = .onesecondbefore
                $0.mode = .settings
            },
            started + [.finished(load: 1)], effects: [.cancel(.ready), .uiReady(.onesecondbefore)], state: .ready),
    ])
    func settingsByReadyMessage(_ row: Transition) {
        row.check()
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
            Transition("by Gravito's ready message", configure: gravitoSettings, started + [.gravito(gravitoReady)], effects: [], state: .ready),
            SettingsOpening.byReadyMessage
        ),
        (Transition("consent mode", configure: tcfDialect, calling, effects: [], state: .ready), nil),
    ] as [(Transition, String?)])
    func openedBy(_ row: Transition, _ expected: String?) {
        #expect(row.machineAfterInputs().privacySettingsOpenedBy == expected, "\(row.name)")
    }
}
