import Foundation
import WebCMPBridge
import WebCMPHostGTK

/// `check` rows about consent over a user's lifetime: gdprApplies reported by the page, GPP-only consent captured.
@MainActor
func lifetimeRows(_ session: HostSession) -> [(String, Bool?, String)] {
    let data = session.evaluate("""
        new Promise(function (r) { if (typeof __tcfapi !== 'function') { r(null); return; }
          var t = setTimeout(function () { r(null); }, 1000);
          __tcfapi('getTCData', 2, function (d) { clearTimeout(t); r(d ? { gdprApplies: d.gdprApplies } : null); }); })
        """) ?? .null
    let gdpr: (String, Bool?, String)
    switch data["gdprApplies"] {
    case .bool(let applies)?: gdpr = ("page reports gdprApplies", nil, "gdprApplies: \(applies)")
    default: gdpr = ("page reports gdprApplies", nil, "not reported (the configured value is used)")
    }
    let saves = session.log.filter { $0["type"] == .string("consentReady") }
    let gppOnly = saves.contains { $0["tcString"] == .null && ($0["gppString"]?.stringValue ?? "").isEmpty == false }
    let gpp: (String, Bool?, String) = gppOnly
        ? ("GPP-only consent captured", true, "a save with a GPP string and no TC string was stored")
        : ("GPP-only consent captured", nil, saves.isEmpty ? "no save" : "not GPP-only (a TC string was saved)")
    return [gdpr, gpp]
}

/// `check` row: the page reopened in settings mode with the stored consent becomes ready, rejects nothing and stays
/// open until the user acts (it does not finish on its own).
@MainActor
func settingsRow(_ arguments: Arguments, url: URL, store: ConsentStore) -> (String, Bool?, String) {
    var settings = arguments
    settings.clicks = []
    settings.settings = true
    let session = runSession(settings, url: url, store: store)
    defer {
        session.bridge.invalidate()
        session.view.close()
    }
    let ready = session.log.contains { $0["type"] == .string("uiReady") }
    let errors = session.log.filter { $0["type"] == .string("error") }
    let finished = session.log.first { $0["type"] == .string("uiFinished") }?["reason"]?.stringValue
    // Evidence, not hope: the bridge names what opened the settings only when the CMP showed its UI (TCF cmpuishown or
    // ping displayStatus visible, GPP cmpDisplayStatus visible — on Gravito and Onesecondbefore pages too); otherwise
    // it ends the run with privacySettingsNotOpened and its reasons, which this row prints.
    let openedBy = session.bridge.privacySettingsOpenedBy
    let ok = ready && errors.isEmpty && finished == nil && openedBy != nil
    let detail: String
    if let error = errors.first {
        detail = error["message"]?.stringValue ?? error["code"]?.stringValue ?? "error"
    } else if !ready {
        detail = "not ready in settings mode"
    } else if let finished {
        detail = "finished by itself (\(finished))"
    } else if let openedBy {
        detail = "opened by \(openedBy) with the stored consent, stays open"
    } else {
        detail = "the CMP never showed its UI"
    }
    return ("privacy settings on demand", ok, detail)
}
