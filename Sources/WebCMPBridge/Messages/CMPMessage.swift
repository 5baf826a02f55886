import Foundation

/// A validated message from the CMP page, whatever dialect it arrived in.
enum CMPMessage: Sendable, Hashable {
    /// The page is ready and waits for the stored record (Gravito `CMP-loaded` / `start`; generic TCF: `__tcfapi`
    /// answered).
    case ready
    /// The CMP UI became visible (generic TCF `cmpuishown`).
    case uiShown
    /// The CMP reported its configuration (Gravito `load`, with `configversion`).
    case configurationLoaded(configVersion: String?)
    /// The user made a choice, or the CMP loaded stored consent (generic TCF `tcloaded`).
    case save(ConsentPayload)
    /// An event of the page's GPP CMP (generic dialect, from `__gpp`): its state and, when there is one, its string.
    case gpp(GPPSignal)
    /// The page's US Privacy string (generic dialect, from `__uspapi('getUSPData')`).
    case usPrivacy(String)
    /// The page asks to be dismissed.
    case close
    /// What a privacy-settings call reported (generic dialect, `open-settings.js`; ``SettingsOpening``).
    case settingsCall(attempt: Int, result: SettingsOpening.CallResult)
    /// The page asks the app to open its page in the system's Settings app (`{type: "webcmp.openAppSettings"}`, to the
    /// handler of any dialect; see ``openAppSettingsType``): a user who denied App Tracking Transparency can allow it
    /// only there.
    case openAppSettings
}

extension CMPMessage {
    /// The `type` of the message a page posts to ask for the app's Settings (``openAppSettings``), to the handler of
    /// the dialect it speaks (`jsHandler`, `osbCmpMessageHandler` or `webcmpTCF`). Namespaced so that it cannot be
    /// one of a CMP's own message types; nothing else in the message is read.
    static let openAppSettingsType = "webcmp.openAppSettings"
}

extension CMPMessage {
    /// Whether this message fixes the generic TCF dialect in automatic detection (``DialectDetection``): it carries
    /// consent (a save, a GPP string), or the page's CMP shows its UI (`cmpuishown`, GPP `cmpDisplayStatus: visible`).
    /// A bare ready message does not: pages that speak an app protocol run `__tcfapi` too. A GPP CMP that follows the
    /// spec keeps `signalStatus: not ready` while its UI is up, so without the UI signal a GPP-only page reopened for
    /// "Privacy settings" would never be announced ready.
    var fixesGenericDialect: Bool {
        switch self {
        case .save, .uiShown: return true
        case .gpp(let signal): return signal.mayCarryConsent || signal.displayStatus == .visible
        case .ready, .configurationLoaded, .close, .usPrivacy, .settingsCall, .openAppSettings: return false
        }
    }
}
