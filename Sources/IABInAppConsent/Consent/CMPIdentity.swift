/// The one rule for `IABTCF_CmpSdkID` / `IABTCF_CmpSdkVersion` (and their GPP EU mirrors).
///
/// CMP API v2.2 "In-App Details": the CMP SDK shall set `IABTCF_CmpSdkID` as soon as it is initialised, to tell vendors
/// that a CMP is present; only one CMP SDK is active per app. In a web bridge the "CMP SDK" is the app's configured
/// id when it has one, otherwise the web CMP that produced the consent.
///
/// The id and the version always come from the same source, in this order:
/// 1. the app's configured id, with the app's configured version (or none: a configured id is never paired with the
///    version of the CMP that wrote the TC string, which is another CMP's number);
/// 2. the CMP id the page reported (`TCData.cmpId`), with its `cmpVersion`;
/// 3. the TC string's `CmpId` and `CmpVersion`.
/// A configured version without a configured id replaces the version of source 2 or 3.
enum CMPIdentity {
    /// The resolved id and version; `id` is `nil` only when no source has one (e.g. GPP-only consent).
    static func resolve(
        configuredID: Int?, configuredVersion: Int?, reportedID: Int? = nil, reportedVersion: Int? = nil,
        tcString: TCString?
    ) -> (id: Int?, version: Int?) {
        if let configuredID { return (configuredID, configuredVersion) }
        if let reportedID { return (reportedID, configuredVersion ?? reportedVersion) }
        if let tcString { return (tcString.cmpID, configuredVersion ?? tcString.cmpVersion) }
        return (nil, configuredVersion)
    }
}
