/// Opening a CMP's privacy settings on evidence (``ConsentUIMode/settings``, generic TCF/GPP dialect): the candidate
/// calls of the ``PrivacySettingsOpener`` are tried in order until the CMP shows its UI.
///
/// - The settings are **open** only when the page shows its UI: TCF `cmpuishown` ("the CMP UI is shown", TCF CMP API
///   v2.2, `addEventListener` event statuses) or GPP `cmpDisplayStatus: visible` (GPP CMP API v1.1, `PingReturn`).
///   A UI the page shows on its own before the first call (it reads the stored consent and shows its preferences)
///   counts: no call is made then.
/// - A call that is **refused** (its callback answered `success: false`, as a TCF CMP answers a command it does not
///   support), **throws**, or names a function the page does **not have**, moves on to the next candidate at once; one
///   that was made but shows no UI within the attempt timeout does too.
/// - When no candidate is left, opening **failed** with the reasons; the bridge ends the run with
///   ``ConsentBridgeError/privacySettingsNotOpened(_:)`` and consent stays as it was.
///
/// A pure value: the bridge feeds it what happened and carries out the ``Action`` it returns.
package struct SettingsOpening: Sendable, Hashable {
    /// What a call in the page reported (`open-settings.js`).
    package enum CallResult: String, Sendable, Hashable, CaseIterable {
        /// The function was called (whether the UI shows is the evidence's to say).
        case called
        /// The page has no such function.
        case missing
        /// The function threw.
        case threw
        /// Its callback answered `success: false`.
        case refused
    }

    /// What the bridge does next.
    package enum Action: Sendable, Hashable {
        /// Make `call` in the page as attempt `attempt`, and start the attempt timeout.
        case call(PrivacySettingsCall, attempt: Int)
        /// The CMP shows its UI; `by` names the call that opened it (or the page itself).
        case opened(by: String)
        /// No candidate made the CMP show its UI.
        case failed(reason: String)
        /// Nothing to do.
        case none
    }

    /// The name used when the page showed its UI without a call.
    package static let byThePage = "the page itself"
    /// The name used on a Gravito or Onesecondbefore page, which gives no UI signal: its ready message counts.
    package static let byReadyMessage = "the page (its ready message)"

    /// The candidate calls, in order.
    package let candidates: [PrivacySettingsCall]
    /// The attempt under way (an index into ``candidates``), if any.
    package private(set) var attempt: Int?
    /// Whether opening is over (opened or failed).
    package private(set) var isSettled = false
    private var refusals: [String] = []
    private var missing: [String] = []
    private var uiShownBeforeStart = false

    /// Creates the opening of `candidates`.
    package init(candidates: [PrivacySettingsCall]) {
        self.candidates = candidates
    }

    /// The page became ready: make the first call (or, when its UI already shows or there is nothing to call, open).
    package mutating func start() -> Action {
        guard attempt == nil, !isSettled else { return .none }
        if uiShownBeforeStart || candidates.isEmpty { return settle(.opened(by: Self.byThePage)) }
        return next(from: 0)
    }

    /// The CMP showed its UI.
    package mutating func uiShown() -> Action {
        guard !isSettled else { return .none }
        guard let attempt else {
            uiShownBeforeStart = true
            return .none
        }
        return settle(.opened(by: candidates[attempt].name))
    }

    /// A call reported its result.
    package mutating func callReported(_ result: CallResult, attempt reported: Int) -> Action {
        guard !isSettled, reported == attempt, result != .called else { return .none }
        let name = candidates[reported].name
        switch result {
        case .missing: missing.append(name)
        case .threw: refusals.append("\(name) threw")
        case .refused: refusals.append("\(name) refused (success: false)")
        case .called: break
        }
        return next(from: reported + 1)
    }

    /// The attempt timeout of `attempt` fired.
    package mutating func attemptTimedOut(_ timedOut: Int, after seconds: Double) -> Action {
        guard !isSettled, timedOut == attempt else { return .none }
        refusals.append("\(candidates[timedOut].name) showed no UI within \(seconds) s")
        return next(from: timedOut + 1)
    }

    private mutating func next(from index: Int) -> Action {
        guard index < candidates.count else {
            var parts = refusals
            if !missing.isEmpty { parts.append("not on the page: " + missing.joined(separator: ", ")) }
            return settle(.failed(reason: parts.isEmpty ? "nothing to call" : parts.joined(separator: "; ")))
        }
        attempt = index
        return .call(candidates[index], attempt: index)
    }

    private mutating func settle(_ action: Action) -> Action {
        isSettled = true
        return action
    }
}
