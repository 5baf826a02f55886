import Foundation

/// The bridge's sources of a previous SDK's consent, beside the IAB keys the consent module reads.
extension ConsentMigration.Source {
    /// Gravito's sample in-app integration: `tcstring`, `nontcfdata` (JSON text) and `acstring` in
    /// `UserDefaults.standard`.
    package static let gravitoSample = Self(
        name: "gravitoSample", keys: .own(tcString: "tcstring", nonTCFData: "nontcfdata", additionalConsent: "acstring"))

    /// What the bridge tries when the app's ``IABInAppConsent/ConsentMigration`` names no sources: the IAB in-app keys
    /// every TCF CMP SDK writes, then Gravito's sample in-app integration.
    package static let bridgeDefaults: [Self] = [.iabKeys, .gravitoSample]
}
