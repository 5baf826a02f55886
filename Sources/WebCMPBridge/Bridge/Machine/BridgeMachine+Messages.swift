import Foundation

/// Messages from the page: frame and origin checks, decoding by the dialect's rules, dialect detection, and what each
/// message does; then the commit of consent and its answer.
extension BridgeMachine {
    /// Handles a message the page posted (untrusted until decoded).
    mutating func handle(_ message: ScriptMessage, _ out: inout Effects) {
        let handler = message.handlerName
        guard message.isMainFrame else { return report(.error(.notMainFrame(handler: handler)), &out) }
        if let origin = message.origin, !allowedOrigins.contains(origin) {
            return report(.error(.forbiddenOrigin(handler: handler, origin: origin)), &out)
        }
        let rules: any MessageDialect
        let cmpMessage: CMPMessage
        do {
            (rules, cmpMessage) = try decoder.decodeWithRules(handlerName: handler, body: decoder.value(of: message.body))
        } catch {
            return report(.error(.invalidMessage(handler: handler, error)), &out)
        }
        switch detection.classify(rules, isConsent: cmpMessage.fixesGenericDialect) {
        case .accept: break
        case .ignore: return settingsEvidence(cmpMessage, &out)
        case .reject(let expected):
            return report(.error(.unexpectedDialect(handler: handler, expected: expected)), &out)
        }
        switch cmpMessage {
        case .ready:
            becomeReady(injectRecordTo: rules.answersReadyWithStoredRecord ? replyOrigin(for: message) : nil, &out)
        case .uiShown:
            settingsUIShown(&out)
            becomeReady(&out)
            cmpUIShown(&out)
        case .configurationLoaded(let version):
            withRun { $0.configVersion = version }
        case .gpp(let signal):
            handleGPP(signal, rules: rules, &out)
        case .usPrivacy(let usPrivacy):
            let payload = withRun { $0.page.updatingUSPrivacy(usPrivacy, last: $0.consent.lastStored) } ?? nil
            if let payload { commit(payload, endsUI: false, &out) }
        case .save(let payload):
            becomeReady(&out)
            // A dialect without a close message ends with the user's choice; a CMP reporting what it already had
            // (`tcloaded`) does not end the UI: the user may be about to change it. A page that says GDPR does not
            // apply has nothing to ask: its answer ends the UI too.
            let nothingToAsk = payload.gdprApplies == false && payload.strings.isEmpty
            // The user's action ends what the CMP's UI asked (TCF `useractioncomplete`: the UI is closed).
            if payload.action == .userChoice { withRun { $0.cmpUIVisible = false } }
            commit(payload, endsUI: rules.userSaveEndsUI && (payload.action == .userChoice || nothingToAsk), &out)
        case .close:
            finish(.closed, &out)
        case .settingsCall(let attempt, let result):
            settingsCallReported(result, attempt: attempt, &out)
        case .openAppSettings:
            openAppSettings(&out)
        }
    }

    /// The page asks for the app's Settings (a user who denied App Tracking Transparency can allow it only there).
    /// Carried out only while the user can have asked: the page is ready, its UI is presented and not covered, and the
    /// app is in the foreground; otherwise a diagnostic and nothing opens, so a page cannot send the user to Settings
    /// while loading, pre-warmed out of sight, or from the background. Once Settings is in front the app is in the
    /// background and further requests are refused until it returns; the run goes on (the page stays as it was; the
    /// app context's ATT status is the one of the page's load, see ``AppContext``).
    private mutating func openAppSettings(_ out: inout Effects) {
        guard run?.stage == .ready, isPresented, !isCovered, !inBackground else {
            return report(.diagnostic(Self.appSettingsRefused), &out)
        }
        out.append(.openAppSettings)
    }

    /// The diagnostic of a refused ``CMPMessage/openAppSettings``.
    static let appSettingsRefused =
        "the page asked to open the app's Settings while its UI was not ready and on screen; nothing opened"

    /// A GPP event: `cmpDisplayStatus: visible` is the UI shown; a string that is not being updated (`signalStatus`
    /// not `not ready`) is committed (``PageSignals``); the UI ends (after ``BridgeConfiguration/finishDelay``) when
    /// the user acted and the CMP hid its UI again (``GPPUIProgress``).
    private mutating func handleGPP(_ signal: GPPSignal, rules: any MessageDialect, _ out: inout Effects) {
        guard let step = withRun({ $0.gppProgress.observe(signal) }) else { return }
        if signal.displayStatus == .hidden || signal.displayStatus == .disabled { withRun { $0.cmpUIVisible = false } }
        if step == .shown {
            settingsUIShown(&out)
            becomeReady(&out)
            cmpUIShown(&out)
        }
        if signal.mayCarryConsent, let gppString = signal.gppString, let payload = withRun({
            $0.page.updatingGPP(
                gppString, sections: signal.applicableSections, reportsStatus: signal.signalStatus != nil,
                userActed: $0.gppProgress.userActed, last: $0.consent.lastStored)
        }) ?? nil {
            becomeReady(&out)
            commit(payload, endsUI: false, &out)
        }
        if step == .finishedByUser {
            // The user acted and the CMP hid its UI: what it signalled while the UI was up is the user's answer.
            if let last = run?.lastAsked, last.action != .userChoice {
                var chosen = last
                chosen.action = .userChoice
                commit(chosen, endsUI: false, &out)
            }
            finishAfterSettling(&out)
        }
    }

