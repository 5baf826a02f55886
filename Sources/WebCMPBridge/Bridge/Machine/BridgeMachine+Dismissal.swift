import Foundation

/// Whether the user may swipe the UI away now.
extension BridgeMachine {
    /// Whether the user may dismiss the UI with the system gesture now (``BridgeConfiguration/interactiveDismissal``).
    var allowsInteractiveDismissal: Bool {
        switch configuration.interactiveDismissal {
        case .always: return true
        case .never: return false
        case .afterChoice: return (run?.consent.userChose ?? true) || renewalReason.isNilOrRetry
        }
    }
}

extension Optional where Wrapped == ConsentRenewalReason {
    /// Whether stored consent is in force: good (`nil`), or only waiting for the hosted page
    /// (``ConsentRenewalReason/hostedPageNotShown``).
    var isNilOrRetry: Bool { self == nil || self == .hostedPageNotShown }
}
