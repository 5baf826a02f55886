/// One event of a page's GPP CMP, as the TCF/GPP forwarder reports it from `__gpp('addEventListener', …)`: the
/// event's name and the CMP's state at that moment (the event's `pingData`).
///
/// Spec: GPP "CMP API Specification" v1.1, "addEventListener" (`EventListener`: `eventName`, `pingData`) and "ping"
/// (`PingReturn`: `signalStatus`, `cmpDisplayStatus`, `applicableSections`, `gppString`).
struct GPPSignal: Sendable, Hashable {
    /// The GPP event names the forwarder passes on (v1.1 "Events").
    enum EventName: String, Sendable, Hashable, CaseIterable {
        case listenerRegistered, cmpStatus, cmpDisplayStatus, signalStatus, sectionChange
    }

    /// `signalStatus`: whether the CMP's strings are final for now.
    enum SignalStatus: String, Sendable, Hashable, CaseIterable {
        case notReady = "not ready"
        case ready
    }

    /// `cmpDisplayStatus`: whether the CMP's UI is shown.
    enum DisplayStatus: String, Sendable, Hashable, CaseIterable {
        case visible, hidden, disabled
    }

    /// The event, `nil` for a bare signal (older forwarders, tests).
    var eventName: EventName?
    /// The CMP's signal status, when it reports one.
    var signalStatus: SignalStatus?
    /// The CMP's display status, when it reports one.
    var displayStatus: DisplayStatus?
    /// The GPP string, when there is one.
    var gppString: String?
    /// The section ids in force (`applicableSections`, without `-1`/`0`).
    var applicableSections: [Int]?

    init(
        eventName: EventName? = nil, signalStatus: SignalStatus? = nil, displayStatus: DisplayStatus? = nil,
        gppString: String? = nil, applicableSections: [Int]? = nil
    ) {
        self.eventName = eventName
        self.signalStatus = signalStatus
        self.displayStatus = displayStatus
        self.gppString = gppString
        self.applicableSections = applicableSections
    }

    /// Whether the signal may carry consent: it has a GPP string and the CMP does not say it is still updating it.
    var mayCarryConsent: Bool { gppString != nil && signalStatus != .notReady }
}

/// What a GPP CMP's UI did during one run, from its events (``GPPSignal``): the generic dialect's equivalent of
/// `cmpuishown` and `useractioncomplete`.
///
/// - `cmpDisplayStatus: visible` is the UI shown.
/// - After it, a `sectionChange` event or a `signalStatus` event with `ready` is the user's action.
/// - The UI is finished by the user when it was shown, the user acted, and it is `hidden` again (in whichever order
///   the last two arrive). Hidden without an action (a CMP that only flashes its UI, or the user closing it without a
///   choice) does not finish the run: the page's own close, the user's dismissal or the timeout does.
struct GPPUIProgress: Sendable, Hashable {
    /// What one signal changed.
    enum Step: Equatable {
        /// Nothing of note.
        case none
        /// The UI became visible.
        case shown
        /// The user acted in the UI and it is hidden again: the choice is made.
        case finishedByUser
    }

    /// Whether the UI has been visible in this run.
    private(set) var wasShown = false
    /// Whether the user acted after the UI was shown.
    private(set) var userActed = false
    private var isHidden = false
    private var finished = false

    /// Takes in the next signal.
    mutating func observe(_ signal: GPPSignal) -> Step {
        guard !finished else { return .none }
        var step = Step.none
        if signal.displayStatus == .visible {
            if !wasShown || isHidden { step = .shown }
            wasShown = true
            isHidden = false
        } else if signal.displayStatus == .hidden || signal.displayStatus == .disabled, wasShown {
            isHidden = true
        }
        if wasShown, signal.eventName == .sectionChange
            || (signal.eventName == .signalStatus && signal.signalStatus == .ready)
        {
            userActed = true
        }
        if wasShown, userActed, isHidden {
            finished = true
            return .finishedByUser
        }
        return step
    }
}
