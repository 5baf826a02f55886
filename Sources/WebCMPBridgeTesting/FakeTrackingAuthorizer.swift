import WebCMPBridge

/// An App Tracking Transparency client for tests: a settable status and answer, an app that can be inactive, and the
/// iOS 17.4 behaviour of answering `.denied` while the alert is still up (``settlesStatusOnRequest``).
///
/// ```swift
/// let tracking = FakeTrackingAuthorizer()
/// tracking.active = false            // the app is in the background: the bridge waits
/// let bridge = ConsentBridge(configuration: configuration, store: store, trackingAuthorizer: tracking.client)
/// tracking.becomeActive()
/// ```
@MainActor
public final class FakeTrackingAuthorizer {
    /// What ``TrackingAuthorizer/status`` reads.
    public var status: TrackingAuthorizationStatus = .notDetermined
    /// What a request answers.
    public var answer: TrackingAuthorizationStatus = .authorized
    /// Whether a request sets ``status`` to ``answer``. `false` reproduces iOS 17.4: the request returns while its
    /// alert is still on screen, the status still reads `.notDetermined`, and the app is inactive until the alert goes
    /// away (``becomeActive()``; set ``status`` to the user's answer first).
    public var settlesStatusOnRequest = true
    /// How many requests were made (prompts shown).
    public private(set) var requests = 0
    /// Whether the app is active; while it is not, `waitUntilActive` suspends until ``becomeActive()`` (or until the
    /// waiting task is cancelled).
    public var active = true
    private var activationWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0

    /// Creates a client: not determined, answers `.authorized`, app active.
    public init() {}

    /// How many tasks wait for the app to become active.
    public var waitingCount: Int { activationWaiters.count }

    /// Makes the app active and resumes everything waiting for it.
    public func becomeActive() {
        active = true
        let waiters = activationWaiters.values
        activationWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// The client to give the bridge.
    public var client: TrackingAuthorizer {
        TrackingAuthorizer(
            status: { [self] in self.status },
            request: { [self] in
                self.requests += 1
                if self.settlesStatusOnRequest { self.status = self.answer } else { self.active = false }
                return self.answer
            },
            waitUntilActive: { [self] in await self.waitUntilActive() }
        )
    }

    private func waitUntilActive() async {
        guard !active else { return }
        nextWaiter += 1
        let id = nextWaiter
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled { return continuation.resume() }
                activationWaiters[id] = continuation
            }
        } onCancel: {
            Task { @MainActor in self.activationWaiters.removeValue(forKey: id)?.resume() }
        }
    }
}
