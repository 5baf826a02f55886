/// What one run of the CMP UI (`ConsentBridge.run(in:)`) ended with.
///
/// Bound by the kit's promises over a session: <doc:SessionPromises> (promise 1).
public struct ConsentOutcome: Sendable, Hashable {
    /// The consent stored during the run (the last one, when the page saved more than once), or `nil`.
    public var summary: ConsentSummary?
    /// Why the UI finished; `nil` when the run was cancelled or the bridge invalidated before the UI finished.
    public var finishReason: UIFinishReason?
    /// The App Tracking Transparency result, when the run requested it (after the UI was gone and the app active).
    public var trackingAuthorization: TrackingAuthorizationStatus?
    /// Every error reported during the run, in order.
    public var errors: [ConsentBridgeError]

    /// Creates an outcome.
    public init(
        summary: ConsentSummary? = nil, finishReason: UIFinishReason? = nil,
        trackingAuthorization: TrackingAuthorizationStatus? = nil, errors: [ConsentBridgeError] = []
    ) {
        self.summary = summary
        self.finishReason = finishReason
        self.trackingAuthorization = trackingAuthorization
        self.errors = errors
    }

    /// Adds what `event` tells.
    mutating func record(_ event: ConsentBridgeEvent) {
        switch event {
        case .consentReady(let summary): self.summary = summary
        case .uiFinished(let reason): finishReason = reason
        case .trackingAuthorization(let status): trackingAuthorization = status
        case .error(let error), .failed(let error): errors.append(error)
        case .uiReady, .userAction, .diagnostic: break
        }
    }
}
