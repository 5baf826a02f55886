@testable import IABInAppConsent

/// TC strings built with our encoder from explicit models, so each test states the choices it expects.
/// One file for both test targets: `Tests/WebCMPBridgeTests/Fakes/TestStrings.swift` is a symbolic link to it.
enum TestStrings {
    static func make(
        purposes: IDSet = [], vendors: IDSet = [], legitimateInterests: IDSet = [], specialFeatures: IDSet = [],
        restrictions: [PublisherRestriction] = [], policyVersion: Int = 5
    ) -> String {
        let model = TCString(
            createdDeciseconds: 17_500_000_000, lastUpdatedDeciseconds: 17_500_000_000, cmpID: 300, cmpVersion: 2,
            consentScreen: 1, consentLanguage: "EN", vendorListVersion: 150, policyVersion: policyVersion,
            specialFeatureOptIns: specialFeatures, purposeConsents: purposes,
            purposeLegitimateInterests: legitimateInterests, publisherCountryCode: "DE", vendorConsents: vendors,
            publisherRestrictions: restrictions, disclosedVendors: vendors
        )
        // A model built here is valid by construction; a failure is a bug in the encoder under test.
        return (try? model.encoded()) ?? "encoding-failed"
    }

    static let acceptAll = make(purposes: IDSet(1...11), vendors: [1, 2, 755, 1001], specialFeatures: [1, 2])
    static let rejectAll = make()
    static let analyticsOnly = make(purposes: [1, 8, 9], vendors: [2])
}
