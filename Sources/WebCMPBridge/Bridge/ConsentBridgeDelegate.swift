/// Receives a ``ConsentBridge``'s events.
@MainActor
public protocol ConsentBridgeDelegate: AnyObject {
    /// Called for every event, in order.
    func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent)
}
