/// The App Tracking Transparency client: the current status, and a request.
///
/// The live Apple implementation is `TrackingAuthorizer.appTrackingTransparency` (Apple platforms only); tests
/// build their own with closures.
public struct TrackingAuthorizer: Sendable {
    /// The current status.
    public var status: @MainActor @Sendable () -> TrackingAuthorizationStatus
    /// Shows the system prompt and returns the resulting status, or throws a ``ConsentBridgeError`` with the code
    /// ``ConsentBridgeError/Code/trackingAuthorizationFailed`` (the bridge reports it as it is).
    public var request: @MainActor @Sendable () async throws(ConsentBridgeError) -> TrackingAuthorizationStatus
    /// Returns once the app is active (at once when it already is). Apple shows the tracking prompt only to an active
    /// app (a request made while the app is inactive returns `.notDetermined` without a prompt), so the bridge waits
    /// for this before it asks. (The *next* activation after a request — when iOS 17.4 and later answer `.denied`
    /// before the alert was answered — comes from the web view's `AppLifecycleEvent`s, not from this client.)
    public var waitUntilActive: @MainActor @Sendable () async -> Void
    /// Who made this client: copies share it, so that a pre-warmed bridge is handed only to a request with the same
    /// client (`ConsentPrewarmer.take(matching:store:trackingAuthorizer:)`). Closures cannot be compared.
    let identity = Identity()

    /// The identity of a ``TrackingAuthorizer``, with the record of its requests in flight.
    final class Identity: Sendable {
        /// The requests in flight over this client and its copies (``TrackingRequestsInFlight``).
        let requestsInFlight = TrackingRequestsInFlight()
    }

    /// Creates a client.
    public init(
        status: @escaping @MainActor @Sendable () -> TrackingAuthorizationStatus,
        request: @escaping @MainActor @Sendable () async throws(ConsentBridgeError) -> TrackingAuthorizationStatus,
        waitUntilActive: @escaping @MainActor @Sendable () async -> Void = {}
    ) {
        self.status = status
        self.request = request
        self.waitUntilActive = waitUntilActive
    }

    /// Whether `other` is this client or a copy of it.
    package func isSame(as other: TrackingAuthorizer) -> Bool {
        identity === other.identity
    }

    /// A platform without App Tracking Transparency: status `.unavailable`, never prompts.
    public static let unavailable = TrackingAuthorizer(status: { .unavailable }, request: { .unavailable })
}

/// Why a tracking authorization request failed.
package enum TrackingAuthorizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `NSUserTrackingUsageDescription` is missing from the app's Info.plist; iOS would terminate the app.
    case missingUsageDescription
    /// The request could not be made now (e.g. the app is not active).
    case unavailable(String)

    public var description: String {
        switch self {
        case .missingUsageDescription:
            return "NSUserTrackingUsageDescription is missing from Info.plist; add it before enabling the tracking prompt"
        case .unavailable(let reason): return "tracking authorization is unavailable: \(reason)"
        }
    }
}
