import Foundation

/// What an app awaits before it starts its ad and analytics SDKs: it resumes once consent is in force (or not
/// needed), never while a consent UI or the tracking prompt the kit requests is on screen, and at the latest after a
/// timeout.
///
/// ```swift
/// let gate = ConsentGate(store: .userDefaults())
/// switch await gate.wait(timeout: 30) {
/// case .consentInForce, .notRequired: startAdSDKs()
/// case .timedOut: break   // ask again later; start nothing personalised
/// }
/// ```
///
/// It resumes with:
/// - ``ConsentGateOutcome/consentInForce`` when ``ConsentBridge/needsConsentUI(store:expiry:now:migration:)`` says
///   the stored consent is good (or only ``ConsentRenewalReason/hostedPageNotShown``: the fallback page's consent is
///   in force until then);
/// - ``ConsentGateOutcome/notRequired`` when the app says consent is not needed (``consentRequired``) or the stored
///   answer is "GDPR does not apply" without a US string;
/// - ``ConsentGateOutcome/timedOut`` after `timeout` seconds otherwise (or when the waiting task is cancelled).
///
/// While a ``ConsentBridge`` over the same storage is between `ConsentBridge.attach(to:)` and its invalidation,
/// the gate waits whatever is stored: its UI may be on screen, and with ``TrackingPolicy`` enabled the App Tracking
/// Transparency prompt comes after the UI, within the same run (the bridge invalidates itself once it is answered).
/// The gate re-decides on every change of the store (``IABInAppConsent/ConsentStore/changes()``) and whenever a run
/// begins or ends. See <doc:StartingSDKsAfterConsent>.
///
/// Bound by the kit's promises over a session: <doc:SessionPromises> (promise 2).
public struct ConsentGate: Sendable {
    /// The store the consent is read from (the bridges' store).
    public var store: ConsentStore
    /// When stored consent must be renewed: the bridges' ``BridgeConfiguration/expiry``.
    public var expiry: ConsentExpiryPolicy
    /// Whether GDPR or US privacy rules apply to this user, as far as the app knows (default `true`; `false`, e.g.
    /// from the app's own region check, resumes with ``ConsentGateOutcome/notRequired`` once no UI is on screen).
    public var consentRequired: Bool

    /// Creates a gate.
    public init(store: ConsentStore, expiry: ConsentExpiryPolicy = ConsentExpiryPolicy(), consentRequired: Bool = true) {
        self.store = store
        self.expiry = expiry
        self.consentRequired = consentRequired
    }

    /// Returns once consent is in force or not needed and no consent UI or kit tracking prompt is under way, or after
    /// `timeout` seconds (``ConsentGateOutcome/timedOut``). Returns at once when that holds already.
    /// - Parameter timeout: the longest wait, in seconds (tests pass `WebCMPBridgeTesting`'s `ManualScheduler` to
    ///   `wait(timeout:scheduler:)`).
    @MainActor
    public func wait(timeout: TimeInterval) async -> ConsentGateOutcome {
        await wait(timeout: timeout, scheduler: .live)
    }

    /// ``wait(timeout:)`` on `scheduler`'s time (`BridgeScheduler.live` in apps).
    @MainActor
    package func wait(timeout: TimeInterval, scheduler: BridgeScheduler) async -> ConsentGateOutcome {
        // Listen before the first decision, so that no change between the two is missed.
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let storeChanges = store.changes()
        let runChanges = ConsentRuns.shared.changes()
        let listeners = [
            Task { for await _ in storeChanges { wake.yield() } },
            Task { for await _ in runChanges { wake.yield() } },
        ]
        let deadline = scheduler.schedule(timeout) { wake.finish() }
        defer {
            for listener in listeners { listener.cancel() }
            deadline.cancel()
            wake.finish()
        }
        return await withTaskCancellationHandler {
            if let outcome = decide(now: scheduler.now()) { return outcome }
            for await _ in wakeups {
                if let outcome = decide(now: scheduler.now()) { return outcome }
            }
            return .timedOut
        } onCancel: {
            wake.finish()
        }
    }

    /// The gate's decision now: the outcome, or `nil` while it must wait.
    @MainActor
    func decide(now: Date) -> ConsentGateOutcome? {
        let running = ConsentRuns.shared.isRunning(over: store.storage.identity)
        if running { return nil }
        return ConsentGateDecision.outcome(
            consentRequired: consentRequired, runInProgress: false,
            renewalReason: ConsentBridge.needsConsentUI(store: store, expiry: expiry, now: now),
            record: store.record(includingNonTCFData: false))
    }
}
