extension ConsentBridge {
    /// Commits and stores `payload`; `false` when it was refused (the error is reported, nothing is written).
    @discardableResult
    func save(_ payload: ConsentPayload, dialect messageDialect: CMPDialect) -> Bool {
        let commit: ConsentCommit
        do {
            commit = try ConsentCommit(
                payload: payload, pageGPP: pageGPP, pageUSPrivacy: pageUSPrivacy, previous: store.record(),
                rules: configuration.commitRules(
                    dialect: messageDialect, pageConfigVersion: configVersion, source: commitSource),
                now: scheduler.now())
        } catch {
            report(.error(ConsentBridgeError(error)))
            return false
        }
        if payload.origin == .userAction { report(.userAction(isRejectAll: payload.isRejectAll)) }
        do {
            try store.apply(commit.keys, record: commit.record)
        } catch {
            report(.error(.storageFailed(error)))
            return false
        }
        lastPayload = payload
        if payload.origin == .userAction { userChose = true }
        for diagnostic in commit.diagnostics { report(.diagnostic(diagnostic)) }
        report(.consentReady(commit.summary))
        if let decoded = commit.summary.decoded, !trackingPending {
            trackingPending = configuration.tracking.shouldRequestAfterConsent(
                purposeConsents: decoded.purposeConsents, status: trackingAuthorizer.status(),
                alreadyRequestedForThisConsent: false)
        }
        return true
    }
}
