import Foundation
@testable import WebCMPBridge

/// A hand-written `CMPWebView` that records what the bridge asks of it and lets tests post messages.
@MainActor
final class FakeWebView: CMPWebView {
    var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    private(set) var loadedURLs: [URL] = []
    private(set) var userScripts: [UserScript] = []
    private(set) var evaluated: [String] = []
    private(set) var handlers: Set<String> = []
    private(set) var removedAllUserScripts = 0

    func load(_ url: URL) { loadedURLs.append(url) }
    func addUserScript(_ script: UserScript) { userScripts.append(script) }
    func removeAllUserScripts() {
        userScripts.removeAll()
        removedAllUserScripts += 1
    }
    func evaluateJavaScript(_ source: String) { evaluated.append(source) }
    func addMessageHandler(named name: String) { handlers.insert(name) }
    func removeMessageHandler(named name: String) { handlers.remove(name) }

    /// Posts a JSON text body as the page would, on a registered handler only (like WebKit).
    func post(
        _ handler: String, json: String, isMainFrame: Bool = true, origin: String? = "https://cmp.example.com"
    ) {
        guard handlers.contains(handler) else { return }
        eventHandler?(.message(ScriptMessage(
            handlerName: handler, body: .json(json), isMainFrame: isMainFrame, origin: origin)))
    }

    /// Posts a JSON value body.
    func post(_ handler: String, _ value: JSONValue, isMainFrame: Bool = true, origin: String? = "https://cmp.example.com") {
        post(handler, json: JavaScriptLiteral.expression(value), isMainFrame: isMainFrame, origin: origin)
    }

    func finishLoading() { eventHandler?(.didFinishLoading(loadedURLs.last)) }
}

/// A scheduler whose time only moves when the test says so.
@MainActor
final class ManualScheduler {
    var now = Date(timeIntervalSince1970: 1_750_000_000)
    private var pending: [(id: Int, due: TimeInterval, action: @MainActor @Sendable () -> Void)] = []
    private var elapsed: TimeInterval = 0
    private var nextID = 0

    var scheduler: BridgeScheduler {
        BridgeScheduler(
            now: { [self] in MainActor.assumeIsolated { self.now } },
            schedule: { [self] delay, action in
                let id = self.nextID
                self.nextID += 1
                self.pending.append((id, self.elapsed + delay, action))
                return ScheduledWork { [weak self] in self?.pending.removeAll { $0.id == id } }
            }
        )
    }

    /// Moves time forward by `seconds` and runs the work that became due.
    func advance(by seconds: TimeInterval) {
        elapsed += seconds
        now += seconds
        let due = pending.filter { $0.due <= elapsed }
        pending.removeAll { $0.due <= elapsed }
        for work in due { work.action() }
    }
}

/// A tracking authorizer that records requests.
@MainActor
final class FakeTrackingAuthorizer {
    var status: TrackingAuthorizationStatus = .notDetermined
    var answer: TrackingAuthorizationStatus = .authorized
    private(set) var requests = 0
    /// Whether the app is active; while it is not, `waitUntilActive` suspends until ``becomeActive()``.
    var active = true
    private var activationWaiters: [CheckedContinuation<Void, Never>] = []

    func becomeActive() {
        active = true
        let waiters = activationWaiters
        activationWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    var client: TrackingAuthorizer {
        TrackingAuthorizer(
            status: { [self] in self.status },
            request: { [self] in
                self.requests += 1
                self.status = self.answer
                return self.answer
            },
            waitUntilActive: { [self] in
                guard !self.active else { return }
                await withCheckedContinuation { self.activationWaiters.append($0) }
            }
        )
    }
}
