import Foundation

/// Receives a ``ConsentBridge``'s events.
@MainActor
public protocol ConsentBridgeDelegate: AnyObject {
    /// Called for every event, in order.
    func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent)
}

/// Connects a hosted CMP page in a web view to the app: validates what the page posts, answers it, stores consent
/// as the IAB in-app keys, and reports events.
///
/// ```swift
/// let bridge = ConsentBridge(configuration: BridgeConfiguration(cmpURL: url), store: .userDefaults())
/// bridge.delegate = self
/// bridge.attach(to: webView)   // any CMPWebView: the WKWebView adapter on Apple platforms
/// bridge.start()
/// ```
///
/// Dialect detection (``BridgeConfiguration/dialect`` `nil`): the handlers of every dialect are registered and the
/// generic TCF forwarder is installed. A message on the Gravito or Onesecondbefore handler fixes the dialect; the
/// generic TCF dialect is fixed only by its first consent event, and an app-protocol message still takes over after
/// that (pages with an app protocol usually also run `__tcfapi`).
///
/// Readiness and the timeout: Gravito and generic TCF pages are ready with their ready message. Onesecondbefore
/// pages have none, so the finished main-frame load counts as ready; in automatic mode a finished load also stops
/// the timeout (the timeout then catches pages that never load, not pages that never speak).
@MainActor
public final class ConsentBridge {
    /// Where the bridge is in its life.
    public enum State: Sendable, Hashable {
        /// Created, not started.
        case idle
        /// The page is loading; waiting for it to become ready.
        case loading
        /// The page is ready.
        case ready
        /// The page did not become ready in time; further messages are ignored.
        case timedOut
        /// ``ConsentBridge/invalidate()`` was called; further messages are ignored.
        case invalidated
    }

    /// The configuration.
    public let configuration: BridgeConfiguration
    /// The consent store.
    public let store: ConsentStore
    /// The delegate.
    public weak var delegate: (any ConsentBridgeDelegate)?
    /// The current state.
    public private(set) var state: State = .idle
    /// The dialect the page speaks: configured, or detected from its messages.
    public private(set) var dialect: CMPDialect?
    /// The most recent events reported (up to ``eventLogCapacity``), in order.
    public private(set) var eventLog: [ConsentBridgeEvent] = []
    /// How many events ``eventLog`` keeps; older ones are dropped so that a long-lived page cannot grow memory.
    public static let eventLogCapacity = 256

    private let scheduler: BridgeScheduler
    private let trackingAuthorizer: TrackingAuthorizer
    private let decoder: CMPMessageDecoder
    private weak var webView: (any CMPWebView)?
    private var timeout: ScheduledWork?
    private var configVersion: String?
    private var latestGPP: (string: String, sections: [Int]?)?
    private var lastPayload: ConsentPayload?
    private var trackingRequestedForTCString: String?
    private var announcedReady = false
    private var continuations: [UUID: AsyncStream<ConsentBridgeEvent>.Continuation] = [:]

    /// Creates a bridge.
    /// - Parameters:
    ///   - configuration: the CMP page and policies.
    ///   - store: where consent is stored (``ConsentStore/userDefaults(suiteName:)`` in apps).
    ///   - scheduler: time; ``BridgeScheduler/live`` in apps.
    ///   - trackingAuthorizer: App Tracking Transparency; used only when ``BridgeConfiguration/tracking`` enables it.
    public init(
        configuration: BridgeConfiguration,
        store: ConsentStore,
        scheduler: BridgeScheduler = .live,
        trackingAuthorizer: TrackingAuthorizer = .unavailable
    ) {
        self.configuration = configuration
        self.store = store
        self.scheduler = scheduler
        self.trackingAuthorizer = trackingAuthorizer
        self.decoder = CMPMessageDecoder(limits: configuration.limits)
        self.dialect = configuration.dialect
    }

