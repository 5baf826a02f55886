import Foundation

/// Privacy settings on demand (``ConsentUIMode/settings``): the opener's calls are made once the page is ready and,
/// on a page with the generic TCF/GPP dialect, judged by evidence (``SettingsOpening``): the settings are open only
/// when the CMP shows its UI; a refusal, an exception, a missing function or silence moves on to the next candidate,
/// and when none is left the run ends with ``ConsentBridgeError/privacySettingsNotOpened(_:)`` and consent unchanged.
///
/// Gravito and Onesecondbefore pages give no UI signal: there the opener's query items or call are used as before
/// (the call fire-and-forget) and the page's ready message counts.
extension ConsentBridge {
    /// Whether calls report their results and the UI signals are heard (the forwarder's handler is registered).
    private var judgesSettingsByEvidence: Bool { detection.listened.contains(.tcf) }

    /// In settings mode, starts opening the CMP's preferences, once per page load.
    func openSettingsIfNeeded() {
        guard configuration.mode == .settings, !openedSettings else { return }
        openedSettings = true
        let candidates = configuration.settingsOpener.candidates
        guard judgesSettingsByEvidence else {
            if let first = candidates.first { webView?.evaluateJavaScript(first.script) }
            privacySettingsOpenedBy = SettingsOpening.byReadyMessage
            return
        }
        var opening = settingsOpening ?? SettingsOpening(candidates: candidates)
        let action = opening.start()
        settingsOpening = opening
        perform(action)
    }

    /// The CMP showed its UI (TCF `cmpuishown`, GPP `cmpDisplayStatus: visible`). Call before ``becomeReady()``.
    func settingsUIShown() {
        guard configuration.mode == .settings, judgesSettingsByEvidence else { return }
        var opening = settingsOpening ?? SettingsOpening(candidates: configuration.settingsOpener.candidates)
        let action = opening.uiShown()
        settingsOpening = opening
        perform(action)
    }

    /// A call in the page reported its result.
    func settingsCallReported(_ result: SettingsOpening.CallResult, attempt: Int) {
        guard var opening = settingsOpening else { return }
        let action = opening.callReported(result, attempt: attempt)
        settingsOpening = opening
        perform(action)
    }

    /// Forgets the opening (a reload after the web content process terminated opens the settings again).
    func resetSettingsOpening() {
        settingsTimer?.cancel()
        settingsTimer = nil
        settingsOpening = nil
        openedSettings = false
    }

    private func perform(_ action: SettingsOpening.Action) {
        switch action {
        case .none:
            return
        case .call(let call, let attempt):
            settingsTimer?.cancel()
            let seconds = configuration.settingsAttemptTimeout
            settingsTimer = scheduler.schedule(seconds) { [weak self] in
                guard let self, var opening = self.settingsOpening else { return }
                let next = opening.attemptTimedOut(attempt, after: seconds)
                self.settingsOpening = opening
                self.perform(next)
            }
            webView?.evaluateJavaScript(call.script(reportingTo: CMPDialect.tcf.handlerName, attempt: attempt))
        case .opened(let name):
            settingsTimer?.cancel()
            settingsTimer = nil
            privacySettingsOpenedBy = name
            report(.diagnostic("privacy settings opened by \(name)"))
        case .failed(let reason):
            settingsTimer?.cancel()
            settingsTimer = nil
            fail(.privacySettingsNotOpened(reason))
        }
    }
}
