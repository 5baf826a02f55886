import Foundation

/// Opening a CMP's privacy settings on evidence (``ConsentUIMode/settings``): the candidate calls of the
/// ``PrivacySettingsOpener`` are made until the CMP shows its UI.
///
/// - **Evidence.** The settings are open only when the page shows its UI: TCF `cmpuishown` ("the CMP UI is shown",
///   TCF CMP API v2.2, `addEventListener` event statuses), a TCF `ping` answering `displayStatus: "visible"`, or GPP
///   `cmpDisplayStatus: visible` (GPP CMP API v1.1, `PingReturn`), or the `window` event a CMP documents for its
///   UI (a preset's `shownEvent`, reported as ``CallResult/shown``). A UI the page shows on its own before the first
///   call (it reads the stored consent and shows its preferences) counts, and no call is made then. Nothing else
///   counts: a call that returned, a ready message or a finished load is no evidence.
/// - **Late openers.** Many CMPs define their global early and make the function real only after their UI framework
///   has rendered: called at once it does nothing. So the opener is called again every ``retryInterval`` — looked up
///   afresh each time (the script resolves the path at every call) — until the UI shows or its window
///   (``BridgeConfiguration/settingsAttemptTimeout``) ends, and never again once the UI shows.
/// - **One opener at a time.** The first candidate whose function the page has and that did not refuse becomes the
///   opener; no other candidate is called while its window runs. A candidate that is **refused** (its callback
///   answered `success: false`, as a TCF CMP answers a command it does not support) is out at once; one the page does
///   not have (**missing**) is passed over in this round and looked for again in the next; one that **threw** may
///   still work (a placeholder that throws until the CMP is ready) and keeps its window.
/// - **Failure.** When the opener's window ends without the UI, the next candidate gets its own window; when no
///   function was found within a window, or every candidate is out, opening **failed** with the reasons, and the
///   bridge ends the run with ``ConsentBridgeError/Code/privacySettingsNotOpened`` and consent unchanged. With no
///   candidates at all (a dialect whose opener is only a URL), the page has one window to show its UI.
///
/// A pure value, in the machine's vocabulary: the bridge feeds it what happened (``Input``) to ``handle(_:)`` and carries
/// out the ``Effect``s it returns, in order.
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
        /// The CMP fired the call's own "UI shown" event (``PrivacySettingsCall``'s `shownEvent`): evidence.
        case shown
    }

    /// What happened.
    package enum Input: Sendable, Hashable {
        /// The page became ready and its dialect is known: `candidates` are the calls to try, in order.
        case start(candidates: [PrivacySettingsCall])
        /// The CMP showed its UI (the evidence).
        case uiShown
        /// A call reported its result (`open-settings.js`), with the attempt number it was made as.
        case callReported(CallResult, attempt: Int)
        /// ``retryInterval`` passed since ``Effect/retryLater``.
        case retryIntervalPassed
        /// The opener's window (or, without an opener, the time to find one) ended after `seconds`.
        case attemptWindowEnded(after: Double)
    }

    /// What the bridge does next (in order).
    package enum Effect: Sendable, Hashable {
        /// Make `call` in the page as attempt `attempt` (reported back with that number).
        case call(PrivacySettingsCall, attempt: Int)
        /// (Re)start the window of the opener: ``Input/attemptWindowEnded(after:)`` when it ends.
        case startWindow
        /// Feed ``Input/retryIntervalPassed`` after ``retryInterval``.
        case retryLater
        /// The CMP shows its UI; `by` names the call that opened it (or the page itself).
        case opened(by: String)
        /// The CMP did not show its UI.
        case failed(reason: String)
    }

    /// The name used when the page showed its UI without a call of ours.
    package static let byThePage = "the page itself"
    /// Seconds between two calls of an opener that has not shown the UI yet.
    package static let retryInterval: TimeInterval = 0.25

    /// Where opening is.
    package enum Progress: Sendable, Hashable {
        /// ``Input/start(candidates:)`` has not come; `uiShown`: the page showed its UI on its own meanwhile (then the start
        /// opens without a call).
        case waiting(uiShown: Bool)
        /// Calls are made until the UI shows or no candidate is left.
        case underWay
        /// Over: opened or failed.
        case settled
    }

    /// The candidate calls, in order (set by ``Input/start(candidates:)``).
    package private(set) var candidates: [PrivacySettingsCall] = []
    /// Where opening is.
    package private(set) var progress = Progress.waiting(uiShown: false)
    /// The opener: a candidate whose function was found and called, and whose window runs.
    private var opener: Int?
    /// The candidate of every call made, by attempt number.
    private var calls: [Int] = []
    /// Whether the report of the last call is still to come.
    private var lastCallPending = false
    /// Candidates that refused, or whose window ended: never called again.
    private var out: Set<Int> = []
    /// Candidates that threw at their last call.
    private var threw: Set<Int> = []
    /// Candidates whose function the page never had.
    private var neverFound: Set<Int> = []
    private var reasons: [String] = []

    /// Creates an opening; its candidates are given when it starts (the dialect may be known only then).
    package init() {}

    /// Whether ``Input/start(candidates:)`` came.
    package var isStarted: Bool {
        if case .waiting = progress { return false }
        return true
    }

    /// The run's timers that may be running (for cancelling them when the run ends).
    package var timersMayRun: Bool { progress == .underWay }

    /// Takes in `input` and returns the effects, in order.
    package mutating func handle(_ input: Input) -> [Effect] {
        switch input {
        case .start(let candidates): return start(candidates: candidates)
        case .uiShown: return uiShown()
        case .callReported(let result, let attempt): return callReported(result, attempt: attempt)
        case .retryIntervalPassed: return retry()
        case .attemptWindowEnded(let seconds): return attemptWindowEnded(after: seconds)
        }
    }

    /// The page became ready and its dialect is known: make the first call (or, when its UI already shows, open).
    private mutating func start(candidates: [PrivacySettingsCall]) -> [Effect] {
        guard case .waiting(let uiShown) = progress else { return [] }
        progress = .underWay
        self.candidates = candidates
        neverFound = Set(candidates.indices)
        if uiShown { return [settle(.opened(by: Self.byThePage))] }
        return [.startWindow] + probe(from: 0)
    }

    /// The CMP showed its UI.
    private mutating func uiShown() -> [Effect] {
        switch progress {
        case .settled:
            return []
        case .waiting:
            progress = .waiting(uiShown: true)
            return []
        case .underWay:
            break
        }
        // The page posts the UI signal from inside the call that opened it, before that call's own report.
        let by = opener ?? (lastCallPending ? calls.last : nil)
        return [settle(.opened(by: by.map { candidates[$0].name } ?? Self.byThePage))]
    }

    /// A call reported its result.
    private mutating func callReported(_ result: CallResult, attempt: Int) -> [Effect] {
        guard progress == .underWay, calls.indices.contains(attempt) else { return [] }
        let index = calls[attempt]
        let isLast = attempt == calls.count - 1
        if isLast { lastCallPending = false }
        switch result {
        case .shown:
            return [settle(.opened(by: candidates[index].name))]
        case .refused:
            // A refusal counts whenever it arrives (a CMP may answer its callback after later calls were made).
            guard out.insert(index).inserted else { return [] }
            reasons.append("\(candidates[index].name) refused (success: false)")
            if opener == index { opener = nil }
            guard opener == nil, isLast || !lastCallPending else { return [] }
            return probe(from: index + 1)
        case .missing:
            guard isLast else { return [] }
            return opener == index ? [.retryLater] : probe(from: index + 1)
        case .called, .threw:
            guard isLast else { return [] }
            neverFound.remove(index)
            // Refused meanwhile (its callback answered an earlier call late): look further.
            if out.contains(index) { return opener == nil ? probe(from: index + 1) : [] }
            if result == .threw { threw.insert(index) } else { threw.remove(index) }
            guard opener == nil else { return [.retryLater] }
            opener = index
            return [.startWindow, .retryLater]
        }
    }

    /// The retry interval passed: call the opener again, or look for one from the first candidate.
    private mutating func retry() -> [Effect] {
        guard progress == .underWay, !lastCallPending else { return [] }
        if let opener { return [call(opener)] }
        return probe(from: 0)
    }

    /// The opener's window (or, without an opener, the time to find one) ended after `seconds`.
    private mutating func attemptWindowEnded(after seconds: Double) -> [Effect] {
        guard progress == .underWay else { return [] }
        guard let index = opener else { return [settle(.failed(reason: failureReason(after: seconds)))] }
        let name = candidates[index].name
        reasons.append(threw.contains(index) ? "\(name) threw" : "\(name) showed no UI within \(seconds) s")
        out.insert(index)
        opener = nil
        guard candidates.indices.contains(where: { !out.contains($0) }) else {
            return [settle(.failed(reason: failureReason(after: seconds)))]
        }
        return [.startWindow] + probe(from: 0)
    }

    /// Calls the first candidate from `index` that is not out; when none is left in this round, waits for the next.
    private mutating func probe(from index: Int) -> [Effect] {
        if let next = candidates.indices.first(where: { $0 >= index && !out.contains($0) }) { return [call(next)] }
        if candidates.isEmpty { return [] }
        if out.count == candidates.count { return [settle(.failed(reason: failureReason(after: nil)))] }
        return [.retryLater]
    }

    private mutating func call(_ index: Int) -> Effect {
        calls.append(index)
        lastCallPending = true
        return .call(candidates[index], attempt: calls.count - 1)
    }

    private func failureReason(after seconds: Double?) -> String {
        var parts = reasons
        let notFound = candidates.indices.filter { neverFound.contains($0) && !out.contains($0) }
        if !notFound.isEmpty {
            parts.append("not on the page: " + notFound.map { candidates[$0].name }.joined(separator: ", "))
        }
        if candidates.isEmpty {
            parts.append("nothing to call, and the page showed no UI" + (seconds.map { " within \($0) s" } ?? ""))
        }
        return parts.joined(separator: "; ")
    }

    private mutating func settle(_ effect: Effect) -> Effect {
        progress = .settled
        return effect
    }
}
