import Foundation

/// One consent run, held from its presentation to its outcome, tracking prompt included: the one owner of the run
/// that `ConsentViewController`, `.consentPrompt`, `ConsentWebView` and `ConsentWebPageView` (WebCMPBridgeUI) report
/// to. Those views only report what UIKit or SwiftUI told them (``Input``, through ``report(_:)``) and perform the UI
/// effects the session asks of them (``onDismiss``, the events in ``onEvent``); every decision is the session's and
/// its ``ConsentPresentationLifecycle``'s.
///
/// The session owns:
/// - the bridge and its web view, and the run: ``start()`` attaches and starts the bridge; the session, its delegate,
///   collects the run's outcome from its events as they are reported and learns the run's end when the bridge detaches
///   (``ConsentBridgeDelegate/bridgeDidDetach(_:)``), and keeps itself alive from ``start()`` until then;
/// - the ``ConsentPresentationLifecycle`` value and the presentation gate's token (``requestPresentation(allowed:)``);
/// - the delivery of the ``ConsentOutcome`` to ``onFinish``: exactly once, after the run has ended (a tracking prompt
///   included: the run ends after it) **and** the UI is gone.
///
/// It keeps itself alive from the moment its presentation was asked for or shown until it delivered its outcome or
/// released its presentation: nothing that delivers the outcome hangs off a view that UIKit or SwiftUI may release
/// first (a SwiftUI sheet torn down before the tracking prompt was answered, an app that keeps no reference to its
/// controller).
///
/// A pre-warmed bridge whose handover was released before the session started (`ConsentPrewarmer`'s handover time
/// passed: its handlers are gone) is never shown dead: ``start()`` makes a fresh bridge for the same configuration,
/// store and tracking client, in a fresh web view (`makeWebView`).
@MainActor
package final class ConsentSession<WebView: CMPWebView>: ConsentSessionOwner {
    /// What a view reports.
    package typealias Input = ConsentPresentationLifecycle.Input

    /// The bridge of the run (a fresh one when a released pre-warm was handed in; see the type's notes).
    package private(set) var bridge: ConsentBridge
    /// The web view the run shows.
    package private(set) var webView: WebView
    /// Called once with the run's outcome, after the run has ended and the UI is gone.
    package var onFinish: ((ConsentOutcome) -> Void)?
    /// The view's handler of the bridge's events (it shows readiness and errors). Events that arrive while it is `nil`
    /// (a pre-warmed page's, or before the view loaded) are kept and delivered, in order, when it is set.
    package var onEvent: ((ConsentBridgeEvent) -> Void)? {
        didSet { flushEvents() }
    }
    /// The view's dismissal: UIKit's `dismiss(animated:)`, or the SwiftUI host's binding.
    package var onDismiss: (() -> Void)?
    /// The run's outcome, once the run ended.
    package private(set) var outcome: ConsentOutcome?
    /// Whether the outcome was delivered to ``onFinish``.
    package private(set) var hasDelivered = false
    /// Whether an error ended the page and stays on screen with a Close button (``UIFinishReason/keepsErrorOnScreen``
    /// after a ``ConsentBridgeEvent/failed(_:)``).
    package private(set) var showsError = false
    /// Whether ``start()`` replaced a released (invalidated) bridge by a fresh one.
    package private(set) var replacedReleasedPrewarm = false

    private var lifecycle: ConsentPresentationLifecycle
    private let gate: PresentationGate?
    private var gateToken: PresentationGate.Token?
    private let makeWebView: @MainActor () -> WebView
    private let runEnded: @MainActor (WebView) -> Void
    private let release: @MainActor (WebView) -> Void
    private var pendingEvents: [ConsentBridgeEvent] = []
    /// Whether ``start()`` started the run.
    private var started = false
    /// Whether the run's end is being handled (``bridgeDidDetach(_:)``).
    private var runEnding = false
    /// Whether the delivery waits for another run's tracking request to settle (``deliver()``).
    private var waitsForTrackingRequests = false
    /// The outcome of the run so far: every event the bridge reported since ``start()``.
    private var collected = ConsentOutcome()
    /// The session itself while its run goes on (from ``start()`` until the run's end was handled): a run nobody
    /// shows still ends and is handled (a pre-warmed page started and never shown).
    private var runHold: ConsentSession?
    /// The session's hold over its store's consent UI (what `ConsentGate` waits on): held while the UI may be on
    /// screen (``ConsentPresentationLifecycle/Phase/mayBeOnScreen``), whatever the bridge's state. The bridge's own
    /// hold (`BridgeMachine.holdsConsentUI`) follows what the bridge was told; this one covers a UI asked for and not
    /// yet shown, and a UI still on screen after its bridge was invalidated (a page whose process was killed while its
    /// sheet came on screen shows its error screen): the gate resumes only once the UI reported its end (promise 2).
    private let consentUIHold: ConsentUIHold
    /// The session itself while it must outlive its view: from the request (or the first showing) until it delivered
    /// its outcome or released its presentation.
    private var keepAlive: ConsentSession?

    /// A session over `bridge` shown in `webView`.
    /// - Parameters:
    ///   - eventsBeforePresentation: what a pre-warmed bridge reported before it was handed over (delivered first).
    ///   - closesItself: whether the UI closes itself when the page is finished (see
    ///     ``ConsentPresentationLifecycle/closesItself``).
    ///   - endsOnClose: an embedded UI nothing can close (``ConsentPresentationLifecycle/endsOnClose``).
    ///   - gate: the presentation gate a presented UI takes (``requestPresentation(allowed:)``); `nil`: none.
    ///   - makeWebView: a fresh web view, for a fresh bridge that replaces a released pre-warm.
    ///   - runEnded: what to do with the web view once the run is over (the glue invalidates its adapter).
    ///   - release: what to do with the web view of a presentation that never showed (leave its window, invalidate).
    package init(
        bridge: ConsentBridge, webView: WebView, eventsBeforePresentation: [ConsentBridgeEvent] = [],
        closesItself: Bool = true, endsOnClose: Bool = false, gate: PresentationGate? = nil,
        makeWebView: @escaping @MainActor () -> WebView,
        runEnded: @escaping @MainActor (WebView) -> Void = { _ in },
        release: @escaping @MainActor (WebView) -> Void = { _ in }
    ) {
        self.bridge = bridge
        self.webView = webView
        lifecycle = ConsentPresentationLifecycle(closesItself: closesItself, endsOnClose: endsOnClose)
        self.gate = gate
        self.makeWebView = makeWebView
        self.runEnded = runEnded
        self.release = release
        consentUIHold = bridge.store.storage.identity.consentUIHolds.makeHold()
        // From now on: an event between the handover and the view is kept, not lost.
        bridge.delegate = self
        for event in eventsBeforePresentation { receive(event) }
    }

    /// Where the presentation is.
    package var phase: ConsentPresentationLifecycle.Phase { lifecycle.phase }

    /// Whether the UI closes itself when the page is finished.
    package var closesItself: Bool {
        get { lifecycle.closesItself }
        set { lifecycle.closesItself = newValue }
    }

    /// Whether the UI is embedded where nothing can close it (see ``ConsentPresentationLifecycle/endsOnClose``).
    package var endsOnClose: Bool {
        get { lifecycle.endsOnClose }
        set { lifecycle.endsOnClose = newValue }
    }

    /// Whether the run was started (``start()``).
    package var isStarted: Bool { started }

    /// Asks to present the UI: `allowed` says whether every precondition of the platform held (for UIKit: the
    /// presenter in a window, not presenting, no transition under way). Returns whether the view may present now.
    ///
    /// - While this session's UI is presenting, shown or covered (a double tap), the request is
    ///   ``ConsentPresentationLifecycle/Input/presentAgain``: refused, and the UI on screen is left as it is.
    /// - Otherwise, when a precondition fails or another consent UI holds the gate, the presentation is refused and
    ///   released (``ConsentPresentationLifecycle/Input/presentationRefused``): make a new session to try again.
    package func requestPresentation(allowed: Bool) -> Bool {
        switch phase {
        case .presenting, .shown, .covered:
            report(.presentAgain)
            return false
        case .ended, .released:
            return false
        case .idle:
            break
        }
        guard allowed else {
            report(.presentationRefused)
            return false
        }
        if let gate {
            guard let token = gate.begin(owner: self) else {
                report(.presentationRefused)
                return false
            }
            gateToken = token
        }
        report(.willPresent)
        return true
    }

    /// Starts the run: attaches the bridge to the web view (a pre-warmed one is attached already) and starts it; the
    /// session collects the run's outcome from the bridge's events and holds itself until the run is over. A pre-warm
    /// released before this call is replaced by a fresh bridge in a fresh web view (see the type's notes). Calling it
    /// again does nothing.
    ///
    /// What `ConsentBridge.run(in:)` does, without its event stream: a stream's consumer is resumed by Swift's
    /// runtime through its global executor (a thread hop for every event), while the delegate hears each event, and
    /// the detach that ends the run, synchronously on the main actor.
    package func start() {
        guard !started, phase != .released else { return }
        if bridge.state == .invalidated { replaceReleasedPrewarm() }
        started = true
        runHold = self
        bridge.attach(to: webView)
        bridge.start()
    }

    /// Tells the session what UIKit or SwiftUI reported, and performs what its lifecycle answers.
    package func report(_ input: Input) {
        if input == .willPresent || input == .shown, phase == .idle || phase == .presenting {
            keepAlive = self
        }
        let effects = lifecycle.handle(input)
        consentUIHold.isHeld = phase.mayBeOnScreen
        for effect in effects where !bridge.perform(effect) {
            switch effect {
            case .beginPresentation, .endPresentation, .coverPresentation, .uncoverPresentation:
                break   // the bridge's part, performed above
            case .confirmGate:
                gate?.confirm(gateToken)
            case .releaseGate:
                gate?.end(gateToken)
                gateToken = nil
            case .dismiss:
                onDismiss?()
            case .release:
                // A tracking request already made cannot be withdrawn (the system's alert may still come): the UI
                // ends and the run ends once the request settled (`BridgeMachine.finish` carries it over), the
                // bridge holding the gate meanwhile; the session holds itself until then (`runHold`).
                if bridge.isTrackingRequestInFlight { bridge.endPresentation() } else { bridge.invalidate() }
                release(webView)
                keepAlive = nil
            case .deliverOutcome:
                deliver()
            }
        }
    }

    // MARK: ConsentBridgeDelegate

    /// Hands the event to the view (or keeps it until the view listens), then reports a finished page.
    package func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
        guard bridge === self.bridge else { return }
        if started { collected.record(event) }
        receive(event)
    }

    /// The run is over (the bridge detached: no event follows). Its end is handled in a main-actor turn of its own,
    /// not inside the bridge's effects (the app's `onFinish` may run then).
    package func bridgeDidDetach(_ bridge: ConsentBridge) {
        guard bridge === self.bridge, started, outcome == nil, !runEnding else { return }
        runEnding = true
        let webView = webView
        let outcome = collected
        Task { @MainActor in
            self.runEnded(webView)
            self.runDidEnd(outcome)
            self.runHold = nil
        }
    }

    private func receive(_ event: ConsentBridgeEvent) {
        if case .failed = event { showsError = true }
        pendingEvents.append(event)
        flushEvents()
        // An error stays on screen (with Close) until the person closes it; any other end closes the UI.
        if case .uiFinished(let reason) = event {
            report(.pageFinished(closes: !(reason.keepsErrorOnScreen && showsError)))
        }
    }

    private func flushEvents() {
        guard let onEvent else { return }
        while !pendingEvents.isEmpty {
            onEvent(pendingEvents.removeFirst())
        }
    }

    private func runDidEnd(_ outcome: ConsentOutcome) {
        self.outcome = outcome
        report(.runEnded)
        // A run that ended while nothing was ever asked for or shown has nobody to deliver to.
        if phase == .idle { keepAlive = nil }
    }

    /// Delivers the outcome, once no tracking request over the bridge's client is in flight
    /// (``TrackingRequestsInFlight``): another run's alert may be on screen, and the app starts its ad SDKs here.
    private func deliver() {
        guard let outcome, !hasDelivered, !waitsForTrackingRequests else { return }
        let inFlight = bridge.trackingAuthorizer.identity.requestsInFlight
        guard inFlight.isEmpty else {
            waitsForTrackingRequests = true
            // In a main-actor turn of its own: the last request settles inside its bridge's input.
            return inFlight.whenNone { Task { @MainActor in
                self.waitsForTrackingRequests = false
                self.deliver()
            } }
        }
        hasDelivered = true
        keepAlive = nil
        onFinish?(outcome)
    }

    /// A pre-warm whose handover was released (its bridge invalidated, its handlers gone): the same request again, in
    /// a fresh web view; what the released one reported is dropped.
    private func replaceReleasedPrewarm() {
        release(webView)
        let old = bridge
        old.delegate = nil
        bridge = ConsentBridge(
            configuration: old.configuration, store: old.store, scheduler: old.scheduler,
            trackingAuthorizer: old.trackingAuthorizer)
        webView = makeWebView()
        bridge.delegate = self
        pendingEvents.removeAll()
        showsError = false
        replacedReleasedPrewarm = true
    }
}

/// A bridge delegate that owns its bridge's run (``ConsentSession``, whatever its web view): `ConsentPrewarmer` does not
/// release a handed-over bridge such an owner holds.
@MainActor
package protocol ConsentSessionOwner: ConsentBridgeDelegate {}
