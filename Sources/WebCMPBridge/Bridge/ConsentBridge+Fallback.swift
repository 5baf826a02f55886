import Foundation

/// The app's bundled fallback page (``BridgeConfiguration/fallback``): when the hosted page fails before it is ready,
/// the failure is reported as a ``ConsentBridgeEvent/diagnostic(_:)`` and the fallback is loaded instead, once, with
/// its origin allowed for that load; a save from it is stored like one from the hosted page, with the record's
/// ``ConsentRecord/source`` set to ``ConsentSource/fallbackPage``. The decision is ``FallbackDecision``'s.
extension ConsentBridge {
    /// Loads the fallback page instead of ending the run with `error`, when ``FallbackDecision`` says so.
    /// - Returns: whether the fallback is now loading (then `error` was reported as a diagnostic, not as an error).
    func loadFallback(after error: ConsentBridgeError) -> Bool {
        guard let fallback = configuration.fallback,
            FallbackDecision.loadsFallback(FallbackDecision.Situation(
                hasFallback: true, showingFallback: showingFallback, becameReady: state != .loading, error: error,
                renewalReason: renewalReason))
        else { return false }
        showingFallback = true
        report(.diagnostic("\(error); showing the app's fallback page (\(fallback.origin))"))
        load(fallbackURL(fallback))
        return true
    }

    /// The fallback's entry URL with the same language and query items as the hosted page.
    func fallbackURL(_ fallback: FallbackPage) -> URL {
        configuration.addingQueryItems(to: fallback.entryURL)
    }

    /// The origins allowed to post and to navigate the main frame: the configured ones, and the fallback's while it
    /// is shown.
    var allowedOrigins: Set<String> {
        guard showingFallback, let fallback = configuration.fallback else { return configuration.allowedOrigins }
        return configuration.allowedOrigins.union([fallback.origin])
    }

    /// Where a save comes from: the hosted page or the fallback.
    var commitSource: ConsentSource { showingFallback ? .fallbackPage : .cmpPage }
}

extension Optional where Wrapped == ConsentRenewalReason {
    /// Whether stored consent is in force: good (`nil`), or only waiting for the hosted page
    /// (``ConsentRenewalReason/hostedPageNotShown``).
    var isNilOrRetry: Bool { self == nil || self == .hostedPageNotShown }
}