    /// The CMP's consent UI is on screen (TCF `cmpuishown`, GPP `cmpDisplayStatus: visible`): until the user acts, a
    /// signal is the CMP's default, not the user's answer (``ConsentProvenance/Action/noChoiceWhileUIShown``). A
    /// default this run stored before the UI showed (a GPP or US Privacy signal) is stored again as such, so that an
    /// app ended with the UI up asks again at the next launch (``ConsentRenewalReason/notAnswered``). What a CMP
    /// re-reported from its own storage (TCF `tcloaded`) is not: the user chose it before (privacy settings are shown
    /// over it).
    private mutating func cmpUIShown(_ out: inout Effects) {
        guard let run = withRun({ run -> Run in
            run.cmpUIVisible = true
            return run
        }), !run.consent.userChose, let last = run.lastAsked, last.action == .signalUpdate else { return }
        commit(last, endsUI: false, &out)
    }

    /// The origin a reply to `message` is posted to: the sender's (already checked against the allowed origins), or,
    /// when the adapter cannot tell, the origin of the page the bridge loaded. `nil`: no reply.
    private func replyOrigin(for message: ScriptMessage) -> String? {
        message.origin ?? run?.loads.currentURL.flatMap(SecurityOrigin.origin(of:))
    }

    // MARK: Commit

    /// Asks the runner to commit `payload` (``Effect/commit(_:)``) as the run's next request, of the current load;
    /// `endsUI`: a stored commit ends the UI after ``BridgeConfiguration/finishDelay``.
    /// Whatever arrives while the CMP's UI is on screen is its default, not yet the user's answer
    /// (``ConsentProvenance/Action/noChoiceWhileUIShown``): the user's answer is a TCF `useractioncomplete` or a
    /// dialect's save (they end the UI's visibility before they commit), or a GPP UI hidden after the user acted
    /// (which commits the signal again as the user's choice).
    private mutating func commit(_ payload: ConsentPayload, endsUI: Bool, _ out: inout Effects) {
        var payload = payload
        guard let run = withRun({ run in
            run.commitsAsked += 1
            if run.cmpUIVisible { payload.action = .noChoiceWhileUIShown }
            run.lastAsked = payload
            return run
        }) else { return }
        out.append(.commit(CommitRequest(
            id: run.commitsAsked, load: run.loads.current, endsUI: endsUI, payload: payload, page: run.page,
            rules: configuration.commitRules(
                pageConfigVersion: run.configVersion, source: run.loads.showsFallback ? .fallbackPage : .cmpPage))))
    }

    /// The store's answer to `request`: on success the consent is announced, tracking is decided, and the UI may end.
    /// Only the answer to the live run's latest request of the current load is taken: the runner answers each request
    /// at once, so any other is stray or late (after the run ended, for a replaced load, or superseded by a later
    /// request whose answer must not be set back); it is ignored with a diagnostic.
    mutating func committed(
        _ request: CommitRequest, _ outcome: CommitOutcome, trackingStatus: TrackingAuthorizationStatus,
        _ out: inout Effects
    ) {
        if let stray = strayness(of: request) {
            return report(.diagnostic("ignored the store's answer to commit \(request.id): \(stray)"), &out)
        }
        withRun { $0.lastCommitAnswered = request.id }
        let payload = request.payload
        let userAction = payload.action == .userChoice
        switch outcome {
        case .refused(let error):
            return report(.error(error), &out)
        case .storageFailed(let error):
            if userAction { report(.userAction(isRejectAll: payload.isRejectAll), &out) }
            return report(.error(.storageFailed(IABConsentError(error))), &out)
        case .stored(let summary, let diagnostics):
            if userAction { report(.userAction(isRejectAll: payload.isRejectAll), &out) }
            let tracking = configuration.tracking
            withRun {
                $0.consent.stored(payload, byUser: userAction) {
                    summary.decoded.map {
                        tracking.shouldRequestAfterConsent(
                            purposeConsents: $0.purposeConsents, status: trackingStatus, alreadyRequestedForThisConsent: false)
                    } ?? false
                }
            }
            for diagnostic in diagnostics { report(.diagnostic(diagnostic), &out) }
            report(.consentReady(summary), &out)
            if request.endsUI { finishAfterSettling(&out) }
        }
    }

    /// Why an answer to `request` is not the one the machine waits for (`nil`: it is).
    private func strayness(of request: CommitRequest) -> String? {
        guard let run else { return "no run is live" }
        guard request.id == run.commitsAsked, run.commitsAsked > 0 else {
            return request.id < run.commitsAsked ? "a later commit was asked for" : "it was never asked for"
        }
        guard request.load == run.loads.current else { return "its load was replaced" }
        guard request.id != run.lastCommitAnswered else { return "it was answered already" }
        return nil
    }
}
