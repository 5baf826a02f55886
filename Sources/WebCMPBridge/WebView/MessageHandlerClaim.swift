/// What a web view adapter does with a script message handler name on a content controller that other adapters may
/// share, decided from the registry of names adapters registered there (`WKUserContentController` raises
/// `NSInvalidArgumentException` for a second handler of a name, and cannot be asked which names it has).
package enum MessageHandlerClaim: Equatable, Sendable {
    /// No adapter registered the name: register it.
    case register
    /// An adapter registered it and is gone without removing it: remove that handler, then register.
    case replaceStale
    /// A live adapter holds it: refuse with ``WebViewSetupError/messageHandlerNameInUse(_:)``; never take it over.
    case refuse

    /// `previousOwnerAlive`: `nil` when no adapter registered the name on this controller.
    package init(previousOwnerAlive: Bool?) {
        switch previousOwnerAlive {
        case nil: self = .register
        case false?: self = .replaceStale
        case true?: self = .refuse
        }
    }
}
