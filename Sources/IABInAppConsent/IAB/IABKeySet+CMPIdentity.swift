extension IABKeySet {
    /// The CMP SDK id and version these keys carry (`IABTCF_CmpSdkID`, `IABTCF_CmpSdkVersion`).
    package var cmpIdentity: CMPIdentity {
        var identity = CMPIdentity()
        if case .int(let id)? = self[.cmpSDKID] { identity.id = id }
        if case .int(let version)? = self[.cmpSDKVersion] { identity.version = version }
        return identity
    }
}
