import Foundation

extension ConsentBridge {
    /// The script that opens the CMP's preferences once the page is ready in ``ConsentUIMode/settings`` mode, if the
    /// configuration has a ``PrivacySettingsOpener/call``.
    var settingsScript: String? {
        guard configuration.mode == .settings else { return nil }
        return configuration.settingsOpener.call?.script
    }
}
