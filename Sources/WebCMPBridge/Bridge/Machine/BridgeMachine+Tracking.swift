import Foundation

/// App Tracking Transparency in the machine: the prompt is a value of its own (``TrackingPrompt``), kept in the phase it
/// belongs to (before the CMP: the run's ``Stage/trackingFirst(_:)``; after the UI: ``Phase/finished(_:tracking:)``).
/// The machine feeds it the app's activations, the request's answers, the settle window and the status read again,
/// and carries out what it returns with its own effects and timer (``Timer/trackingSettle``).
extension BridgeMachine {
    /// The tracking prompt in progress, in either place (`nil`: none is due).
    var trackingPrompt: TrackingPrompt? {
        switch phase {
        case .running(let run):
            if case .trackingFirst(let prompt) = run.stage { return prompt }
            return nil
        case .finished(_, .request(let prompt)):
            return prompt
        case .created, .attached, .finished(_, .waitingForPresentationEnd), .invalidated:
            return nil
        }
    }

    /// Feeds `input` to the prompt in progress and carries out its effects. With no prompt due, the input is
    /// ignored: the runner's tasks and the app's notifications may arrive after the prompt settled, or before any.
    mutating func tracking(_ input: TrackingPrompt.Input, _ out: inout Effects) {
        guard var prompt = trackingPrompt else { return }
        let effects = prompt.handle(input)
        switch phase {
        case .running: withRun { $0.stage = .trackingFirst(prompt) }
        default: setTrackingAfterUI(prompt)
        }
        for effect in effects {
            switch effect {
            case .waitUntilActive: out.append(.waitUntilActive)
            case .request: out.append(.requestTracking)
            case .openSettleWindow: schedule(.trackingSettle, seconds: TrackingPrompt.settleWindow, &out)
            case .closeSettleWindow: cancel(.trackingSettle, &out)
            case .readStatus: out.append(.readTrackingStatus)
            case .settled(let result): trackingSettled(result, &out)
            }
        }
    }

    /// The prompt's answer is final: report it, then load the CMP page (before the CMP) or detach (after the UI).
    private mutating func trackingSettled(
        _ result: Result<TrackingAuthorizationStatus, ConsentBridgeError>, _ out: inout Effects
    ) {
        switch result {
        case .success(let status): report(.trackingAuthorization(status), &out)
        case .failure(let error): report(.error(error), &out)
        }
        switch phase {
        case .running:
            withRun { $0.stage = .loading }
            load(nil, &out)
        case .finished:
            invalidate(&out)
        case .created, .attached, .invalidated:
            unreachable("a tracking answer settled in \(phase)")   // tracking(_:_:) reads trackingPrompt first
        }
    }
}
