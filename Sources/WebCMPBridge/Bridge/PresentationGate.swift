/// Guards against presenting the CMP twice at once (a common crash in incumbent SDKs: presenting on a controller that
/// is already presenting). `WebCMPBridgeUI` holds one per process; only the presentation that began it ends it.
@MainActor
package final class PresentationGate {
    /// A successful ``begin()``: pass it back to ``end(_:)``.
    package struct Token: Hashable, Sendable {
        fileprivate let id: Int
    }

    private var current: Token?
    private var nextID = 0

    package init() {}

    /// Whether a presentation is in progress.
    package var isPresenting: Bool { current != nil }

    /// Starts a presentation; `nil` when one is already in progress.
    package func begin() -> Token? {
        guard current == nil else { return nil }
        nextID += 1
        let token = Token(id: nextID)
        current = token
        return token
    }

    /// Ends the presentation `token` began; a stale or foreign token changes nothing.
    package func end(_ token: Token?) {
        guard let token, current == token else { return }
        current = nil
    }

    /// The gate `WebCMPBridgeUI` uses.
    package static let shared = PresentationGate()
}
