import Foundation

/// Messages from the page: frame and origin checks, decoding by the dialect's rules, dialect detection, and what each
/// message does; then the commit of consent and its answer.
extension BridgeMachine {
    /// Handles a message the page posted (untrusted until decoded).
    mutating func handle(_ message: ScriptMessage, now: Date, _ out: inout Effects) {
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
            cmpUIShown(now: now, &out)
        case .configurationLoaded(let version):
            withRun { $0.configVersion = version }
        case .gpp(let signal):
            handleGPP(signal, rules: rules, now: now, &out)
        case .usPrivacy(let usPrivacy):
            let payload = withRun { $0.page.updatingUSPrivacy(usPrivacy, last: $0.consent.lastStored) } ?? nil
            if let payload { commit(payload, endsUI: false, appliesSignals: true, now: now, &out) }
        case .save(let payload):
            becomeReady(&out)
            // A dialect without a close message ends with the user's choice; a CMP reporting what it already had
            // (`tcloaded`) does not end the UI: the user may be about to change it. A page that says GDPR does not
            // apply has nothing to ask: its answer ends the UI too.
            let nothingToAsk = payload.gdprApplies == false && payload.strings.isEmpty
            // The user's action ends what the CMP's UI asked (TCF `useractioncomplete`: the UI is closed).
            if payload.action == .userChoice { withRun { $0.cmpUIVisible = false } }
            commit(payload, endsUI: rules.userSaveEndsUI && (payload.action == .userChoice || nothingToAsk), now: now, &out)
        case .close:
            finish(.closed, &out)
        case .settingsCall(let attempt, let result):
            settingsCallReported(result, attempt: attempt, &out)
        case .openAppSettings:
            openAppSettings(&out)
        }
    }

    /// A GPP event: `cmpDisplayStatus: visible` is the UI shown; a string that is not being updated (`signalStatus`
    /// not `not ready`) is committed (``PageSignals``); the UI ends (after ``BridgeConfiguration/finishDelay``) when
    /// the user acted and the CMP hid its UI again (``GPPUIProgress``).
    private mutating func handleGPP(_ signal: GPPSignal, rules: any MessageDialect, now: Date, _ out: inout Effects) {
        guard let step = withRun({ $0.gppProgress.observe(signal) }) else { return }
        if signal.displayStatus == .hidden || signal.displayStatus == .disabled { withRun { $0.cmpUIVisible = false } }
        if step == .shown {
            settingsUIShown(&out)
            becomeReady(&out)
            cmpUIShown(now: now, &out)
        }
        if signal.mayCarryConsent, let gppString = signal.gppString, let payload = withRun({
            $0.page.updatingGPP(
                gppString, sections: signal.applicableSections, reportsStatus: signal.signalStatus != nil,
                userActed: $0.gppProgress.userActed, last: $0.consent.lastStored, inForce: $0.stored)
        }) ?? nil {
            becomeReady(&out)
            commit(payload, endsUI: false, appliesSignals: true, now: now, &out)
        }
        if step == .finishedByUser {
            // The user acted and the CMP hid its UI: what it signalled while the UI was up is the user's answer.
            if let last = run?.lastAsked, last.payload.action != .userChoice {
                var chosen = last.payload
                chosen.action = .userChoice
                commit(chosen, endsUI: false, appliesSignals: last.appliesSignals, now: now, &out)
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
    private mutating func cmpUIShown(now: Date, _ out: inout Effects) {
        guard let run = withRun({ run -> Run in
            run.cmpUIVisible = true
            return run
        }), !run.consent.userChose, let last = run.lastAsked, last.payload.action == .signalUpdate else { return }
        commit(last.payload, endsUI: false, appliesSignals: last.appliesSignals, now: now, &out)
    }

    /// The origin a reply to `message` is posted to: the sender's (already checked against the allowed origins), or,
    /// when the adapter cannot tell, the origin of the page the bridge loaded. `nil`: no reply.
    private func replyOrigin(for message: ScriptMessage) -> String? {
        message.origin ?? run?.loads.currentURL.flatMap(SecurityOrigin.origin(of:))
    }

    // MARK: Commit

    /// Commits `payload` in one pass: ``ConsentCommit`` runs here, on the page's consent, the page's signals, the
    /// record in force (``Run/stored``), the app's rules and `now`; a refusal is reported at once, and what is to be
    /// stored goes to the store in one effect (``Effect/store(_:)``), the run's next save of the current load.
    /// `endsUI`: its success ends the UI after ``BridgeConfiguration/finishDelay``.
    /// Whatever arrives while the CMP's UI is on screen is its default, not yet the user's answer
    /// (``ConsentProvenance/Action/noChoiceWhileUIShown``): the user's answer is a TCF `useractioncomplete` or a
    /// dialect's save (they end the UI's visibility before they commit), or a GPP UI hidden after the user acted
    /// (which commits the signal again as the user's choice). A pre-warmed page that no UI has shown yet
    /// (``Run/awaitsFirstPresentation``) cannot carry the user's answer: what it states as one is stored as a report
    /// (``ConsentProvenance/Action/reReport``), with a diagnostic; its run goes on (or ends) as it would.
    private mutating func commit(
        _ payload: ConsentPayload, endsUI: Bool, appliesSignals: Bool = false, now: Date, attempt: Int = 1,
        _ out: inout Effects
    ) {
        var payload = payload
        var unseen = false
        guard let run = withRun({ run in
            if run.cmpUIVisible { payload.action = .noChoiceWhileUIShown }
            if run.awaitsFirstPresentation, payload.action == .userChoice {
                payload.action = .reReport
                unseen = true
            }
            run.lastAsked = AskedCommit(payload: payload, appliesSignals: appliesSignals)
            return run
        }) else { return }
        if unseen { report(.diagnostic(Self.unseenChoice), &out) }
        let (source, details) = pageSource(of: run)
        let commit: ConsentCommit
        do {
            commit = try ConsentCommit(
                payload: payload, page: run.page, previous: run.stored,
                rules: configuration.commitRules(pageConfigVersion: run.configVersion, source: source), now: now)
        } catch {
            return report(.error(ConsentBridgeError(error)), &out)
        }
        let id = run.savesAsked + 1
        withRun {
            $0.savesAsked = id
            $0.latestSave = PendingSave(
                id: id, load: run.loads.current, endsUI: endsUI,
                asked: AskedCommit(payload: payload, appliesSignals: appliesSignals), summary: commit.summary,
                diagnostics: commit.diagnostics, now: now, attempt: attempt)
        }
        out.append(.store(Save(
            id: id, keys: commit.keys, record: commit.record, provenance: commit.change, details: details, now: now,
            replacing: run.storedVersion)))
    }

    /// The diagnostic of a choice stated by a pre-warmed page that no UI has shown yet.
    static let unseenChoice = "a pre-warmed page stated a user's choice before any UI showed it: stored as a report"
        + " (reReport), not as the user's choice"

    /// Which page a save of `run` comes from, decided here only: the app's fallback page while it is shown, else the
    /// hosted CMP page; and the details its history entry records (the dialect, the configured page URL).
    private func pageSource(of run: Run) -> (ConsentProvenance.Source, [String: String]) {
        (run.loads.showsFallback ? .fallbackPage : .cmpPage,
         ConsentHistoryEntry.pageDetails(dialect: dialect, pageURL: configuration.cmpURL))
    }

    /// The store's answer to save `id` (`error`: `nil` when stored): on success the consent is announced, tracking
    /// is decided, and the UI may end. Only the answer to the live run's latest save of the current load is taken:
    /// the runner answers each save at once, so any other is stray or late (after the run ended, for a replaced load,
    /// or superseded by a later save whose answer must not be set back); it is ignored with a diagnostic.
    mutating func storeAnswered(
        _ id: Int, _ error: ConsentStoreError?, written: ConsentStore.RecordVersion,
        trackingStatus: TrackingAuthorizationStatus, _ out: inout Effects
    ) {
        if let stray = strayness(ofSave: id) {
            return report(.diagnostic("ignored the store's answer to commit \(id): \(stray)"), &out)
        }
        guard let save = withRun({ run -> PendingSave? in
            run.lastSaveAnswered = id
            return run.latestSave
        }) ?? nil else { return unreachable("save \(id) answered without its facts") }
        let payload = save.asked.payload
        if case .recordChanged(let current, let version)? = error {
            // Another write changed the stored record since the save was prepared (the app's `rejectAll()` during a
            // pre-warm, another bridge, another store): the run knows the record in force from now on, and the save
            // is prepared again on it, so that nothing it holds is lost: the page's consent as it stated it, or the
            // page's signal applied to the record in force (not to the run's consent, which that write replaced).
            withRun {
                $0.stored = current
                $0.storedVersion = version
            }
            if save.attempt < PendingSave.maximumAttempts {
                guard save.asked.appliesSignals else {
                    return commit(payload, endsUI: save.endsUI, now: save.now, attempt: save.attempt + 1, &out)
                }
                guard let rebased = run?.page.rebasing(payload, on: current) else {
                    return report(.diagnostic(
                        "a page signal was not stored: another write removed the consent it updated"), &out)
                }
                return commit(
                    rebased, endsUI: save.endsUI, appliesSignals: true, now: save.now, attempt: save.attempt + 1,
                    &out)
            }
        }
        let userAction = payload.action == .userChoice
        if userAction { report(.userAction(isRejectAll: payload.isRejectAll), &out) }
        if let error { return report(.error(.storageFailed(IABConsentError(error))), &out) }
        let tracking = configuration.tracking
        let summary = save.summary
        withRun {
            $0.stored = summary.record
            $0.storedVersion = written
            $0.consent.stored(payload, byUser: userAction) {
                summary.decoded.map {
                    tracking.shouldRequestAfterConsent(
                        purposeConsents: $0.purposeConsents, status: trackingStatus, alreadyRequestedForThisConsent: false)
                } ?? false
            }
        }
        for diagnostic in save.diagnostics { report(.diagnostic(diagnostic), &out) }
        report(.consentReady(summary), &out)
        if save.endsUI { finishAfterSettling(&out) }
    }

    /// Why an answer to save `id` is not the one the machine waits for (`nil`: it is).
    private func strayness(ofSave id: Int) -> String? {
        guard let run else { return "no run is live" }
        guard id == run.savesAsked, run.savesAsked > 0 else {
            return id < run.savesAsked ? "a later commit was asked for" : "it was never asked for"
        }
        guard run.latestSave?.load == run.loads.current else { return "its load was replaced" }
        guard id != run.lastSaveAnswered else { return "it was answered already" }
        return nil
    }
}
