import Foundation

/// The requests of one `.consentPrompt` (WebCMPBridgeUI) and its sheet: the modifier reports its binding and the
/// sheet's fate, and performs what this value answers. A pure value, table-tested.
///
/// - A request while no sheet is up begins a presentation (``Effect/begin``); a refused one resets the binding.
/// - A request while the previous sheet is still closing (its binding went to `false`, its `onDismiss` has not come
///   yet) is not dropped: it is asked again once the sheet is gone, while it is still requested. Until then the sheet
///   is not shown (``showsSheet``), so SwiftUI never sees a sheet that is both closing and requested.
/// - A request withdrawn while a sheet is up asks the presentation to end if it never showed (``Effect/withdraw``):
///   SwiftUI calls no `onDismiss` for a sheet it never presented.
package struct ConsentPromptRequests: Sendable, Hashable {
    /// What the modifier reported.
    package enum Input: Sendable, Hashable, CaseIterable {
        /// The binding became `true`.
        case requested
        /// The binding became `false`.
        case withdrawn
        /// The presentation ``Effect/begin`` asked for began (the gate was free).
        case began
        /// The presentation ``Effect/begin`` asked for was refused (another consent UI is up).
        case refused
        /// The sheet is gone: its `onDismiss`, or a presentation that ended without ever showing.
        case sheetGone
    }

    /// What the modifier does.
    package enum Effect: Sendable, Hashable {
        /// Begin a presentation (take the gate, make or take the bridge).
        case begin
        /// End the presentation if its sheet never showed.
        case withdraw
        /// Set the binding back to `false`.
        case clearRequest
    }

    /// Where the sheet is.
    package enum Sheet: Sendable, Hashable, CaseIterable {
        /// No presentation.
        case none
        /// Asked to begin, not yet answered.
        case beginning
        /// A presentation is up (or appearing).
        case up
        /// Its binding went to `false`; waiting for the sheet to be gone.
        case closing
    }

    /// Whether the binding is `true`.
    package private(set) var isRequested = false
    /// Where the sheet is.
    package private(set) var sheet: Sheet = .none

    /// No request, no sheet.
    package init() {}

    /// Whether SwiftUI is to show the sheet now.
    package var showsSheet: Bool { isRequested && sheet == .up }

    /// Takes one input in and answers what to do.
    package mutating func handle(_ input: Input) -> [Effect] {
        switch input {
        case .requested:
            isRequested = true
            guard sheet == .none else { return [] }
            sheet = .beginning
            return [.begin]
        case .withdrawn:
            isRequested = false
            guard sheet == .up else { return [] }
            sheet = .closing
            return [.withdraw]
        case .began:
            guard sheet == .beginning else { return [] }
            guard isRequested else {   // withdrawn while it began: end it again
                sheet = .closing
                return [.withdraw]
            }
            sheet = .up
            return []
        case .refused:
            guard sheet == .beginning else { return [] }
            sheet = .none
            isRequested = false
            return [.clearRequest]
        case .sheetGone:
            guard sheet == .up || sheet == .closing else { return [] }
            sheet = .none
            guard isRequested else { return [] }
            sheet = .beginning
            return [.begin]
        }
    }
}
