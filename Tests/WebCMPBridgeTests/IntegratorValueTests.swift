// Configuration values and decoded strings as an app uses them: plain `import WebCMPBridge`, no `@testable` (see
// IntegratorFlowTests.swift).
import Foundation
import Testing
import WebCMPBridge

@Suite struct IntegratorValueTests {
    @Test func everyConfigurationKnob() throws {
        var configuration = BridgeConfiguration(
            cmpURL: URL(string: "https://cmp.example.com/app.html?platform=ios")!, dialect: .onesecondbefore,
            allowedOrigins: nil, readyTimeout: 20, clearsConsentOnTimeout: true, language: "nl",
            languageQueryItemName: "locale", additionalQueryItems: [URLQueryItem(name: "user", value: "42")],
            cmpSDKID: 300, cmpSDKVersion: 2, gdprApplies: nil,
            expiry: ConsentExpiryPolicy(maximumAge: 180 * 86_400, currentConfigVersion: "7", minimumPolicyVersion: 5),
            tracking: .afterConsent(marketingPurposes: [3, 4]), interactiveDismissal: .always)
        #expect(configuration.resolvedURL.absoluteString
            == "https://cmp.example.com/app.html?platform=ios&locale=nl&user=42")
        #expect(configuration.allowedOrigins == ["https://cmp.example.com"])
        configuration.allowedOrigins.insert("https://consent.example.com")
        #expect(configuration.allowedOrigins.count == 2)
        #expect(configuration.readyTimeout == 20 && configuration.clearsConsentOnTimeout)
        #expect(configuration.languageQueryItemName == "locale")
        #expect(configuration.additionalQueryItems.count == 1)
        #expect(configuration.cmpSDKVersion == 2 && configuration.gdprApplies == nil)
        #expect(configuration.expiry.maximumAge == 180 * 86_400)
        #expect(configuration.expiry.minimumPolicyVersion == 5 && configuration.expiry.retriesHostedPage)
        #expect(configuration.tracking == .afterConsent(marketingPurposes: [3, 4]))
        #expect(configuration.tracking != .afterConsent())
        #expect(configuration.interactiveDismissal == .always)
        #expect(InteractiveDismissal.allCases == [.afterChoice, .always, .never])
        configuration.finishDelay = 1
        configuration.externalLinks = .block
        configuration.settingsAttemptTimeout = 5
        configuration.migration = ConsentMigration(isEnabled: false)
        #expect(configuration.migration == .disabled && ConsentMigration() == .default)
        #expect(!ConsentMigration.disabled.isEnabled)
        #expect(configuration.finishDelay == 1 && configuration.externalLinks == .block)
        #expect(configuration.settingsAttemptTimeout == 5)
        #expect(configuration.missingDisclosedVendors == .warn)
    }

    @Test func privacySettingsOpeners() {
        #expect(PrivacySettingsOpener.default(for: .gravito).queryItems == [PrivacySettingsOpener.layerQueryItem])
        #expect(PrivacySettingsOpener.default(for: .tcf) == .automatic)
        #expect(PrivacySettingsOpener.automatic.call == .tcfDisplayConsentUI)
        #expect(PrivacySettingsOpener.automatic.triesPresets)
        #expect(PrivacySettingsCall.presets
            == [.didomi, .cookiebot, .osano, .complianz, .cookieYes, .klaro, .cookieConsent, .tarteaucitron])
        #expect(PrivacySettingsCall.googleFundingChoices.path == ["googlefc", "showRevocationMessage"])
        #expect(PrivacySettingsOpener.consentmanager.queryItems == [URLQueryItem(name: "cmpscreen", value: nil)])
        let sourcepoint = PrivacySettingsCall.sourcepoint(privacyManagerID: 12345)
        #expect(sourcepoint.path == ["_sp_", "gdpr", "loadPrivacyManagerModal"])
        #expect(sourcepoint.arguments == [.number(12345)])
        let call = PrivacySettingsCall(
            "UC_UI.showSecondLayer", arguments: [.string("settings")], appendsCallback: false, name: "Usercentrics")
        #expect(call.path == ["UC_UI", "showSecondLayer"] && call.name == "Usercentrics" && !call.appendsCallback)
        #expect(PrivacySettingsCall.tcfDisplayConsentUI.appendsCallback)
        let opener = PrivacySettingsOpener(
            url: URL(string: "https://consent.example.com/settings.html")!, queryItems: [], call: call,
            triesPresets: true)
        var configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .tcf)
        configuration.mode = .settings
        configuration.privacySettings = opener
        #expect(configuration.resolvedURL == opener.url)
        #expect(configuration.allowedOrigins == ["https://cmp.example.com", "https://consent.example.com"])
    }

    @Test func dialectsByName() throws {
        #expect(CMPDialect.allCases == [.gravito, .onesecondbefore, .tcf])
        #expect(CMPDialect(rawValue: "gravito") == .gravito)
        #expect(CMPDialect(rawValue: "usercentrics") == nil)
        #expect(CMPDialect.onesecondbefore.rawValue == "onesecondbefore")
        #expect(CMPDialect.tcf.description == "tcf")
        let data = try JSONEncoder().encode([CMPDialect.gravito])
        #expect(try JSONDecoder().decode([CMPDialect].self, from: data) == [.gravito])
    }

    @Test func decodingATCStringYourself() throws {
        let tc = try TCString(decoding: IntegratorStrings.acceptAll)
        #expect(tc.version == 2 && tc.cmpID == 300 && tc.cmpVersion == 2 && tc.consentScreen == 1)
        #expect(tc.consentLanguage == "DE" && tc.publisherCountryCode == "DE")
        #expect(tc.vendorListVersion == 150 && tc.policyVersion == 5)
        #expect(tc.isServiceSpecific && !tc.useNonStandardTexts && !tc.purposeOneTreatment)
        #expect(tc.createdDeciseconds == 17_724_096_000 && tc.lastUpdatedDeciseconds == 17_724_096_000)
        #expect(tc.created == Date(timeIntervalSince1970: 1_772_409_600) && tc.lastUpdated == tc.created)
        #expect(tc.purposeConsents == IDSet(1...11))
        #expect(tc.purposeLegitimateInterests == [2, 7, 8, 9, 10, 11])
        #expect(tc.specialFeatureOptIns == [1, 2])
        #expect(tc.vendorConsents.contains(755) && tc.vendorLegitimateInterests == [755])
        #expect(tc.disclosedVendors == [1, 2, 755, 1001])
        #expect(tc.allowedVendors == nil)
        // Its publisher restrictions and PublisherTC segment reach apps as IAB keys (IntegratorStoreTests).
        // TCF 2.3: strings created from 2026-02-28 must carry the DisclosedVendors segment.
        #expect(TCString.disclosedVendorsRequiredSince == Date(timeIntervalSince1970: 1_772_236_800))
        #expect(tc.requiresDisclosedVendors && !tc.isMissingRequiredDisclosedVendors)
        #expect(try TCString(decoding: IntegratorStrings.withoutDisclosedVendors).isMissingRequiredDisclosedVendors)

        let empty = #expect(throws: IABConsentError.self) { try TCString(decoding: "") }
        #expect(empty?.code == .invalidTCString)
        do {
            _ = try TCString(decoding: "!!")
            Issue.record("decoded")
        } catch {
            #expect(error.code == .invalidTCString)
            #expect(error.description.hasPrefix("The TC string is invalid: invalid base64url character"))
        }
    }

    @Test func idSets() throws {
        var ids: IDSet = [3, 1, 2]
        #expect(ids.sorted == [1, 2, 3] && ids.count == 3 && ids.max == 3 && !ids.isEmpty)
        ids.insert(10)
        ids.insert(contentsOf: 20...22)
        ids.remove(2)
        #expect(Array(ids) == [1, 3, 10, 20, 21, 22])
        #expect(ids.contains(21) && !ids.contains(2))
        #expect(IDSet().isEmpty && IDSet([5, 0, 70_000]) == [5])
        #expect(ids.description == "[1, 3, 10, 20, 21, 22]")
        #expect(ids.underestimatedCount == 6)
        #expect(try JSONDecoder().decode(IDSet.self, from: JSONEncoder().encode(ids)) == ids)
    }

    @Test func additionalConsentGPPAndUSSignals() throws {
        let ac = try AdditionalConsent(parsing: "2~1.35.41~dv.9.21")
        #expect(ac.rawValue == "2~1.35.41~dv.9.21" && ac.version == 2)
        #expect(ac.consentedProviders == [1, 35, 41] && ac.disclosedProviders == [9, 21])
        #expect(throws: IABConsentError.self) { try AdditionalConsent(parsing: "3~1") }

        let gpp = try GPPString(parsing: "DBACNY~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA~1YNN")
        #expect(gpp.rawValue.hasPrefix("DBACNY~") && gpp.version == 1 && gpp.sectionIDs == [2, 6])
        #expect(gpp.section(6) == "1YNN" && gpp.section(7) == nil)
        let tcfSection = try TCString(decoding: "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA")
        #expect(try gpp.tcfEUSection() == tcfSection)
        do {
            _ = try GPPString(parsing: "")
            Issue.record("parsed")
        } catch {
            #expect(!error.description.isEmpty)
        }

        let signals = try USPrivacySignals(gppString: IntegratorStrings.usnatOptedOut, applicableSections: [7])
        #expect(signals.isSaleOptedOut && signals.isSharingOptedOut && signals.isTargetedAdvertisingOptedOut)
        #expect(signals.isGPCSet)
        #expect(try USPrivacySignals(gppString: IntegratorStrings.usnatOptedOut, applicableSections: [8]) != signals)
        #expect(signals.isSaleOptedOut && signals.isSharingOptedOut && signals.isTargetedAdvertisingOptedOut)
        #expect(signals.isGPCSet)
        do {
            _ = try USPrivacySignals(gppString: "not gpp")
            Issue.record("read")
        } catch {
            #expect(error.code == .invalidGPPString)
            #expect(error.description.hasPrefix("The GPP string is invalid:"))
        }

        // The same signals from a summary an app receives in `.consentReady` (built here as a test double).
        let summary = ConsentSummary(
            record: ConsentRecord(
                strings: ConsentStrings(gppString: IntegratorStrings.usnatOptedOut, gppApplicableSections: [7]),
                gdprApplies: false, savedAt: Date(), provenance: ConsentProvenance(.cmpPage, .userChoice)),
            decoded: nil)
        #expect(summary.usPrivacySignals == signals)
        #expect(summary.googleConsentMode == nil && summary.purposeConsents.isEmpty)
    }

    @Test func consentStringsAndRecords() {
        var strings = ConsentStrings(
            tcString: "", additionalConsent: "1~1", gppString: nil, gppApplicableSections: nil, usPrivacy: "1YNN")
        #expect(strings.tcString == nil && !strings.isEmpty, "\"\" is no string; a US Privacy string is consent")
        strings.usPrivacy = ""
        #expect(strings.isEmpty && strings.additionalConsent == "1~1")
        let record = ConsentRecord(
            strings: ConsentStrings(
                tcString: IntegratorStrings.analyticsOnly, gppString: "DBABTA~1YNN", usPrivacy: "1YNN"),
            gdprApplies: true, nonTCFData: .object(["analytics": .bool(true), "tags": .array([.string("a")])]),
            expirationDate: Date(timeIntervalSince1970: 1_900_000_000), crossDomainUserID: "user-1", configVersion: "7",
            savedAt: Date(timeIntervalSince1970: 1_780_000_000),
            provenance: ConsentProvenance(.previousSDK, .adopted))
        #expect(record.tcString == IntegratorStrings.analyticsOnly && record.additionalConsent == nil)
        #expect(record.gppString == "DBABTA~1YNN" && record.usPrivacy == "1YNN" && record.gdprApplies == true)
        #expect(record.crossDomainUserID == "user-1" && record.configVersion == "7")
        #expect(record.expirationDate! > record.savedAt && record.source == .previousSDK)
        #expect(record.provenance.action == .adopted && ConsentProvenance.Source(rawValue: "cmpPage") == .cmpPage)
        #expect(ConsentProvenance.Action.allCases.filter(\.isReport) == [.reReport, .signalUpdate, .noChoiceWhileUIShown])
        // Gravito's non-TCF data as the app reads it.
        let data = record.nonTCFData
        #expect(data?["analytics"]?.boolValue == true)
        #expect(data?["tags"]?.arrayValue?.first?.stringValue == "a")
        #expect(data?.objectValue?.count == 2 && data?["missing"] == nil && data?["analytics"]?.numberValue == nil)
        #expect(ConsentChange(record: record).record == record)
    }

    @Test func theFallbackPageServesOnlyItsFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("cmp.js")
        try Data("window.cmp = 1".utf8).write(to: script)
        let page = try FallbackPage(
            scheme: "webcmp-fallback", host: "app", entry: "index.html",
            files: [
                "index.html": FallbackPage.File(contents: Data("<p>".utf8)),
                "cmp.js": try FallbackPage.File(contentsOf: script),
            ])
        #expect(page.scheme == "webcmp-fallback" && page.host == "app" && page.origin == "webcmp-fallback://app")
        #expect(page.files["/cmp.js"]?.mimeType == "text/javascript")
        #expect(page.files["/index.html"]?.contents == Data("<p>".utf8))
        // What the scheme handlers serve and refuse is the adapters' (FallbackPageTests).
        let invalid = #expect(throws: ConsentBridgeError.self) {
            try FallbackPage(scheme: "https", files: ["index.html": FallbackPage.File(contents: Data())])
        }
        #expect(invalid?.code == .webViewSetupFailed)
    }

    @Test func iabKeysAsAnAdSDKReadsThem() throws {
        let known: [(IABKey, String)] = [
            (.cmpSDKID, "IABTCF_CmpSdkID"), (.cmpSDKVersion, "IABTCF_CmpSdkVersion"),
            (.policyVersion, "IABTCF_PolicyVersion"), (.gdprApplies, "IABTCF_gdprApplies"),
            (.publisherCC, "IABTCF_PublisherCC"), (.purposeOneTreatment, "IABTCF_PurposeOneTreatment"),
            (.useNonStandardTexts, "IABTCF_UseNonStandardTexts"),
            (.useNonStandardStacks, "IABTCF_UseNonStandardStacks"),
            (.tcString, "IABTCF_TCString"), (.vendorConsents, "IABTCF_VendorConsents"),
            (.vendorLegitimateInterests, "IABTCF_VendorLegitimateInterests"),
            (.disclosedVendors, "IABTCF_DisclosedVendors"), (.purposeConsents, "IABTCF_PurposeConsents"),
            (.purposeLegitimateInterests, "IABTCF_PurposeLegitimateInterests"),
            (.specialFeatureOptIns, "IABTCF_SpecialFeaturesOptIns"), (.publisherConsent, "IABTCF_PublisherConsent"),
            (.publisherLegitimateInterests, "IABTCF_PublisherLegitimateInterests"),
            (.publisherCustomPurposesConsents, "IABTCF_PublisherCustomPurposesConsents"),
            (.publisherCustomPurposesLegitimateInterests, "IABTCF_PublisherCustomPurposesLegitimateInterests"),
            (.additionalConsent, "IABTCF_AddtlConsent"),
            (.publisherRestrictions(purpose: 2), "IABTCF_PublisherRestrictions2"),
            (.gppVersion, "IABGPP_HDR_Version"), (.gppSections, "IABGPP_HDR_Sections"),
            (.gppString, "IABGPP_HDR_GppString"), (.gppSID, "IABGPP_GppSID"), (.gppTCFEUTCString, "IABGPP_2_TCString"),
            (.gppSectionString(7), "IABGPP_7_String"), (.usPrivacyString, "IABUSPrivacy_String"),
        ]
        for (key, name) in known {
            #expect(key.rawValue == name && key.description == name && key == IABKey(rawValue: name))
        }
        let keys = IABKeySet([.tcString: .string("CQ…"), .gdprApplies: .int(1), "IABTCF_PolicyVersion": .int(5)])
        #expect(keys.count == 3 && !keys.isEmpty && keys[.gdprApplies] == .int(1))
        #expect(keys.values[.policyVersion] == .int(5))
        #expect(keys.map(\.key).sorted() == [.policyVersion, .tcString, .gdprApplies].sorted())
        #expect(keys.underestimatedCount == 3)
        var copy = keys
        copy[.gdprApplies] = nil
        #expect(copy != keys && copy.count == 2)
        #expect(IABValue.int(1).description == "1" && IABValue.string("a").description == "a")
        #expect(try JSONDecoder().decode(IABKey.self, from: JSONEncoder().encode(IABKey.tcString)) == .tcString)
        let code = IABConsentError.Code.invalidTCString
        #expect(try JSONDecoder().decode(IABConsentError.Code.self, from: JSONEncoder().encode(code)) == code)
        #expect(String(data: try JSONEncoder().encode(code), encoding: .utf8) == #""invalidTCString""#)
        #expect(IABConsentError.Code(rawValue: "storeRefused") == .storeRefused && code.description == "invalidTCString")
    }
}
