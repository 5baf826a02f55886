@testable import IABInAppConsent

extension ConsentStore {
    /// A write as a CMP page's save (history: the CMP page, the user's choice), for tests about the keys
    /// and the record rather than the history. One file for both test targets: `Tests/WebCMPBridgeTests/Fakes/` links to it.
    func apply(_ keys: IABKeySet, record: ConsentRecord?) throws(ConsentStoreError) {
        try apply(checking: keys, record: record, provenance: ConsentProvenance(.testPage, .userChoice))
    }

    /// The same write of a commit's keys (the mapping's: not checked again).
    func apply(_ keys: MappedIABKeys, record: ConsentRecord?) throws(ConsentStoreError) {
        try apply(keys, record: record, provenance: ConsentProvenance(.testPage, .userChoice))
    }
}

extension ConsentProvenance.Source {
    /// A page's save in tests that link only the consent module: the raw value of the bridge's `.cmpPage` (an open
    /// value the bridge supplies), so that both test targets see the same history.
    static let testPage = Self(rawValue: "cmpPage")
}
