/// Whether a failed load of the hosted CMP page is answered with the app's ``FallbackPage``. Pure; the bridge asks it.
///
/// The fallback is loaded, once per run, when
/// - one is configured,
/// - the hosted page never became ready (a failure after it was ready ends the run as before),
/// - the failure is a load failure (network, TLS, an HTTP error status) or the ready timeout — not a crashed web
///   content process, which the app handles by presenting again,
/// - and the consent that made the app show the UI is not itself one the user gave on the fallback page
///   (``ConsentRenewalReason/hostedPageNotShown``): that user has answered the bundled texts already; the run then
///   ends with the load failure and the stored consent stays, to be renewed when the hosted page is reachable.
package enum FallbackDecision {
    /// What the bridge knows when the hosted page failed.
    package struct Situation: Sendable, Hashable {
        /// Whether a fallback page is configured.
        package var hasFallback: Bool
        /// Whether the fallback is already what the web view shows (or loads).
        package var showingFallback: Bool
        /// Whether the page became ready before the failure.
        package var becameReady: Bool
        /// The failure.
        package var error: ConsentBridgeError
        /// Why consent was needed when the bridge was created (`nil`: stored consent was good).
        package var renewalReason: ConsentRenewalReason?

        package init(
            hasFallback: Bool, showingFallback: Bool, becameReady: Bool, error: ConsentBridgeError,
            renewalReason: ConsentRenewalReason?
        ) {
            self.hasFallback = hasFallback
            self.showingFallback = showingFallback
            self.becameReady = becameReady
            self.error = error
            self.renewalReason = renewalReason
        }
    }

    /// Whether to load the fallback page instead of ending the run with `situation.error`.
    package static func loadsFallback(_ situation: Situation) -> Bool {
        guard situation.hasFallback, !situation.showingFallback, !situation.becameReady else { return false }
        guard situation.renewalReason != .hostedPageNotShown else { return false }
        switch situation.error.code {
        case .loadFailed, .timeout: return true
        default: return false
        }
    }
}
