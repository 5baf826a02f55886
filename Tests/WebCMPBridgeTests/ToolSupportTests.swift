import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// What the package's tools take from the core instead of keeping copies: the JSON form of stored keys and the rule
/// that matches website data records to origins' hosts.
@Suite struct ToolSupportTests {
    @Test func keysAreOneJSONObjectOfNumbersAndStrings() {
        let keys = IABKeySet([.cmpSDKID: .int(300), .gdprApplies: .int(1), .tcString: .string("CQ"),
                              .purposeConsents: .string("101")])
        #expect(keys.json == .object([
            "IABTCF_CmpSdkID": .number(300), "IABTCF_gdprApplies": .number(1), "IABTCF_TCString": .string("CQ"),
            "IABTCF_PurposeConsents": .string("101"),
        ]))
        #expect(IABKeySet().json == .object([:]))
        #expect(IABValue.int(-2).json == .number(-2))
    }

    @Test func websiteDataRecordsMatchTheirHostsAndParentDomains() {
        let hosts = WebsiteDataClearing.hosts(of: ["https://CMP.example.com:8443", "https://consent.example.org", "nope"])
        #expect(hosts == ["cmp.example.com", "consent.example.org"])
        #expect(WebsiteDataClearing.record(named: "cmp.example.com", isFor: hosts))
        #expect(WebsiteDataClearing.record(named: "example.com", isFor: hosts))
        #expect(!WebsiteDataClearing.record(named: "other.example.com", isFor: hosts))
        #expect(!WebsiteDataClearing.record(named: "ample.com", isFor: hosts))
        #expect(!WebsiteDataClearing.record(named: "example.com", isFor: []))
    }
}
