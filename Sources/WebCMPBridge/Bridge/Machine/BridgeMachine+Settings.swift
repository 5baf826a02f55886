/// Privacy settings on demand (``ConsentUIMode/settings``), judged by evidence (``SettingsOpening``): once the page is
/// ready the opener of the dialect in force is called — again every ``SettingsOpening/retryInterval`` while it may
/// still work — and the settings are open only when the CMP shows its UI (TCF `cmpuishown` or `ping`'s
/// `displayStatus: "visible"`, GPP `cmpDisplayStatus: visible`); otherwise the run ends with
/// ``ConsentBridgeError/Code/privacySettingsNotOpened`` and consent unchanged.
///
/// - **Which opener.** ``BridgeConfiguration/privacySettings`` when the app set one; otherwise the default of the
///   dialect in force (``MessageDialect/defaultSettingsOpener``). In automatic detection the generic listener's ready
///   message does not fix the dialect, but it is the only way a page becomes ready with none fixed (an app protocol
///   fixes it with its first message), so then the generic dialect's opener (``PrivacySettingsOpener/automatic``)
///   applies.
/// - **Where the evidence comes from.** The generic listener (the TCF/GPP forwarder) reports UI signals and the calls'
///   results. Gravito's and Onesecondbefore's own protocols have no UI message, so in settings mode their pages are
///   judged by the same forwarder, listened to for evidence only (``DialectDetection``): a page of theirs that runs no
///   TCF or GPP API cannot prove its settings are shown, and fails.
extension BridgeMachine {
    /// Privacy settings at the start of a page load: to be opened in settings mode, not requested (`nil`) otherwise.
    var freshSettings: SettingsOpening? {
        configuration.mode == .settings ? SettingsOpening() : nil
    }

    /// The dialect whose default opener applies: the one in force or, before any is fixed, the generic listener.
    private var settingsRules: (any MessageDialect)? {
        detection.current ?? detection.listened.first { $0.isGenericListener }
    }

    /// The listened dialect that reports the UI and the calls' results.
    private var evidenceRules: (any MessageDialect)? { detection.listened.first { $0.reportsUIShown } }

    /// In settings mode, starts opening the CMP's preferences, once per page load.
    mutating func openSettingsIfNeeded(_ out: inout Effects) {
        guard let opening = run?.settings, !opening.isStarted else { return }
        guard evidenceRules != nil else {
            let dialect = settingsRules?.dialect.rawValue ?? "unknown"
            return fail(.privacySettingsNotOpened("the page's dialect (\(dialect)) reports no UI, and no TCF/GPP listener runs"), &out)
        }
        let candidates = (configuration.privacySettings ?? settingsRules?.defaultSettingsOpener ?? .default(for: nil)).candidates
        guard let actions = withRun({ $0.settings?.start(candidates: candidates) }) ?? nil else { return }
        perform(actions, timersRan: false, &out)
    }

    /// The CMP showed its UI (TCF `cmpuishown`, GPP `cmpDisplayStatus: visible`). Call before ``becomeReady(injectRecordTo:_:)``.
    /// Before the opening started it is noted (the start then opens without a call).
    mutating func settingsUIShown(_ out: inout Effects) {
        guard let timersRan = run?.settings?.timersMayRun,
            let actions = withRun({ $0.settings?.uiShown() }) ?? nil
        else { return }
        perform(actions, timersRan: timersRan, &out)
    }

    /// A message the dialect rules ignore (the generic listener's, beside an app protocol): in settings mode its UI
    /// signals and call reports are still the evidence.
    mutating func settingsEvidence(_ message: CMPMessage, _ out: inout Effects) {
        switch message {
        case .uiShown: settingsUIShown(&out)
        case .gpp(let signal) where signal.displayStatus == .visible: settingsUIShown(&out)
        case .settingsCall(let attempt, let result): settingsCallReported(result, attempt: attempt, &out)
        default: break
        }
    }

    /// A call in the page reported its result.
    mutating func settingsCallReported(_ result: SettingsOpening.CallResult, attempt: Int, _ out: inout Effects) {
        guard let timersRan = run?.settings?.timersMayRun,
            let actions = withRun({ $0.settings?.callReported(result, attempt: attempt) }) ?? nil
        else { return }
        perform(actions, timersRan: timersRan, &out)
    }

    /// A settings timer fired: the opener's window ended, or it is time to call it again.
    mutating func settingsTimerFired(_ timer: Timer, _ out: inout Effects) {
        guard run?.settings?.timersMayRun == true else { return }
        let window = configuration.settingsAttemptTimeout
        guard let actions = withRun({
            timer == .settingsRetry ? $0.settings?.retry() : $0.settings?.attemptWindowEnded(after: window)
        }) ?? nil else { return }
        perform(actions, timersRan: true, &out)
    }

    /// Carries out `actions`; `timersRan`: the settings timers may be running (they are stopped when opening settles).
    private mutating func perform(_ actions: [SettingsOpening.Action], timersRan: Bool, _ out: inout Effects) {
        for action in actions {
            switch action {
            case .call(let call, let attempt):
                out.append(.evaluate(call.script(reportingTo: evidenceRules?.handlerName, attempt: attempt)))
            case .startWindow:
                schedule(.settingsAttempt, seconds: configuration.settingsAttemptTimeout, &out)
            case .retryLater:
                schedule(.settingsRetry, seconds: SettingsOpening.retryInterval, &out)
            case .opened(let name):
                if timersRan { stopSettingsTimers(&out) }
                privacySettingsOpenedBy = name
                report(.diagnostic("privacy settings opened by \(name)"), &out)
            case .failed(let reason):
                if timersRan { stopSettingsTimers(&out) }
                fail(.privacySettingsNotOpened(reason), &out)
            }
        }
    }

    /// Stops the settings timers that are armed.
    mutating func stopSettingsTimers(_ out: inout Effects) {
        cancel(.settingsAttempt, &out)
        cancel(.settingsRetry, &out)
    }
}
