import Foundation
import WebCMPBridge
import WebCMPConformance
import WebCMPHostGTK

/// `check` rows about consent over a user's lifetime: gdprApplies reported by the page, GPP-only consent captured.
@MainActor
func lifetimeRows(_ session: HostSession) -> [ConformanceReport.Row] {
    let data = session.evaluate("""
        new Promise(function (r) { if (typeof __tcfapi !== 'function') { r(null); return; }
          var t = setTimeout(function () { r(null); }, 1000);
          __tcfapi('getTCData', 2, function (d) { clearTimeout(t); r(d ? { gdprApplies: d.gdprApplies } : null); }); })
        """) ?? .null
    return [.gdprApplies(reported: data["gdprApplies"]), .gppOnlyConsent(session.bridgeEvents)]
}

/// `check` row: the page reopened in settings mode with the stored consent becomes ready, rejects nothing and stays
/// open until the user acts (it does not finish on its own).
@MainActor
func settingsRow(_ arguments: Arguments, url: URL, store: ConsentStore) -> ConformanceReport.Row {
    var settings = arguments
    settings.clicks = []
    settings.settings = true
    let session = runSession(settings, url: url, store: store)
    defer {
        session.bridge.invalidate()
        session.view.close()
    }
    return .privacySettings(
        session.bridgeEvents, toolFailures: session.toolFailures, openedBy: session.bridge.privacySettingsOpenedBy)
}
