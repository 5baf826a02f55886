import Foundation

/// The bridge's events: the delegate, any number of async streams, and the bounded log.
extension ConsentBridge {
    /// A new stream of this bridge's events from now on. It finishes when the bridge is invalidated.
    public func events() -> AsyncStream<ConsentBridgeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConsentBridgeEvent.self)
        guard !detached else {
            continuation.finish()
            return stream
        }
        let id = UUID()
        continuations[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { @MainActor in self?.continuations[id] = nil } }
        return stream
    }

    /// Reports `event` to the log, the delegate and every stream (nothing after ``invalidate()``).
    func report(_ event: ConsentBridgeEvent) {
        guard !detached else { return }
        if eventLog.count == Self.eventLogCapacity { eventLog.removeFirst(Self.eventLogCapacity / 4) }
        eventLog.append(event)
        delegate?.bridge(self, didReceive: event)
        for continuation in continuations.values { continuation.yield(event) }
    }
}
