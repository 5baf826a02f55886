extension ConsentBridge {
    /// Where the bridge is in its life.
    public enum State: Sendable, Hashable {
        /// Created, not started.
        case idle
        /// The page is loading; waiting for it to become ready.
        case loading
        /// The page is ready.
        case ready
        /// The UI is finished; nothing more is stored.
        case finished(UIFinishReason)
        /// Handlers and scripts are removed and the event streams finished.
        case invalidated
    }
}
