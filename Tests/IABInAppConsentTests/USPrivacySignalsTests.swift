import Testing
@testable import IABInAppConsent

/// ``USPrivacySignals`` from GPP strings of the IAB reference encoder (IABTechLab/iabgpp-es `fd0546e`, files under
/// `modules/cmpapi/test`; each string is asserted there as the encoder's output).
@Suite struct USPrivacySignalsTests {
    @Test func usnatOptedOutOfEverythingWithGPC() throws {
        // UsNat.test.ts:11: SaleOptOut, SharingOptOut, TargetedAdvertisingOptOut = 1, Gpc = true.
        let signals = try USPrivacySignals(gppString: "DBABLA~CVVVkkkkkpFY.YA")
        #expect(signals.sections == [
            .init(id: 7, apiName: "usnat", saleOptOut: 1, sharingOptOut: 1, targetedAdvertisingOptOut: 1, gpc: true),
        ])
        #expect(signals.isSaleOptedOut)
        #expect(signals.isSharingOptedOut)
        #expect(signals.isTargetedAdvertisingOptedOut)
        #expect(signals.isGPCSet)
    }

    @Test func defaultsAreNotApplicableAndGPCFalse() throws {
        // GppModel.test.ts:125: every section at the encoder's defaults.
        let signals = try USPrivacySignals(gppString: GPPUSSectionTests.allSectionsDefaults)
        #expect(signals.sections.map(\.id) == Array(7...27))
        #expect(!signals.isSaleOptedOut && !signals.isSharingOptedOut && !signals.isTargetedAdvertisingOptedOut)
        #expect(!signals.isGPCSet)
        let usca = try #require(signals.sections.first { $0.apiName == "usca" })
        #expect(usca.saleOptOut == 0 && usca.sharingOptOut == 0)
        #expect(usca.targetedAdvertisingOptOut == nil, "usca has no TargetedAdvertisingOptOut field")
        let usva = try #require(signals.sections.first { $0.apiName == "usva" })
        #expect(usva.sharingOptOut == nil && usva.gpc == nil && usva.targetedAdvertisingOptOut == 0)
        #expect(signals.sections.first { $0.apiName == "usnat" }?.gpc == false)
    }

    @Test func anySectionSayingOneCounts() throws {
        // Header for sections 7 and 8 (usnat, usca; built from the header rules), usnat at the encoder's defaults
        // (UsNat.test.ts:6) and usca from UsCa.test.ts:11 (SaleOptOut = SharingOptOut = 1, Gpc = true).
        let gpp = "DBACLY~CAAAAAAAAABA.QA~BVWSSSVY.YA"
        let signals = try USPrivacySignals(gppString: gpp)
        #expect(signals.sections.map(\.apiName) == ["usnat", "usca"])
        #expect(signals.isSaleOptedOut && signals.isSharingOptedOut && signals.isGPCSet)
        #expect(!signals.isTargetedAdvertisingOptedOut)
        // Only the sections the CMP reports as applicable.
        let usnatOnly = try USPrivacySignals(gppString: gpp, applicableSections: [7])
        #expect(usnatOnly.sections.map(\.id) == [7])
        #expect(!usnatOnly.isSaleOptedOut && !usnatOnly.isGPCSet)
    }

    @Test func didNotOptOutIsNotOptedOut() throws {
        // GppModel.test.ts:820 "DBABLA~BVQqAAAAAgA.QA": a usnat string decoded by the reference (values not asserted
        // there); read bit by bit: SaleOptOut, SharingOptOut and TargetedAdvertisingOptOut are all 2.
        let signals = try USPrivacySignals(gppString: "DBABLA~BVQqAAAAAgA.QA")
        let usnat = try #require(signals.sections.first)
        #expect(usnat.saleOptOut == 2 && usnat.sharingOptOut == 2 && usnat.targetedAdvertisingOptOut == 2)
        #expect(!signals.isSaleOptedOut && !signals.isSharingOptedOut && !signals.isTargetedAdvertisingOptedOut)
    }

    @Test func withoutUSSectionsThereAreNoSections() throws {
        #expect(try USPrivacySignals(gppString: "DBABTA~1YNN").sections.isEmpty)
    }

    @Test func badStringsThrowTheMappingErrors() {
        #expect(throws: IABMappingError.invalidGPPUSSection(.unsupportedVersion(section: 7, version: 3))) {
            try USPrivacySignals(gppStringPrecisely: "DBABLA~DAAAAAAAAABA")
        }
        #expect(throws: IABMappingError.self) { try USPrivacySignals(gppStringPrecisely: "not a GPP string") }
        let error = #expect(throws: IABConsentError.self) { try USPrivacySignals(gppString: "DBABLA~DAAAAAAAAABA") }
        #expect(error?.code == .invalidGPPString)
        #expect(error?.underlying as? GPPUSSectionError == .unsupportedVersion(section: 7, version: 3))
    }
}
