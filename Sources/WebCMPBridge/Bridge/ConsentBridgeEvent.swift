/// What a ``ConsentBridge`` reports, in order, to its delegate and its event streams.
public enum ConsentBridgeEvent: Sendable, Hashable {
    /// The CMP page is ready (its dialect is known; for Gravito the stored record has been injected).
    case uiReady(CMPDialect)
    /// The user acted in the CMP UI (about to be stored). `isRejectAll` when the page said so.
    case userAction(isRejectAll: Bool?)
    /// Consent was stored and is in force.
    case consentReady(ConsentSummary)
    /// The CMP UI can be dismissed.
    case uiFinished(UIFinishReason)
    /// App Tracking Transparency was requested (or skipped because it was already determined) with this result.
    case trackingAuthorization(TrackingAuthorizationStatus)
    /// Something worth knowing that is not an error, e.g. a payload whose arrays disagree with its TC string.
    case diagnostic(String)
    /// Something went wrong; see ``ConsentBridgeError``.
    case error(ConsentBridgeError)
}

/// Why the CMP UI is finished.
public enum UIFinishReason: String, Sendable, Hashable {
    /// The page asked to close.
    case closed
    /// Consent was saved by a CMP that has no close message (generic TCF dialect).
    case consentSaved
    /// The page did not become ready in time.
    case timedOut
    /// The page failed to load or its process died.
    case failed
}
