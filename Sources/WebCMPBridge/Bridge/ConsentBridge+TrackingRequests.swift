import Foundation

/// The bridge's App Tracking Transparency request among the others over the same tracking client
/// (``TrackingRequestsInFlight``: one alert at a time, and none withdrawn once requested).
extension ConsentBridge {
    /// Whether this bridge's tracking request was made and has not settled: its alert may be on screen, or still to
    /// come (iOS 17.4's early answer). Such a request cannot be withdrawn: `ConsentSession` lets it settle rather than
    /// invalidate the bridge under it.
    package var isTrackingRequestInFlight: Bool { machine.trackingPrompt?.isRequested == true }

    /// Records whether this bridge's request is in flight (after every input).
    func reportTrackingRequestInFlight() {
        trackingAuthorizer.identity.requestsInFlight.set(self, inFlight: isTrackingRequestInFlight)
    }

    /// The app is active: the prompt asks now when no other request over the client is in flight; otherwise it waits
    /// for those to settle, then for an active app again (the other alert made the app inactive while it was up).
    func afterOtherTrackingRequests() {
        let inFlight = trackingAuthorizer.identity.requestsInFlight
        guard inFlight.isEmpty else {
            return inFlight.whenNone { [weak self] in
                guard let self, !self.detached else { return }
                _ = self.perform(.waitUntilActive)
            }
        }
        handle(.appActive)
    }
}
