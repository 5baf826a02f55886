import Foundation

/// One App Tracking Transparency request, as a pure value: it takes what happened (``Input``) and returns what to do
/// (``Effect``). The machine keeps one while the prompt is due (before the CMP, or after the UI) and carries out its
/// effects; its table tests feed it inputs directly.
///
/// What it relies on (Apple's `ATTrackingManager.h`, `requestTrackingAuthorization(completionHandler:)`, iOS 26.2 SDK):
/// "Calls to the API only prompt when the application state is `UIApplicationStateActive`. The authorization prompt
/// doesn't display if another permission request is pending user confirmation. […] Check the
/// `trackingAuthorizationStatus` for a status of `NotDetermined` to determine if you need to make an additional call."
/// The alert is shown out of process, so it makes the app resign active while it is up and become active again once it
/// is answered.
///
/// The rules:
/// - **Only to an active app.** A request waits for an active app (``Effect/waitUntilActive``) before it is made.
/// - **An answer is never settled while the prompt may be on screen.** From iOS 17.4 the request can answer `.denied`
///   (or `.notDetermined`) while the status still reads `.notDetermined`: the alert is still to come, or up. Then the
///   answer settles (``Progress/settling``): the status is read again at the app's next activation (the alert's
///   end: an answered alert leaves a determined status, so an activation that finds it still `.notDetermined` was not
///   the alert's and the settling goes on), and when ``settleWindow`` seconds **of active time** have passed (an alert
///   that never shows). The
///   window pauses while the app is inactive (the machine's ``BridgeMachine/Timer/trackingSettle`` pauses from
///   `willResignActive` to `didBecomeActive`), so an alert left up for minutes never times out.
/// - **"Not determined" is not "denied".** A status still `.notDetermined` after settling means no alert was answered:
///   as Apple documents, another request is needed. It is made **once more**, at once when the app is active (else at
///   its next activation); if the status is still `.notDetermined` after that one settles, the request ends with
///   `.notDetermined` (reported as such: ``ConsentBridgeEvent/trackingAuthorization(_:)``), never as `.denied`.
struct TrackingPrompt: Sendable, Hashable {
    /// What happened to the request.
    enum Input: Sendable, Hashable {
        /// The app is active (the answer to ``Effect/waitUntilActive``).
        case appActive
        /// The request answered, with the status read right after (`nil`: not read; the answer stands).
        case answered(Result<TrackingAuthorizationStatus, ConsentBridgeError>, statusNow: TrackingAuthorizationStatus?)
        /// The app became active again (`didBecomeActive`): an alert that was up has been answered.
        case becameActive
        /// ``settleWindow`` seconds of active time passed while settling.
        case settleWindowEnded
        /// The status, read again (the answer to ``Effect/readStatus``).
        case statusRead(TrackingAuthorizationStatus)
    }

    /// What the machine does next, in order.
    enum Effect: Sendable, Hashable {
        /// Wait until the app is active; answer with ``Input/appActive``.
        case waitUntilActive
        /// Make the request; answer with ``Input/answered(_:statusNow:)``.
        case request
        /// Start the settle window (``settleWindow`` seconds of active time); answer with ``Input/settleWindowEnded``.
        case openSettleWindow
        /// Stop the settle window.
        case closeSettleWindow
        /// Read the status; answer with ``Input/statusRead(_:)``.
        case readStatus
        /// The request is over with this answer: report it, and go on (load the CMP page, or end the run).
        case settled(Result<TrackingAuthorizationStatus, ConsentBridgeError>)
    }

    /// Where the request is.
    enum Progress: Sendable, Hashable {
        /// Waiting until the app is active (``Effect/waitUntilActive``).
        case waitingForActiveApp
        /// The request is under way (``Effect/request``): its alert may be on screen.
        case requesting
        /// The request answered while the status still read `.notDetermined`: waiting for the app's next activation or
        /// the end of the settle window, then the status is read again.
        case settling
        /// Over (``Effect/settled(_:)`` was returned): every input is ignored.
        case settled
    }

    /// Seconds of **active** time an early answer waits for the app's next activation before the status is read
    /// again: the alert is usually answered within seconds; one that never shows must not hold the CMP page (before
    /// the CMP) or the run's end for long.
    static let settleWindow: TimeInterval = 10
    /// How many requests one prompt makes at most: the first, and one more when the status is still "not determined"
    /// after it settled.
    static let maximumRequests = 2

    /// Where the request is.
    private(set) var progress = Progress.waitingForActiveApp
    /// How many requests were made.
    private(set) var requests = 0
    /// Whether the settle window of the request settling now has ended.
    private var windowEnded = false

    /// Whether a request was made and has not settled: its alert may be on screen, or still to come.
    var isRequested: Bool { progress == .requesting || progress == .settling }

    /// A prompt waiting for an active app: the machine starts it with ``Effect/waitUntilActive``.
    init() {}

    /// Takes in `input` and returns the effects, in order. Inputs that do not fit where the request is (a late or
    /// second answer, an activation while nothing settles) are ignored: the runner's tasks and the app's
    /// notifications arrive in any order.
    mutating func handle(_ input: Input) -> [Effect] {
        switch (progress, input) {
        case (.waitingForActiveApp, .appActive):
            progress = .requesting
            requests += 1
            return [.request]
        case (.requesting, .answered(let result, let statusNow)):
            guard case .success(let answer) = result, answer == .denied || answer == .notDetermined,
                (statusNow ?? answer) == .notDetermined
            else { return settle(result) }
            progress = .settling
            return [.openSettleWindow]
        case (.settling, .becameActive):
            return [.readStatus]
        case (.settling, .settleWindowEnded):
            windowEnded = true
            return [.readStatus]
        case (.settling, .statusRead(let status)):
            if status != .notDetermined { return [.closeSettleWindow] + settle(.success(status)) }
            // An answered alert leaves a determined status: an activation with the status still "not determined" was
            // not the alert's end (Control Center, a call), and the alert may still be to come: settle on.
            guard windowEnded else { return [] }
            windowEnded = false
            guard requests < Self.maximumRequests else { return [.closeSettleWindow] + settle(.success(.notDetermined)) }
            progress = .waitingForActiveApp   // Apple: "not determined" means another request is needed
            return [.closeSettleWindow, .waitUntilActive]
        case (.waitingForActiveApp, _), (.requesting, _), (.settling, _), (.settled, _):
            return []   // an input that does not fit where the request is: ignored (see above)
        }
    }

    private mutating func settle(_ result: Result<TrackingAuthorizationStatus, ConsentBridgeError>) -> [Effect] {
        progress = .settled
        return [.settled(result)]
    }
}