    /// Why consent has to be asked for at `now`, or `nil` when stored consent is still good. Creates no web view:
    /// call it at every launch to decide whether to show the CMP.
    public nonisolated static func needsConsentUI(
        store: ConsentStore, expiry: ConsentExpiryPolicy = ConsentExpiryPolicy(), now: Date = Date()
    ) -> ConsentRenewalReason? {
        expiry.renewalReason(for: store.record(includingNonTCFData: false), now: now)
    }

    /// A new stream of this bridge's events from now on. It finishes when the bridge is invalidated.
    public func events() -> AsyncStream<ConsentBridgeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConsentBridgeEvent.self)
        if state == .invalidated {
            continuation.finish()
            return stream
        }
        let id = UUID()
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.continuations[id] = nil }
        }
        return stream
    }

    // MARK: Lifecycle

    /// Registers the message handlers and user scripts in `webView` and starts receiving its events.
    public func attach(to webView: any CMPWebView) {
        guard state != .invalidated else { return }
        self.webView = webView
        webView.eventHandler = { [weak self] event in self?.handle(event) }
        for dialect in listenedDialects {
            webView.addMessageHandler(named: dialect.handlerName)
        }
        if listenedDialects.contains(.tcf) {
            webView.addUserScript(CMPScripts.tcfForwarder)
        }
    }

    /// Loads the CMP page and starts the ready timeout. With ``TrackingPolicy/Timing/beforeCMP`` the tracking prompt
    /// comes first.
    public func start() {
        guard state == .idle, webView != nil else { return }
        state = .loading
        let tracking = configuration.tracking
        if tracking.shouldRequestBeforeCMP(status: trackingAuthorizer.status()) {
            Task { @MainActor in
                await self.requestTracking()
                self.load()
            }
        } else {
            load()
        }
    }

    /// Attaches, starts, and waits until the CMP UI is finished. Returns the consent stored during this run, or `nil`
    /// when the user closed the page without saving or the page failed (the error is in ``eventLog``).
    public func run(in webView: any CMPWebView) async -> ConsentSummary? {
        let stream = events()
        attach(to: webView)
        start()
        var summary: ConsentSummary?
        for await event in stream {
            switch event {
            case .consentReady(let saved): summary = saved
            case .uiFinished: return summary
            default: continue
            }
        }
        return summary
    }

    /// Stops everything: cancels the timeout, removes the handlers and user scripts, and finishes the event streams.
    /// Messages that arrive afterwards are ignored. Call it when the CMP UI goes away.
    public func invalidate() {
        guard state != .invalidated else { return }
        state = .invalidated
        timeout?.cancel()
        timeout = nil
        if let webView {
            webView.eventHandler = nil
            for dialect in listenedDialects {
                webView.removeMessageHandler(named: dialect.handlerName)
            }
            webView.removeAllUserScripts()
        }
        webView = nil
        for continuation in continuations.values { continuation.finish() }
        continuations.removeAll()
    }

    private var listenedDialects: [CMPDialect] {
        configuration.dialect.map { [$0] } ?? CMPDialect.allCases
    }

    private func load() {
        guard state == .loading, let webView else { return }
        timeout = scheduler.schedule(configuration.readyTimeout) { [weak self] in self?.readyTimeoutFired() }
        webView.load(configuration.resolvedURL)
    }

    private func readyTimeoutFired() {
        guard state == .loading else { return }
        state = .timedOut
        report(.error(.timeout(seconds: configuration.readyTimeout)))
        if configuration.clearsConsentOnTimeout { store.clearAll() }
        report(.uiFinished(.timedOut))
    }

    /// Marks the page ready (stopping the timeout) and reports ``ConsentBridgeEvent/uiReady(_:)`` once, as soon as
    /// the dialect is known (configured, or detected: in automatic mode a generic TCF page is detected by its first
    /// consent event). `injectRecord` answers a Gravito ready message with the stored record (every time the page
    /// asks, e.g. after it reloaded itself).
    private func becomeReady(announcing dialect: CMPDialect?, injectRecord: Bool = false) {
        guard state == .loading || state == .ready else { return }
        state = .ready
        timeout?.cancel()
        timeout = nil
        if injectRecord {
            webView?.evaluateJavaScript(CMPScripts.cookieData(record: store.record()))
        }
        if let dialect, !announcedReady {
            announcedReady = true
            report(.uiReady(dialect))
        }
    }

    // MARK: Events from the web view

    private func handle(_ event: WebViewEvent) {
        guard state == .loading || state == .ready else { return }
        switch event {
        case .message(let message):
            handle(message)
        case .didFinishLoading:
            if dialect == .onesecondbefore {
                becomeReady(announcing: .onesecondbefore)
            } else if configuration.dialect == nil {
                becomeReady(announcing: nil)
            }
        case .didFailLoading(_, let description):
            report(.error(.loadFailed(description)))
            finishAfterFailure()
        case .contentProcessDidTerminate:
            report(.error(.webContentTerminated))
            finishAfterFailure()
        }
    }

    private func finishAfterFailure() {
        timeout?.cancel()
        timeout = nil
        report(.uiFinished(.failed))
    }

    private func handle(_ message: ScriptMessage) {
        let handler = message.handlerName
        guard message.isMainFrame else {
            report(.error(.notMainFrame(handler: handler)))
            return
        }
        if let origin = message.origin, !SecurityOrigin.isAllowed(origin, in: configuration.allowedOrigins) {
            report(.error(.forbiddenOrigin(handler: handler, origin: origin)))
            return
        }
        let decoded: (CMPDialect, CMPMessage)
        do {
            let body = try decoder.value(of: message.body)
            decoded = try decoder.decode(handlerName: handler, body: body)
        } catch {
            report(.error(.invalidMessage(handler: handler, error)))
            return
        }
        let (messageDialect, cmpMessage) = decoded
        guard accept(messageDialect, for: cmpMessage, handler: handler) else { return }
        switch cmpMessage {
        case .ready:
            becomeReady(announcing: dialect, injectRecord: messageDialect == .gravito)
        case .uiShown:
            becomeReady(announcing: dialect)
        case .configurationLoaded(let version):
            configVersion = version
        case .gpp(let gppString, let sections):
            latestGPP = (gppString, sections)
            if var payload = lastPayload, payload.gppString != gppString {
                payload.origin = .loaded
                payload.gppString = gppString
                payload.gppApplicableSections = sections
                save(payload, dialect: messageDialect)
            }
        case .save(let payload):
            becomeReady(announcing: dialect)
            save(payload, dialect: messageDialect)
        case .close:
            report(.uiFinished(.closed))
        }
    }

    /// Applies the dialect rules: a configured dialect accepts only its own handler; automatic detection fixes the
    /// dialect from the first app-protocol message, or from the first consent event of the generic TCF dialect.
    private func accept(_ messageDialect: CMPDialect, for message: CMPMessage, handler: String) -> Bool {
        guard let current = dialect else {
            if messageDialect != .tcf || message.isSave { dialect = messageDialect }
            return true
        }
        if current == messageDialect { return true }
        if configuration.dialect == nil {
            // The TCF forwarder also runs on pages that speak an app protocol: the app protocol wins.
            if current == .tcf { dialect = messageDialect; return true }
            if messageDialect == .tcf { return false }
        }
        report(.error(.unexpectedDialect(handler: handler, expected: current)))
        return false
    }

    // MARK: Saving

    private func save(_ payload: ConsentPayload, dialect messageDialect: CMPDialect) {
        var payload = payload
        if payload.gppString == nil, let latestGPP {
            payload.gppString = latestGPP.string
            payload.gppApplicableSections = latestGPP.sections
        }
        var decoded: TCString?
        if let tcString = payload.tcString {
            do {
                decoded = try TCString(decoding: tcString)
            } catch {
                report(.error(.invalidTCString(error)))
                return
            }
        }
        if let decoded, !decoded.isServiceSpecific {
            report(.error(.invalidConsent("IsServiceSpecific is 0; the TCF requires 1 (such a string is invalid)")))
            return
        }
        let gdprApplies = payload.gdprApplies ?? configuration.gdprApplies
        let consent = InAppConsent(
            tcString: payload.tcString,
            gdprApplies: gdprApplies,
            cmpSDKID: configuration.cmpSDKID ?? payload.cmpID ?? decoded?.cmpID,
            // A configured SDK id comes with its own version (or none): never pair it with another CMP's version.
            cmpSDKVersion: configuration.cmpSDKID != nil
                ? configuration.cmpSDKVersion : configuration.cmpSDKVersion ?? payload.cmpVersion ?? decoded?.cmpVersion,
            additionalConsent: payload.additionalConsent,
            gppString: payload.gppString,
            gppApplicableSections: payload.gppApplicableSections,
            usPrivacy: payload.usPrivacy
        )
        let keys: IABKeySet
        do {
            keys = try IABKeySet(mapping: consent)
        } catch let error as TCStringError {
            report(.error(.invalidTCString(error)))
            return
        } catch {
            report(.error(.invalidConsent(String(describing: error))))
            return
        }
        let previous = store.record()
        let now = scheduler.now()
        // Re-saving the same consent (a CMP reporting what it loaded) keeps the date the user gave it.
        let savedAt = previous?.tcString == payload.tcString && payload.origin == .loaded ? previous?.savedAt ?? now : now
        let record = ConsentRecord(
            tcString: payload.tcString,
            nonTCFData: payload.nonTCFData ?? (messageDialect == .gravito ? nil : previous?.nonTCFData),
            additionalConsent: payload.additionalConsent,
            gppString: payload.gppString,
            usPrivacy: payload.usPrivacy,
            expirationDate: payload.expirationDate,
            crossDomainUserID: payload.crossDomainUserID ?? previous?.crossDomainUserID,
            configVersion: payload.configVersion ?? configVersion ?? configuration.expiry.currentConfigVersion,
            savedAt: savedAt
        )
        if payload.origin == .userAction {
            report(.userAction(isRejectAll: payload.isRejectAll))
        }
        do {
            try store.apply(keys, record: record)
        } catch {
            report(.error(.storageFailed(String(describing: error))))
            return
        }
        lastPayload = payload
        if let decoded, let claimed = payload.claimedChoices {
            let fields = claimed.disagreements(with: decoded)
            if !fields.isEmpty {
                report(.diagnostic(
                    "the payload's \(fields.joined(separator: ", ")) disagree with its TC string; the TC string was stored"
                ))
            }
        }
        if let decoded, let minimum = configuration.expiry.minimumPolicyVersion, decoded.policyVersion < minimum {
            report(.diagnostic("the TC string has policy version \(decoded.policyVersion), below \(minimum)"))
        }
        let summary = ConsentSummary(
            tcString: payload.tcString, decoded: decoded, gdprApplies: gdprApplies,
            additionalConsent: payload.additionalConsent, gppString: payload.gppString, usPrivacy: payload.usPrivacy,
            expirationDate: payload.expirationDate, savedAt: savedAt
        )
        report(.consentReady(summary))
        if messageDialect == .tcf {
            report(.uiFinished(.consentSaved))
        }
        if let decoded, let tcString = payload.tcString {
            let shouldRequest = configuration.tracking.shouldRequestAfterConsent(
                purposeConsents: decoded.purposeConsents,
                status: trackingAuthorizer.status(),
                alreadyRequestedForThisConsent: trackingRequestedForTCString == tcString
            )
            if shouldRequest {
                trackingRequestedForTCString = tcString
                Task { @MainActor in await self.requestTracking() }
            }
        }
    }

    private func requestTracking() async {
        do {
            let status = try await trackingAuthorizer.request()
            report(.trackingAuthorization(status))
        } catch {
            report(.error(.trackingAuthorizationFailed(error)))
        }
    }

    private func report(_ event: ConsentBridgeEvent) {
        guard state != .invalidated else { return }
        if eventLog.count == Self.eventLogCapacity { eventLog.removeFirst(Self.eventLogCapacity / 4) }
        eventLog.append(event)
        delegate?.bridge(self, didReceive: event)
        for continuation in continuations.values { continuation.yield(event) }
    }
}
