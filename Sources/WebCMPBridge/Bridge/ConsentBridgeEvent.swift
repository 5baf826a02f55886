/// What a ``ConsentBridge`` reports, in order, to its delegate and its event streams.
public enum ConsentBridgeEvent: Sendable, Hashable {
    /// The CMP page is ready (its dialect is known; for Gravito the stored record has been injected).
    case uiReady(CMPDialect)
    /// The user acted in the CMP UI (about to be stored). `isRejectAll` when the page said so.
    case userAction(isRejectAll: Bool?)
    /// Consent was stored and is in force.
    case consentReady(ConsentSummary)
    /// The CMP UI is finished and can be dismissed. Nothing the page sends afterwards is stored.
    case uiFinished(UIFinishReason)
    /// App Tracking Transparency was requested after the consent UI was gone, with this result.
    case trackingAuthorization(TrackingAuthorizationStatus)
    /// Something worth knowing that is not an error, e.g. a payload whose arrays disagree with its TC string.
    case diagnostic(String)
    /// Something went wrong, and the CMP UI goes on (a rejected message, refused or unstored consent, a failed
    /// tracking request); see ``ConsentBridgeError``.
    case error(ConsentBridgeError)
    /// Something went wrong that ends the CMP UI (the page did not load or become ready, its process died, the web
    /// view could not be set up, the privacy settings did not open): ``uiFinished(_:)`` follows with
    /// ``UIFinishReason/failed`` or ``UIFinishReason/timedOut``. The bridge decides which failures end the UI; a
    /// consent UI shows this error (``ConsentBridgeError/userFacingMessage``) until the person closes it. A failure the
    /// app's ``BridgeConfiguration/fallback`` page answers is not reported.
    case failed(ConsentBridgeError)

    /// The error of ``error(_:)`` or ``failed(_:)``; `nil` for every other event.
    package var reportedError: ConsentBridgeError? {
        switch self {
        case .error(let error), .failed(let error): return error
        default: return nil
        }
    }

    /// Whether the CMP UI should be dismissed after this event.
    public var endsPresentation: Bool {
        if case .uiFinished = self { return true }
        return false
    }
}

/// Why the CMP UI is finished.
public enum UIFinishReason: String, Sendable, Hashable, CaseIterable {
    /// The page asked to close (Gravito `close`).
    case closed
    /// The user's choice was saved by a CMP that has no close message (generic TCF `useractioncomplete`,
    /// Onesecondbefore `consent`).
    case consentSaved
    /// The user dismissed the UI with the system gesture without the page finishing (see ``InteractiveDismissal``).
    case dismissedByUser
    /// The page did not become ready in time.
    case timedOut
    /// The page failed to load or its process died.
    case failed
}

extension UIFinishReason {
    /// Whether the UI ended because of an error (``timedOut``, ``failed``): a consent UI then keeps its error message
    /// on screen until the person closes it, instead of disappearing before it could be read.
    public var keepsErrorOnScreen: Bool { self == .timedOut || self == .failed }
}
