import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Messages from the page (`BridgeMachine+Messages.swift`): the frame, origin and body checks, dialect detection,
/// readiness, saves and the store's answers, the close message, GPP signals and US Privacy strings.
extension BridgeMachineTests {
    static let gravitoReady = #"{"type":"CMP-loaded"}"#
    static let gravitoClose = #"{"type":"close"}"#
    static let tcfReady = #"{"type":"ready"}"#
    static let uiShown = #"{"type":"tcf","eventStatus":"cmpuishown"}"#
    static let accept = TestStrings.acceptAll

    // MARK: Checks

    @Test(arguments: [
        Transition(
            "a sub-frame's message is refused", configure: gravitoDialect,
            started + [.message("jsHandler", gravitoReady, mainFrame: false)],
            effects: [.error(.notMainFrame(handler: "jsHandler"))], state: .loading),
        Transition(
            "so is one from another origin", configure: gravitoDialect,
            started + [.message("jsHandler", gravitoReady, origin: "https://evil.example")],
            effects: [.error(.forbiddenOrigin(handler: "jsHandler", origin: "https://evil.example"))], state: .loading),
        Transition(
            "origins are compared normalised", configure: gravitoDialect,
            started + [.message("jsHandler", gravitoClose, origin: "HTTPS://CMP.example.com:443")],
            effects: [.cancel(.ready), .finished(.closed), .detach], state: .invalidated),
        Transition(
            "the fallback page's origin is refused while the hosted page shows", configure: gravitoWithFallback,
            started + [.message("jsHandler", gravitoReady, origin: MachinePage.fallbackOrigin)],
            effects: [.error(.forbiddenOrigin(handler: "jsHandler", origin: MachinePage.fallbackOrigin))], state: .loading),
        Transition(
            "and allowed once the fallback page shows", configure: gravitoWithFallback,
            started + [offlineInput, .message("jsHandler", gravitoReady, origin: MachinePage.fallbackOrigin)],
            effects: [
                .cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.fallbackOrigin), .uiReady(.gravito),
            ],
            state: .ready),
        Transition(
            "a body that is not an object", configure: gravitoDialect, started + [.gravito("[]")],
            effects: [.error(.invalidMessage(handler: "jsHandler", .notAnObject))], state: .loading),
        Transition(
            "an unknown message type", configure: gravitoDialect, started + [.gravito(#"{"type":"bogus"}"#)],
            effects: [.error(.invalidMessage(handler: "jsHandler", .unknownMessageType("bogus")))], state: .loading),
        Transition(
            "a save without its string", configure: gravitoDialect, started + [.gravito(#"{"type":"save"}"#)],
            effects: [.error(.invalidMessage(handler: "jsHandler", .missingField("tcstring")))], state: .loading),
        Transition(
            "an invalid US Privacy string", configure: tcfDialect,
            started + [.tcf(#"{"type":"usp","uspString":"2YNN"}"#)],
            effects: [.error(.invalidMessage(
                handler: "webcmpTCF",
                .invalidField("uspString", expected: "a US Privacy string (version 1 and three of Y, N, -)")))],
            state: .loading),
        Transition(
            "a handler no dialect listens to", started + [.message("other", "{}")],
            effects: [.error(.invalidMessage(handler: "other", .unknownHandler("other")))], state: .loading),
    ])
    func messageChecks(_ row: Transition) {
        row.check()
    }

    // MARK: Dialect detection

    @Test(arguments: [
        Transition(
            "automatic: the forwarder's ready message makes the page ready but fixes no dialect",
            started + [.tcf(tcfReady)], effects: [.cancel(.ready)], state: .ready),
        Transition(
            "automatic: an app protocol's message fixes it",
            started + [.gravito(gravitoReady)],
            effects: [.cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .uiReady(.gravito)],
            state: .ready),
        Transition(
            "automatic: the forwarder's consent fixes the generic dialect",
            started + [.tcf(MachineBody.tcfSave(accept))],
            effects: [.cancel(.ready), .uiReady(.tcf), .store(MachineCommit.tcfSave(accept))], state: .ready),
        Transition(
            "automatic: so does its CMP showing its UI",
            started + [.tcf(uiShown)], effects: [.cancel(.ready), .uiReady(.tcf)], state: .ready),
        Transition(
            "automatic: an app protocol takes over from the generic dialect (announced once)",
            started + [.tcf(uiShown), .gravito(gravitoReady)],
            effects: [.injectStoredRecord(targetOrigin: MachinePage.origin)], state: .ready),
        Transition(
            "automatic: once an app protocol is fixed the forwarder is ignored quietly",
            started + [.gravito(gravitoReady), .tcf(MachineBody.tcfSave(accept))], effects: [], state: .ready),
        Transition(
            "automatic: another app protocol is refused",
            started + [.gravito(gravitoReady), .osb(MachineBody.osbSave(accept))],
            effects: [.error(.unexpectedDialect(handler: "osbCmpMessageHandler", expected: .gravito))], state: .ready),
        Transition(
            "configured: another dialect's message is refused, even the forwarder's", configure: gravitoDialect,
            started + [.tcf(tcfReady)],
            effects: [.error(.unexpectedDialect(handler: "webcmpTCF", expected: .gravito))], state: .loading),
    ])
    func dialectDetection(_ row: Transition) {
        row.check()
    }

    // MARK: Ready and close

    @Test(arguments: [
        Transition(
            "Gravito's ready message: the record is injected to the sender's origin, the UI announced",
            configure: gravitoDialect, started + [.gravito(gravitoReady)],
            effects: [.cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .uiReady(.gravito)],
            state: .ready),
        Transition(
            "its older start event too", configure: gravitoDialect, started + [.gravito(#"{"event":"start"}"#)],
            effects: [.cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .uiReady(.gravito)],
            state: .ready),
        Transition(
            "a sender without an origin gets the record at the loaded page's origin", configure: gravitoDialect,
            started + [.message("jsHandler", gravitoReady, origin: nil)],
            effects: [.cancel(.ready), .injectStoredRecord(targetOrigin: MachinePage.origin), .uiReady(.gravito)],
            state: .ready),
        Transition(
            "a second ready message re-injects, and is not announced again", configure: gravitoDialect,
            started + [.gravito(gravitoReady), .gravito(gravitoReady)],
            effects: [.injectStoredRecord(targetOrigin: MachinePage.origin)], state: .ready),
        Transition(
            "the forwarder's ready message injects nothing", configure: tcfDialect, started + [.tcf(tcfReady)],
            effects: [.cancel(.ready), .uiReady(.tcf)], state: .ready),
        Transition(
            "a configuration message changes nothing yet", configure: gravitoDialect,
            started + [.gravito(gravitoReady), .gravito(#"{"type":"load","configversion":7}"#)], effects: [], state: .ready),
        Transition(
            "close ends the UI", configure: gravitoDialect, started + [.gravito(gravitoReady), .gravito(gravitoClose)],
            effects: [.finished(.closed), .detach], state: .invalidated),
        Transition(
            "close before the page was ready stops the ready timer", configure: gravitoDialect,
            started + [.gravito(#"{"event":"close"}"#)],
            effects: [.cancel(.ready), .finished(.closed), .detach], state: .invalidated),
        Transition(
            "close stops a pending finish delay",
            started + [.tcf(MachineBody.tcfSave(accept)), MachineCommit.stored, .gravito(gravitoClose)],
            effects: [.cancel(.finishDelay), .finished(.closed), .detach], state: .invalidated),
    ])
    func readyAndClose(_ row: Transition) {
        row.check()
    }

    // MARK: Saves and the store's answers

    /// A TC string of policy version 2, below the rows' minimum (4): stored with a diagnostic.
    static let oldPolicy = TestStrings.make(purposes: [1], vendors: [2], policyVersion: 2)

    /// What a TCF page where GDPR does not apply stores: no string, `gdprApplies` false.
    static let notApplying = MachineCommit.save(
        ConsentPayload(action: .reReport, strings: ConsentStrings(), gdprApplies: false))

    /// What Onesecondbefore's save of ``accept`` stores.
    static let osbSave = MachineCommit.save(
        ConsentPayload(
            strings: ConsentStrings(tcString: accept), extras: OnesecondbeforeDialect.Extras(claimedChoices: ClaimedChoices())),
        dialect: .onesecondbefore)

    /// The store's answer when it could not write.
    static var storageFailed: Input {
        .answer((.tooLarge(bytes: 2_000_000, limit: 1_048_576)))
    }

    @Test(arguments: [
        Transition(
            "a save before the ready message makes the page ready, then asks for the commit", configure: gravitoDialect,
            started + [.gravito(MachineBody.gravitoSave(accept))],
            effects: [.cancel(.ready), .uiReady(.gravito), .store(MachineCommit.gravitoSave(accept))], state: .ready),
        Transition(
            "the page's configuration version goes into the rules", configure: gravitoDialect,
            started + [
                .gravito(gravitoReady), .gravito(#"{"type":"load","configversion":7}"#), .gravito(MachineBody.gravitoSave(accept)),
            ],
            effects: [.store(MachineCommit.gravitoSave(accept, configVersion: "7"))], state: .ready),
        Transition(
            "on the fallback page the consent's source says so", configure: gravitoWithFallback,
            started + [offlineInput, .message("jsHandler", MachineBody.gravitoSave(accept), origin: MachinePage.fallbackOrigin)],
            effects: [.cancel(.ready), .uiReady(.gravito), .store(MachineCommit.gravitoSave(accept, source: .fallbackPage))],
            state: .ready),
        Transition(
            "Gravito's save stored: the user's action and the consent; its close message ends the UI",
            configure: gravitoDialect,
            started + [.gravito(gravitoReady), .gravito(MachineBody.gravitoSave(accept)), MachineCommit.stored],
            effects: [.userAction(), .consentReady(MachineCommit.gravitoSave(accept))], state: .ready),
        Transition(
            "reject-all as the page says", configure: gravitoDialect,
            started + [
                .gravito(#"{"type":"save","tcstring":"\#(TestStrings.rejectAll)","isRejectAll":true}"#),
                MachineCommit.stored,
            ],
            effects: [
                .userAction(isRejectAll: true),
                .consentReady(MachineCommit.save(
                    ConsentPayload(
                        strings: ConsentStrings(tcString: TestStrings.rejectAll),
                        extras: GravitoDialect.Extras(isRejectAll: true)),
                    dialect: .gravito)),
            ],
            state: .ready),
        Transition(
            "the commit's diagnostics come before the consent", configure: gravitoDialect,
            started + [.gravito(MachineBody.gravitoSave(oldPolicy)), MachineCommit.stored],
            effects: [
                .userAction(), .diagnostic("the TC string has policy version 2, below 4"),
                .consentReady(MachineCommit.gravitoSave(oldPolicy)),
            ],
            state: .ready),
        Transition(
            "a user's save stored on a dialect without a close message: the finish delay starts", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept)), MachineCommit.stored],
            effects: [.userAction(), .consentReady(accept), .finishDelay], state: .ready),
        Transition(
            "when it fires the UI is finished", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept)), MachineCommit.stored, .timerFired(.finishDelay)],
            effects: [.finished(.consentSaved), .detach], state: .invalidated),
        Transition(
            "what the CMP loaded is stored, no user action, the UI stays", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept, status: "tcloaded")), MachineCommit.stored],
            effects: [.consentReady(MachineCommit.tcfSave(accept, action: .reReport))], state: .ready),
        Transition(
            "a page where GDPR does not apply: committed without a string", configure: tcfDialect,
            started + [.tcf(#"{"type":"tcf","eventStatus":"tcloaded","gdprApplies":false}"#)],
            effects: [
                .cancel(.ready), .uiReady(.tcf),
                .store(notApplying),
            ],
            state: .ready),
        Transition(
            "and its answer ends the UI: nothing to ask", configure: tcfDialect,
            started + [.tcf(#"{"type":"tcf","eventStatus":"tcloaded","gdprApplies":false}"#), MachineCommit.stored],
            effects: [.consentReady(notApplying), .finishDelay], state: .ready),
        Transition(
            "Onesecondbefore's save", configure: osbDialect,
            started + [.osb(MachineBody.osbSave(accept))],
            effects: [
                .cancel(.ready), .uiReady(.onesecondbefore),
                .store(osbSave),
            ],
            state: .ready),
        Transition(
            "Onesecondbefore's save stored ends the UI after the delay", configure: osbDialect,
            started + [.osb(MachineBody.osbSave(accept)), MachineCommit.stored],
            effects: [.userAction(), .consentReady(osbSave), .finishDelay], state: .ready),
        Transition(
            "refused: the error only, at once; nothing goes to the store, the UI stays", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(BridgeMachineTests.notServiceSpecific))],
            effects: [.cancel(.ready), .uiReady(.tcf), .error(ConsentBridgeError(ConsentCommitError.notServiceSpecific))],
            state: .ready),
        Transition(
            "the store failed: the user's action, then the error", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept)), storageFailed],
            effects: [.userAction(), .error(.storageFailed(IABConsentError(ConsentStoreError.tooLarge(bytes: 2_000_000, limit: 1_048_576))))],
            state: .ready),
        Transition(
            "the store failed on what the CMP loaded: the error only", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept, status: "tcloaded")), storageFailed],
            effects: [.error(.storageFailed(IABConsentError(ConsentStoreError.tooLarge(bytes: 2_000_000, limit: 1_048_576))))], state: .ready),
        Transition(
            "an answer to a commit never asked for is ignored, with a diagnostic", configure: tcfDialect,
            started + [MachineCommit.stored], effects: [MachineCommit.ignored(0, "it was never asked for")],
            state: .loading),
        Transition(
            "so is one numbered beyond the requests", configure: tcfDialect,
            started + [
                .tcf(MachineBody.tcfSave(accept)),
                .storeAnswered(2, nil, trackingStatus: .notDetermined),
            ],
            effects: [MachineCommit.ignored(2, "it was never asked for")], state: .ready),
        Transition(
            "an earlier request's late answer is ignored: it must not set the run's consent back", configure: tcfDialect,
            started + [
                .tcf(MachineBody.tcfSave(accept, status: "tcloaded")),
                .tcf(MachineBody.tcfSave(TestStrings.rejectAll)),
                .storeAnswered(1, nil, trackingStatus: .notDetermined),
            ],
            effects: [MachineCommit.ignored(1, "a later commit was asked for")], state: .ready),
        Transition(
            "the latest request's answer is taken, whatever came before", configure: tcfDialect,
            started + [
                .tcf(MachineBody.tcfSave(accept, status: "tcloaded")), .tcf(MachineBody.tcfSave(TestStrings.rejectAll)),
                MachineCommit.stored,
            ],
            effects: [.userAction(), .consentReady(TestStrings.rejectAll), .finishDelay], state: .ready),
        Transition(
            "a second answer to the latest request is ignored: each request is taken once", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept)), MachineCommit.stored, MachineCommit.stored],
            effects: [MachineCommit.ignored(1, "it was answered already")], state: .ready),
        Transition(
            "an answer for a replaced load is ignored (the page reloaded after its process ended)",
            configure: gravitoDialect,
            started + [
                .gravito(MachineBody.gravitoSave(accept)), .webView(.contentProcessDidTerminate), MachineCommit.stored,
            ],
            effects: [MachineCommit.ignored(1, "its load was replaced")], state: .loading),
        Transition(
            "an answer after the run ended is ignored", configure: MachineFlows.trackingAfterConsent,
            MachineFlows.savedWithTrackingPending + [.timerFired(.finishDelay), MachineCommit.stored],
            effects: [MachineCommit.ignored(1, "no run is live")], state: .finished(.consentSaved)),
    ])
    func saves(_ row: Transition) {
        row.check()
    }

    // MARK: GPP and US Privacy

    static let gppVisible = MachineBody.gpp(#""eventName":"cmpDisplayStatus","cmpDisplayStatus":"visible""#)
    static let gppHidden = MachineBody.gpp(#""eventName":"cmpDisplayStatus","cmpDisplayStatus":"hidden""#)
    static let gppUserActed = MachineBody.gpp(#""eventName":"signalStatus","signalStatus":"ready""#)
    static let gppString = "DBABTA~1YNN"
    static let gppUpdate = MachineBody.gpp(#""gppString":"DBABTA~1YNN","applicableSections":[6]"#)
    /// The page's signals after ``gppUpdate``.
    static let gppPage = PageSignals(gppString: gppString, gppApplicableSections: [6])

    /// The save of ``gppUpdate``: the run's saved consent (`tcString`, if any) with the GPP string, starting from
    /// `previous`.
    static func gppCommit(
        action: ConsentProvenance.Action, tcString: String? = nil, previous: ConsentRecord? = nil, id: Int = 1
    ) -> Effect {
        .store(MachineCommit.save(
            ConsentPayload(
                action: action,
                strings: ConsentStrings(tcString: tcString, gppString: gppString, gppApplicableSections: [6])),
            page: gppPage, previous: previous, id: id))
    }

    @Test(arguments: [
        Transition(
            "the GPP UI shown: the page is ready", configure: tcfDialect, started + [.tcf(gppVisible)],
            effects: [.cancel(.ready), .uiReady(.tcf)], state: .ready),
        Transition(
            "a GPP string is the consent of a GPP-only page", configure: tcfDialect, started + [.tcf(gppUpdate)],
            effects: [
                .cancel(.ready), .uiReady(.tcf),
                gppCommit(action: .signalUpdate),
            ],
            state: .ready),
        Transition(
            "the same string again commits nothing", configure: tcfDialect,
            started + [.tcf(gppUpdate), MachineCommit.stored, .tcf(gppUpdate)], effects: [], state: .ready),
        Transition(
            "a string the CMP is still updating is not committed", configure: tcfDialect,
            started + [.tcf(MachineBody.gpp(#""signalStatus":"not ready","gppString":"DBABTA~1YNN""#))],
            effects: [], state: .loading),
        Transition(
            "a bare header before anything was saved is no consent", configure: tcfDialect,
            started + [.tcf(MachineBody.gpp(#""signalStatus":"ready","gppString":"DBAA""#))], effects: [], state: .loading),
        Transition(
            "a GPP string after a save updates the saved consent", configure: tcfDialect,
            started + [.tcf(MachineBody.tcfSave(accept)), MachineCommit.stored, .tcf(gppUpdate)],
            effects: [
                gppCommit(action: .signalUpdate, tcString: accept, previous: MachineCommit.tcfSave(accept).record, id: 2),
            ],
            state: .ready),
        Transition(
            "a signal while the GPP UI is visible is not yet the user's answer, even after a section change",
            configure: tcfDialect,
            started + [
                .tcf(gppVisible),
                .tcf(MachineBody.gpp(#""eventName":"sectionChange","gppString":"DBABTA~1YNN","applicableSections":[6]"#)),
            ],
            effects: [
                gppCommit(action: .noChoiceWhileUIShown),
            ],
            state: .ready),
        Transition(
            "shown, the user acted, hidden: finished by the user after the delay", configure: tcfDialect,
            started + [.tcf(gppVisible), .tcf(gppUserActed), .tcf(gppHidden)], effects: [.finishDelay], state: .ready),
        Transition(
            "hidden before the user's action arrives: the same", configure: tcfDialect,
            started + [.tcf(gppVisible), .tcf(gppHidden), .tcf(MachineBody.gpp(#""eventName":"sectionChange","signalStatus":"ready""#))],
            effects: [.finishDelay], state: .ready),
        Transition(
            "hidden without an action: the UI stays", configure: tcfDialect,
            started + [.tcf(gppVisible), .tcf(gppHidden)], effects: [], state: .ready),
        Transition(
            "a US Privacy string before any save is kept, not committed", configure: tcfDialect,
            started + [.tcf(#"{"type":"usp","uspString":"1YNN"}"#)], effects: [], state: .loading),
        Transition(
            "the kept string goes with the next save", configure: tcfDialect,
            started + [.tcf(#"{"type":"usp","uspString":"1YNN"}"#), .tcf(MachineBody.tcfSave(accept))],
            effects: [
                .cancel(.ready), .uiReady(.tcf),
                .store(MachineCommit.tcfSave(accept, page: PageSignals(usPrivacy: "1YNN"))),
            ],
            state: .ready),
        Transition(
            "a US Privacy string after a save is committed with the saved consent", configure: tcfDialect,
            started + [
                .tcf(MachineBody.tcfSave(accept)), MachineCommit.stored, .tcf(#"{"type":"usp","uspString":"1YNN"}"#),
            ],
            effects: [
                .store(MachineCommit.save(
                    ConsentPayload(action: .signalUpdate, strings: ConsentStrings(tcString: accept, usPrivacy: "1YNN")),
                    page: PageSignals(usPrivacy: "1YNN"), previous: MachineCommit.tcfSave(accept).record, id: 2)),
            ],
            state: .ready),
        Transition(
            "the same US Privacy string again commits nothing", configure: tcfDialect,
            started + [
                .tcf(MachineBody.tcfSave(accept)), MachineCommit.stored,
                .tcf(#"{"type":"usp","uspString":"1YNN"}"#), MachineCommit.stored,
                .tcf(#"{"type":"usp","uspString":"1YNN"}"#),
            ],
            effects: [], state: .ready),
    ])
    func gppAndUSPrivacy(_ row: Transition) {
        row.check()
    }
}
