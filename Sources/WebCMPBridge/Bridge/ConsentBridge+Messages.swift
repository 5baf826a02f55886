import Foundation

/// Messages from the page: frame and origin checks, decoding, dialect detection, and what each message does.
extension ConsentBridge {
    /// Handles a message the page posted (untrusted until decoded).
    func handle(_ message: ScriptMessage) {
        let handler = message.handlerName
        guard message.isMainFrame else { return report(.error(.notMainFrame(handler: handler))) }
        if let origin = message.origin, !SecurityOrigin.isAllowed(origin, in: allowedOrigins) {
            return report(.error(.forbiddenOrigin(handler: handler, origin: origin)))
        }
        let messageDialect: CMPDialect
        let cmpMessage: CMPMessage
        do {
            (messageDialect, cmpMessage) = try decoder.decode(handlerName: handler, body: decoder.value(of: message.body))
        } catch {
            return report(.error(.invalidMessage(handler: handler, error)))
        }
        switch detection.classify(messageDialect, isConsent: cmpMessage.fixesGenericDialect) {
        case .accept: break
        case .ignore: return
        case .reject(let expected): return report(.error(.unexpectedDialect(handler: handler, expected: expected)))
        }
        switch cmpMessage {
        case .ready:
            becomeReady(injectRecordTo: messageDialect == .gravito ? replyOrigin(for: message) : nil)
        case .uiShown:
            settingsUIShown()
            becomeReady()
        case .configurationLoaded(let version):
            configVersion = version
        case .gpp(let signal):
            handleGPP(signal, dialect: messageDialect)
        case .usPrivacy(let usPrivacy):
            handleUSPrivacy(usPrivacy, dialect: messageDialect)
        case .save(let payload):
            becomeReady()
            // Dialects without a close message end with the user's choice; a CMP reporting what it already had
            // (`tcloaded`) does not end the UI: the user may be about to change it.
            // A page that says GDPR does not apply has nothing to ask: its answer ends the UI too.
            let nothingToAsk = payload.gdprApplies == false && payload.strings.isEmpty
            if save(payload, dialect: messageDialect), messageDialect != .gravito,
                payload.origin == .userAction || nothingToAsk
            {
                finishAfterSettling()
            }
        case .close:
            finish(.closed)
        case .settingsCall(let attempt, let result):
            settingsCallReported(result, attempt: attempt)
        }
    }
}
