import Foundation

extension ConsentSharing {
    /// The document-start script that defines `navigator.globalPrivacyControl === true` as the GPC specification
    /// defines the property (a readonly, enumerable accessor on `Navigator.prototype`), for **every frame**: platform
    /// adapters inject it with `forMainFrameOnly: false`, so cross-origin iframes (ad tags, embeds) see it too, before
    /// any of their scripts. Marked with ``scriptMarker`` like the other sharing scripts, so adapters replace it with
    /// them. The script is the resource `global-privacy-control.js`.
    public static func globalPrivacyControlScript() -> UserScript {
        UserScript(source: scriptMarker + "\n" + ScriptResource.globalPrivacyControl.source(
                       config: .object(["value": .bool(true)])),
                   injectionTime: .documentStart, forMainFrameOnly: false)
    }

    /// ``globalPrivacyControlScript()`` when `setting` is on for the stored consent
    /// (``GlobalPrivacyControl/isEnabled(record:keys:)``), else nothing: with the signal off the property stays as
    /// WebKit has it (absent).
    public static func globalPrivacyControlScripts(
        record: ConsentRecord?, keys: IABKeySet, setting: GlobalPrivacyControl = .automatic
    ) -> [UserScript] {
        setting.isEnabled(record: record, keys: keys) ? [globalPrivacyControlScript()] : []
    }

    /// The request header fields a document request of a content web view gets: `["Sec-GPC": "1"]` when the
    /// signal is on for the stored consent, else none.
    public static func requestHeaders(
        record: ConsentRecord?, keys: IABKeySet, setting: GlobalPrivacyControl = .automatic
    ) -> [String: String] {
        setting.isEnabled(record: record, keys: keys)
            ? [GlobalPrivacyControl.headerName: GlobalPrivacyControl.headerValue] : [:]
    }
}
