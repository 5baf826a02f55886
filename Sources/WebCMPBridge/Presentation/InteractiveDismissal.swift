/// Whether the user may swipe the consent sheet away (or close it with the system gesture) instead of acting in the
/// CMP. The UI asks ``ConsentBridge/allowsInteractiveDismissal``; UIKit maps it to `isModalInPresentation`, SwiftUI to
/// `interactiveDismissDisabled`.
public enum InteractiveDismissal: String, Sendable, Hashable, CaseIterable {
    /// Modal until the user made a choice: allowed once consent was saved in this run, or when valid consent was
    /// already stored before it (e.g. "Privacy settings"). The default: a first-run banner cannot be swiped away
    /// without an answer, which is what regulators expect of a consent wall.
    case afterChoice
    /// Always allowed. A dismissal without a choice ends the run with ``UIFinishReason/dismissedByUser``.
    case always
    /// Never allowed: only the CMP page ends the UI.
    case never
}
