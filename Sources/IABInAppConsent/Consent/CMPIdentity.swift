/// The CMP SDK id and version written to `IABTCF_CmpSdkID` / `IABTCF_CmpSdkVersion` (and their GPP EU mirrors), and
/// the one rule that resolves them.
///
/// CMP API v2.2 "In-App Details": the CMP SDK shall set `IABTCF_CmpSdkID` as soon as it is initialised, to tell vendors
/// that a CMP is present; only one CMP SDK is active per app. In a web bridge the "CMP SDK" is the app's configured
/// id when it has one, otherwise the web CMP that produced the consent.
///
/// The id and the version always come from the same source, in this order
/// (``resolve(configuredID:configuredVersion:reportedID:reportedVersion:tcString:)``):
/// 1. the app's configured id, with the app's configured version (or none: a configured id is never paired with the
///    version of the CMP that wrote the TC string, which is another CMP's number);
/// 2. the CMP id the page reported (`TCData.cmpId`), with its `cmpVersion`;
/// 3. the TC string's `CmpId` and `CmpVersion`.
/// A configured version without a configured id replaces the version of source 2 or 3.
///
/// ``ConsentCommit`` resolves it once per consent and hands the value to the key mapping; what was written is read
/// back from a key set with ``IABKeySet/cmpIdentity``.
package struct CMPIdentity: Sendable, Hashable {
    /// `IABTCF_CmpSdkID`; `nil` only when no source has one (e.g. GPP-only consent without a configured id).
    package var id: Int?
    /// `IABTCF_CmpSdkVersion`; `nil` leaves the key unset.
    package var version: Int?

    /// Creates an identity.
    package init(id: Int? = nil, version: Int? = nil) {
        self.id = id
        self.version = version
    }

    /// The resolved id and version (the rule above).
    package static func resolve(
        configuredID: Int?, configuredVersion: Int?, reportedID: Int? = nil, reportedVersion: Int? = nil,
        tcString: TCString?
    ) -> CMPIdentity {
        if let configuredID { return CMPIdentity(id: configuredID, version: configuredVersion) }
        if let reportedID { return CMPIdentity(id: reportedID, version: configuredVersion ?? reportedVersion) }
        if let tcString { return CMPIdentity(id: tcString.cmpID, version: configuredVersion ?? tcString.cmpVersion) }
        return CMPIdentity(id: nil, version: configuredVersion)
    }

    /// This identity for a TC string it was not resolved against (a GPP string's TCF EU section that differs from the
    /// TC string): unchanged when it has an id, else that string's `CmpId` and `CmpVersion` (source 3, the version
    /// kept when this identity has one).
    func completed(by tcString: TCString) -> CMPIdentity {
        CMPIdentity.resolve(configuredID: id, configuredVersion: version, tcString: tcString)
    }
}
