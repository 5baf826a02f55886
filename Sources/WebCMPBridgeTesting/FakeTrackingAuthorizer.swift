import WebCMPBridge

/// An App Tracking Transparency client for tests: a settable status and answer, an app that can be inactive, and the
/// ways the system's alert behaves (``Prompt``): answered before the request returns, shown as the request is made
/// (the app resigns active until it is answered), shown late (iOS 17.4 and later answer `.denied` first), or never
/// shown.
///
/// ```swift
/// let tracking = FakeTrackingAuthorizer()
/// tracking.prompt = .showsLate
/// tracking.lifecycle = webView        // the alert makes the app resign active, as UIKit reports it
/// let bridge = ConsentBridge(configuration: configuration, store: store, trackingAuthorizer: tracking.client)
/// // … the user saves; the request answers `.denied` at once …
/// tracking.showPrompt()               // the alert appears: willResignActive
/// tracking.answerPrompt(.authorized)  // the user allows tracking: didBecomeActive
/// ```
@MainActor
public final class FakeTrackingAuthorizer {
    /// How the system's alert behaves when a request is made.
    public enum Prompt: Sendable, Hashable {
        /// The request returns ``answer`` and the status is set to it, with no lifecycle events (the default).
        case answersAtOnce
        /// The alert shows as the request is made: the app resigns active, and the request returns only when the test
        /// answers it (``answerPrompt(_:)``: the status is set, the app becomes active again).
        case showsAtRequest
        /// iOS 17.4 and later: the request returns `.denied` at once while the status still reads `.notDetermined`;
        /// the alert shows later (``showPrompt()``: the app resigns active) and is answered with
        /// ``answerPrompt(_:)``.
        case showsLate
        /// The request returns `.denied` at once, the status stays `.notDetermined`, no alert shows and the app stays
        /// active (another permission alert was pending, as Apple documents; or the system suppressed it).
        case neverShows
    }

    /// What ``TrackingAuthorizer/status`` reads.
    public var status: TrackingAuthorizationStatus = .notDetermined
    /// What a request answers with ``Prompt/answersAtOnce``.
    public var answer: TrackingAuthorizationStatus = .authorized
    /// How the alert behaves (default ``Prompt/answersAtOnce``).
    public var prompt = Prompt.answersAtOnce
    /// The web view that reports the app's lifecycle to the bridge: the alert's `willResignActive` and
    /// `didBecomeActive` are reported through it, as UIKit posts them to every observer. `nil`: none is reported.
    public var lifecycle: FakeWebView?
    /// How many requests were made.
    public private(set) var requests = 0
    /// Whether the alert is on screen (from ``showPrompt()``, or a ``Prompt/showsAtRequest`` request, until
    /// ``answerPrompt(_:)``).
    public private(set) var promptOnScreen = false
    /// Whether the app is active; while it is not, `waitUntilActive` suspends until ``becomeActive()`` (or until the
    /// waiting task is cancelled).
    public var active = true
    private var activationWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0
    private var pendingRequest: CheckedContinuation<TrackingAuthorizationStatus, Never>?

    /// Creates a client: not determined, answers `.authorized` at once, app active.
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

    /// The alert appears (``Prompt/showsLate``, or at any time): the app resigns active (`willResignActive` through
    /// ``lifecycle``).
    public func showPrompt() {
        guard !promptOnScreen else { return }
        promptOnScreen = true
        active = false
        lifecycle?.resignActive()
    }

    /// The user answers the alert on screen: the status becomes `status`, a ``Prompt/showsAtRequest`` request
    /// returns it, and the app becomes active again (`didBecomeActive` through ``lifecycle``).
    public func answerPrompt(_ status: TrackingAuthorizationStatus) {
        guard promptOnScreen else { return }
        promptOnScreen = false
        self.status = status
        pendingRequest?.resume(returning: status)
        pendingRequest = nil
        becomeActive()
        lifecycle?.becomeActive()
    }

    /// The client to give the bridge: the same one each time, as an app gives every bridge
    /// `TrackingAuthorizer.appTrackingTransparency` (the bridges over one client share its record of requests in
    /// flight: one alert at a time).
    public var client: TrackingAuthorizer {
        if let made { return made }
        // `weak`: the fake keeps its client, so a strong capture would be a cycle (the fake and its client never freed;
        // LeakSanitizer reports it). A client used after its fake is gone sees `.notDetermined` and never waits.
        let client = TrackingAuthorizer(
            status: { [weak self] in self?.status ?? .notDetermined },
            request: { [weak self] in await self?.request() ?? .notDetermined },
            waitUntilActive: { [weak self] in await self?.waitUntilActive() }
        )
        made = client
        return client
    }
    private var made: TrackingAuthorizer?

    private func request() async -> TrackingAuthorizationStatus {
        requests += 1
        switch prompt {
        case .answersAtOnce:
            status = answer
            return answer
        case .showsAtRequest:
            showPrompt()
            pendingRequest?.resume(returning: .notDetermined)   // iOS keeps no concurrent request
            return await withCheckedContinuation { pendingRequest = $0 }
        case .showsLate, .neverShows:
            return .denied
        }
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
