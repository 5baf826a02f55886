import Foundation

/// The page's requests to open the app's page in Settings (``CMPMessage/openAppSettings``), decided by
/// ``AppSettingsRequests``.
extension BridgeMachine {
    /// The page asks for the app's Settings (a user who denied App Tracking Transparency can allow it only there).
    /// Carried out only while the user can have asked (the page is ready, its UI is presented and not covered, and the
    /// app is in the foreground), and at most once per foreground period; otherwise a diagnostic and nothing opens.
    /// The run goes on either way (the page stays as it was; the app context's ATT status is the one of the page's
    /// load, see ``AppContext``).
    mutating func openAppSettings(_ out: inout Effects) {
        let onScreen = run?.stage == .ready && isPresented && !isCovered && !inBackground
        switch appSettings.request(onScreen: onScreen) {
        case .open: out.append(.openAppSettings)
        case .refusedNotOnScreen: report(.diagnostic(Self.appSettingsRefused), &out)
        case .refusedAlreadyOpened: report(.diagnostic(Self.appSettingsAlreadyOpened), &out)
        }
    }

    /// The diagnostic of a ``CMPMessage/openAppSettings`` refused because the page was not ready and on screen.
    static let appSettingsRefused =
        "the page asked to open the app's Settings while its UI was not ready and on screen; nothing opened"

    /// The diagnostic of a second ``CMPMessage/openAppSettings`` in one foreground period.
    static let appSettingsAlreadyOpened =
        "the page asked to open the app's Settings again before the app returned from the background; nothing opened"
}
