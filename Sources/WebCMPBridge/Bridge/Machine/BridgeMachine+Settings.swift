/// Privacy settings on demand (``ConsentUIMode/settings``): the opener's calls are made once the page is ready and,
/// on a dialect that reports its UI (``MessageDialect/reportsUIShown``), judged by evidence (``SettingsOpening``): the
/// settings are open only when the CMP shows its UI; a refusal, an exception, a missing function or silence moves on
/// to the next candidate, and when none is left the run ends with ``ConsentBridgeError/privacySettingsNotOpened(_:)``
/// and consent unchanged. Dialects that give no UI signal (Gravito, Onesecondbefore) get the opener's first call
/// fire-and-forget, and their ready message counts.
extension BridgeMachine {
    /// Whether calls report their results and the UI signals are heard (a listened dialect reports them).
    private var judgesSettingsByEvidence: Bool { detection.listened.contains { $0.reportsUIShown } }

    /// In settings mode, starts opening the CMP's preferences, once per page load.
    mutating func openSettingsIfNeeded(_ out: inout Effects) {
        guard var run, case .pending(var opening) = run.settings else { return }
        guard judgesSettingsByEvidence else {
            run.settings = .calledOnReady
            self.run = run
            if let first = opening.candidates.first { out.append(.evaluate(first.script)) }
            privacySettingsOpenedBy = SettingsOpening.byReadyMessage
            return
        }
        let action = opening.start()
        run.settings = .opening(opening)
        self.run = run
        perform(action, &out)
    }

    /// The CMP showed its UI (TCF `cmpuishown`, GPP `cmpDisplayStatus: visible`). Call before ``becomeReady(injectRecordTo:_:)``.
    mutating func settingsUIShown(_ out: inout Effects) {
        guard judgesSettingsByEvidence, var run else { return }
        switch run.settings {
        case .pending(var opening):
            _ = opening.uiShown()
            run.settings = .pending(opening)
            self.run = run
        case .opening(var opening):
            let action = opening.uiShown()
            run.settings = .opening(opening)
            self.run = run
            perform(action, &out)
        case .notRequested, .calledOnReady:
            break
        }
    }

    /// A call in the page reported its result.
    mutating func settingsCallReported(_ result: SettingsOpening.CallResult, attempt: Int, _ out: inout Effects) {
        guard var run, case .opening(var opening) = run.settings else { return }
        let action = opening.callReported(result, attempt: attempt)
        run.settings = .opening(opening)
        self.run = run
        perform(action, &out)
    }

    /// The attempt timer fired.
    mutating func settingsAttemptTimedOut(_ out: inout Effects) {
        guard var run, case .opening(var opening) = run.settings, let attempt = opening.attempt else { return }
        let action = opening.attemptTimedOut(attempt, after: configuration.settingsAttemptTimeout)
        run.settings = .opening(opening)
        self.run = run
        perform(action, &out)
    }

    private mutating func perform(_ action: SettingsOpening.Action, _ out: inout Effects) {
        switch action {
        case .none:
            return
        case .call(let call, let attempt):
            schedule(.settingsAttempt, seconds: configuration.settingsAttemptTimeout, &out)
            let handler = detection.listened.first { $0.reportsUIShown }?.handlerName
            out.append(.evaluate(call.script(reportingTo: handler, attempt: attempt)))
        case .opened(let name):
            cancel(.settingsAttempt, &out)
            privacySettingsOpenedBy = name
            report(.diagnostic("privacy settings opened by \(name)"), &out)
        case .failed(let reason):
            cancel(.settingsAttempt, &out)
            fail(.privacySettingsNotOpened(reason), &out)
        }
    }
}
