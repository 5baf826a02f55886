/// Receives a ``ConsentBridge``'s events synchronously, in order: the one slot the kit's own owners use (the run's
/// `ConsentSession`, the pre-warmer, the Linux host). `package`: an app that took this slot would silently cut the
/// session that delivers its outcome off its bridge. Apps listen with ``ConsentBridge/events()`` (any number of
/// streams) or the UI's `onEvent`; tests record events with `WebCMPBridgeTesting`'s `ConsentEventRecorder`.
@MainActor
package protocol ConsentBridgeDelegate: AnyObject {
    /// Called for every event, in order.
    func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent)

    /// Called once, when the bridge detached (``ConsentBridge/invalidate()`` or the end of its run): no event follows.
    /// This is when its ``ConsentBridge/events()`` streams finish; a delegate learns it here synchronously, on the
    /// main actor, without waiting for a stream's consumer to be resumed.
    func bridgeDidDetach(_ bridge: ConsentBridge)
}

extension ConsentBridgeDelegate {
    /// Does nothing: a delegate that needs no word of the detach.
    package func bridgeDidDetach(_ bridge: ConsentBridge) {}
}
