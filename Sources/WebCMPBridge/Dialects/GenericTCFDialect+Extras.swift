extension GenericTCFDialect {
    /// What a TCF CMP's `TCData` carries beside the shared consent: the CMP id and version it reports (`cmpId`,
    /// `cmpVersion`), source 2 of ``CMPIdentity`` when the app configured no id. A message without `cmpId` has no
    /// extras (a version alone names no CMP).
    struct Extras: ConsentExtras {
        /// The reported `cmpId`.
        var cmpID: Int
        /// The reported `cmpVersion`.
        var cmpVersion: Int?

        /// The reported id and version.
        var reportedCMP: CMPIdentity? { CMPIdentity(id: cmpID, version: cmpVersion) }
    }
}
