import Foundation

/// The generic dialect's GPP and US Privacy signals (from the forwarder's `__gpp` and `__uspapi` calls).
extension ConsentBridge {
    /// A GPP event: `cmpDisplayStatus: visible` is the UI shown; a string that is not being updated (`signalStatus`
    /// not `not ready`) is stored — as the GPP part of the consent saved in this run, or on a GPP-only page as the
    /// consent itself; the UI ends (after ``BridgeConfiguration/finishDelay``) when the user acted and the CMP hid its
    /// UI again (``GPPUIProgress``).
    func handleGPP(_ signal: GPPSignal, dialect messageDialect: CMPDialect) {
        let step = gppProgress.observe(signal)
        if step == .shown {
            settingsUIShown()
            becomeReady()
        }
        if signal.mayCarryConsent, let gppString = signal.gppString {
            storeGPP(gppString, sections: signal.applicableSections, reportsStatus: signal.signalStatus != nil,
                     dialect: messageDialect)
        }
        if step == .finishedByUser { finishAfterSettling() }
    }

    private func storeGPP(_ gppString: String, sections: [Int]?, reportsStatus: Bool, dialect messageDialect: CMPDialect) {
        pageGPP = (gppString, sections)
        var payload = lastPayload ?? ConsentPayload(origin: .loaded, strings: ConsentStrings())
        guard payload.strings.gppString != gppString || payload.strings.gppApplicableSections != sections else { return }
        // A CMP that reports `signalStatus: ready` with a header and no section has no consent yet: not an error.
        if reportsStatus, payload.strings.isEmpty, ConsentCommit.isBareGPPHeader(ConsentStrings(gppString: gppString)) {
            return
        }
        payload.origin = gppProgress.userActed ? .userAction : .loaded
        payload.strings.gppString = gppString
        payload.strings.gppApplicableSections = sections
        becomeReady()
        save(payload, dialect: messageDialect)
    }

    /// The page's US Privacy string: stored with the consent saved in this run (now, or with the next save). It is
    /// never consent on its own: a CMP answers `getUSPData` before the user chose anything.
    func handleUSPrivacy(_ usPrivacy: String, dialect messageDialect: CMPDialect) {
        guard usPrivacy != pageUSPrivacy else { return }
        pageUSPrivacy = usPrivacy
        guard var payload = lastPayload else { return }
        payload.origin = .loaded
        payload.strings.usPrivacy = usPrivacy
        save(payload, dialect: messageDialect)
    }
}
