/// The UI around the bridge: swipe-to-dismiss, the presentation's end, and App Tracking Transparency after it.
extension ConsentBridge {
    /// Whether the user may dismiss the UI with the system gesture now (``BridgeConfiguration/interactiveDismissal``).
    public var allowsInteractiveDismissal: Bool { machine.allowsInteractiveDismissal }

    /// Tells the bridge that a UI now shows its web view. Tracking is then requested only after ``endPresentation()``.
    /// A pre-warmed page's ready timeout starts now (see `ConsentPrewarmer`).
    public func beginPresentation() {
        wasPresented = true
        handle(.presentationBegan)
    }

    /// Tells the bridge that its UI is gone. When the UI was dismissed before the page finished (the user swiped it
    /// away), the run ends with ``UIFinishReason/dismissedByUser``; a pending tracking request then proceeds.
    public func endPresentation() {
        handle(.presentationEnded)
    }

    /// Tells the bridge that its UI is still presented but covered: another screen was pushed or presented over it,
    /// or its tab is not selected. The run goes on (the page stays, the user can come back to it); its timers pause,
    /// as WebKit throttles a web view that is not in a window.
    public func coverPresentation() {
        handle(.presentationCovered)
    }

    /// Tells the bridge that its covered UI shows again (see ``coverPresentation()``): paused timers go on with the
    /// time they had left.
    public func uncoverPresentation() {
        handle(.presentationUncovered)
    }

    /// Carries out the bridge's part of an effect of ``ConsentPresentationLifecycle`` (begin, end, cover, uncover the
    /// presentation) and returns `true`; returns `false` for the others (the gate, dismissal, release, the outcome),
    /// which ``ConsentSession`` performs. The one mapping the session and the tests use.
    package func perform(_ effect: ConsentPresentationLifecycle.Effect) -> Bool {
        switch effect {
        case .beginPresentation: beginPresentation()
        case .endPresentation: endPresentation()
        case .coverPresentation: coverPresentation()
        case .uncoverPresentation: uncoverPresentation()
        case .confirmGate, .releaseGate, .dismiss, .release, .deliverOutcome: return false
        }
        return true
    }
}
