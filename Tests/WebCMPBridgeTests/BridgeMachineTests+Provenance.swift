import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// What a commit says the user did (`ConsentPayload.action`, the history's and the record's provenance): the user's
/// choice, a CMP re-reporting what it had, a signal update, and a CMP's default signalled while its UI is on screen
/// (issue 37 §3), and a pre-warmed page that no UI has shown yet (no user can have chosen on it), per dialect.
extension BridgeMachineTests {
    static let usnatDefault = "DBABLA~CAAAAAAAAABA.QA"
    static let gppDefaultReady = MachineBody.gpp(
        #""eventName":"signalStatus","signalStatus":"ready","gppString":"DBABLA~CAAAAAAAAABA.QA","applicableSections":[7]"#)
    static let gppDefaultVisible = MachineBody.gpp(
        #""eventName":"cmpDisplayStatus","cmpDisplayStatus":"visible","signalStatus":"ready","gppString":"DBABLA~CAAAAAAAAABA.QA","applicableSections":[7]"#)
    static let gppDefaultHidden = MachineBody.gpp(
        #""eventName":"cmpDisplayStatus","cmpDisplayStatus":"hidden","signalStatus":"ready","gppString":"DBABLA~CAAAAAAAAABA.QA","applicableSections":[7]"#)
    static let gppSectionChange = MachineBody.gpp(
        #""eventName":"sectionChange","signalStatus":"ready","cmpDisplayStatus":"visible","gppString":"DBABLA~CAAAAAAAAABA.QA","applicableSections":[7]"#)

    /// The save of the US default GPP string as `action` (the run's save `id`), after the save of it as `after`.
    static func defaultCommit(
        _ action: ConsentProvenance.Action, after: ConsentProvenance.Action? = nil, id: Int = 1
    ) -> Effect {
        .store(defaultSave(action, after: after, id: id))
    }

    /// The save of ``defaultCommit(_:after:id:)``.
    static func defaultSave(
        _ action: ConsentProvenance.Action, after: ConsentProvenance.Action? = nil, id: Int = 1
    ) -> BridgeMachine.Save {
        MachineCommit.save(
            ConsentPayload(action: action, strings: ConsentStrings(gppString: usnatDefault, gppApplicableSections: [7])),
            page: PageSignals(gppString: usnatDefault, gppApplicableSections: [7]),
            previous: after.map { defaultSave($0).record }, id: id)
    }

    @Test(arguments: [
        // TCF
        Transition(
            "TCF tcloaded is a re-report, not the user's choice", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept, status: "tcloaded"))],
            effects: [.cancel(.ready), .uiReady(.tcf), .store(MachineCommit.tcfSave(accept, action: .reReport))],
            state: .ready),
        Transition(
            "TCF useractioncomplete is the user's choice", configure: tcfDialect,
            started + [.tcf(uiShown), .tcf(MachineBody.tcfSave(accept))],
            effects: [.store(MachineCommit.tcfSave(accept))], state: .ready),
        Transition(
            "TCF tcloaded while the CMP's UI is up is its default, not the user's answer", configure: tcfDialect,
            started + [.tcf(uiShown), .tcf(MachineBody.tcfSave(accept, status: "tcloaded"))],
            effects: [.store(MachineCommit.tcfSave(accept, action: .noChoiceWhileUIShown))],
            state: .ready),
        Transition(
            "TCF cmpuishown after a re-report does not store it again (privacy settings over the user's choice)",
            configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept, status: "tcloaded")), MachineCommit.stored, .tcf(uiShown)],
            effects: [], state: .ready),
        // A pre-warmed page no UI has shown yet: nobody can have acted on it
        Transition(
            "a pre-warmed page's useractioncomplete before any UI showed it is a report, not the user's choice",
            configure: tcfDialect, prewarmed + [.tcf(uiShown), .tcf(MachineBody.tcfSave(accept))],
            effects: [
                .diagnostic(BridgeMachine.unseenChoice),
                .store(MachineCommit.tcfSave(accept, action: .reReport)),
            ],
            state: .ready),
        Transition(
            "a pre-warmed page's useractioncomplete once a UI shows it is the user's choice", configure: tcfDialect,
            prewarmed + [.presentationBegan, .tcf(uiShown), .tcf(MachineBody.tcfSave(accept))],
            effects: [.store(MachineCommit.tcfSave(accept))], state: .ready),
        Transition(
            "a pre-warmed Gravito page's save before any UI showed it is a report", configure: gravitoDialect,
            prewarmed + [.gravito(gravitoReady), .gravito(MachineBody.gravitoSave(accept))],
            effects: [
                .diagnostic(BridgeMachine.unseenChoice),
                .store(MachineCommit.gravitoSave(accept, action: .reReport)),
            ],
            state: .ready),
        // GPP
        Transition(
            "a GPP CMP's default with its UI hidden is a signal update (answered by its signal)", configure: tcfDialect,
            started + [.tcf(gppDefaultReady)],
            effects: [.cancel(.ready), .uiReady(.tcf), defaultCommit(.signalUpdate)], state: .ready),
        Transition(
            "a GPP CMP's default signalled with its UI visible is not the user's answer", configure: tcfDialect,
            started + [.tcf(gppDefaultVisible)],
            effects: [.cancel(.ready), .uiReady(.tcf), defaultCommit(.noChoiceWhileUIShown)], state: .ready),
        Transition(
            "a default stored before the UI showed is stored again as unanswered when it shows", configure: tcfDialect,
            started + [.tcf(gppDefaultReady), .answer(), .tcf(gppVisible)],
            effects: [defaultCommit(.noChoiceWhileUIShown, after: .signalUpdate, id: 2)], state: .ready),
        Transition(
            "shown, the user acted, hidden: the signal is stored again as the user's choice", configure: tcfDialect,
            started + [
                .tcf(gppDefaultVisible), .answer(),
                .tcf(gppSectionChange), .tcf(gppDefaultHidden),
            ],
            effects: [defaultCommit(.userChoice, after: .noChoiceWhileUIShown, id: 2), .finishDelay], state: .ready),
        Transition(
            "hidden without the user acting leaves the default unanswered", configure: tcfDialect,
            started + [.tcf(gppDefaultVisible), .answer(), .tcf(gppHidden)],
            effects: [], state: .ready),
        // US Privacy
        Transition(
            "a US Privacy string while the UI is up is not the user's answer", configure: tcfDialect,
            started + [
                .tcf(gppDefaultReady), .answer(), .tcf(gppVisible),
                .answer(),
                .tcf(#"{"type":"usp","uspString":"1YNN"}"#),
            ],
            effects: [.store(MachineCommit.save(
                ConsentPayload(
                    action: .noChoiceWhileUIShown,
                    strings: ConsentStrings(gppString: usnatDefault, gppApplicableSections: [7], usPrivacy: "1YNN")),
                page: PageSignals(gppString: usnatDefault, gppApplicableSections: [7], usPrivacy: "1YNN"),
                previous: defaultSave(.noChoiceWhileUIShown, after: .signalUpdate).record, id: 3))],
            state: .ready),
        // Dialects whose protocol posts only the user's save
        Transition(
            "a Gravito save is the user's choice (the commit tells a re-saved stored string apart)",
            configure: gravitoDialect, started + [.gravito(gravitoReady), .gravito(MachineBody.gravitoSave(accept))],
            effects: [.store(MachineCommit.gravitoSave(accept))], state: .ready),
    ])
    func provenance(_ row: Transition) {
        row.check()
    }
}
