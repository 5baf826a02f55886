#if canImport(UIKit) && canImport(WebKit)
/// How ``ConsentViewController`` presents the CMP web view.
public enum ConsentPresentation: Sendable, Hashable {
    /// Full screen.
    case fullScreen
    /// A bottom sheet of the given height.
    case sheet(SheetHeight)

    /// Heights of the bottom sheet, as a fraction of the screen.
    public enum SheetHeight: String, Sendable, Hashable, CaseIterable {
        case full, twoThirds, half, third

        /// The fraction of the container's height.
        var fraction: Double {
            switch self {
            case .full: return 1
            case .twoThirds: return 2.0 / 3.0
            case .half: return 0.5
            case .third: return 1.0 / 3.0
            }
        }
    }
}
#endif
