/// How the CMP web view is presented (used by `WebCMPBridgeUI`).
public enum ConsentPresentation: Sendable, Hashable {
    /// Full screen.
    case fullScreen
    /// A bottom sheet of the given height.
    case sheet(SheetHeight)

    /// Heights of the bottom sheet, as a fraction of the screen.
    public enum SheetHeight: String, Sendable, Hashable, CaseIterable {
        case full, twoThirds, half, third

        /// The fraction of the container's height.
        public var fraction: Double {
            switch self {
            case .full: return 1
            case .twoThirds: return 2.0 / 3.0
            case .half: return 0.5
            case .third: return 1.0 / 3.0
            }
        }
    }
}

extension ConsentBridgeEvent {
    /// Whether the CMP UI should be dismissed after this event.
    public var endsPresentation: Bool {
        if case .uiFinished = self { return true }
        return false
    }
}

/// Guards against presenting the CMP twice at once (a common crash in incumbent SDKs: presenting on a controller
/// that is already presenting). `WebCMPBridgeUI` holds one per process.
@MainActor
public final class PresentationGate {
    /// Whether a presentation is in progress.
    public private(set) var isPresenting = false

    /// Creates a gate.
    public init() {}

    /// Starts a presentation; `false` when one is already in progress.
    public func begin() -> Bool {
        guard !isPresenting else { return false }
        isPresenting = true
        return true
    }

    /// Ends the presentation.
    public func end() {
        isPresenting = false
    }

    /// The gate `WebCMPBridgeUI` uses.
    public static let shared = PresentationGate()
}
