import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// When content web views send Global Privacy Control: the opt-out decision from the stored US strings (US Privacy,
/// usnat, state sections, applicable sections, no US data), the app's override, the keys fallback, and the script
/// and header the platform adapters apply.
@Suite struct GlobalPrivacyControlTests {
    // GPP strings of the IAB reference encoder (see USPrivacySignalsTests).
    /// usnat: SaleOptOut = SharingOptOut = TargetedAdvertisingOptOut = 1.
    static let usnatOptedOut = "DBABLA~CVVVkkkkkpFY.YA"
    /// usnat: SaleOptOut = SharingOptOut = TargetedAdvertisingOptOut = 2 (did not opt out).
    static let usnatDidNotOptOut = "DBABLA~BVQqAAAAAgA.QA"
    /// usnat at the defaults (0, not applicable) and usca with SaleOptOut = SharingOptOut = 1.
    static let uscaOptedOut = "DBACLY~CAAAAAAAAABA.QA~BVWSSSVY.YA"

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var strings: ConsentStrings
        var optedOut: Bool
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "no US data", strings: ConsentStrings(tcString: TestStrings.acceptAll), optedOut: false),
        Row(name: "nothing at all", strings: ConsentStrings(), optedOut: false),
        Row(name: "US Privacy opted out of sale", strings: ConsentStrings(usPrivacy: "1YYN"), optedOut: true),
        Row(name: "US Privacy opted out without notice", strings: ConsentStrings(usPrivacy: "1NYY"), optedOut: true),
        Row(name: "US Privacy did not opt out", strings: ConsentStrings(usPrivacy: "1YNN"), optedOut: false),
        Row(name: "US Privacy does not apply", strings: ConsentStrings(usPrivacy: "1---"), optedOut: false),
        Row(name: "US Privacy lower-case y is malformed", strings: ConsentStrings(usPrivacy: "1yyn"), optedOut: false),
        Row(name: "US Privacy of another version", strings: ConsentStrings(usPrivacy: "2YYN"), optedOut: false),
        Row(name: "US Privacy too long", strings: ConsentStrings(usPrivacy: "1YYNN"), optedOut: false),
        Row(name: "usnat opted out", strings: ConsentStrings(gppString: usnatOptedOut), optedOut: true),
        Row(name: "usnat did not opt out", strings: ConsentStrings(gppString: usnatDidNotOptOut), optedOut: false),
        Row(name: "usca (a state) opted out", strings: ConsentStrings(gppString: uscaOptedOut), optedOut: true),
        Row(name: "usca opted out but only usnat applies",
            strings: ConsentStrings(gppString: uscaOptedOut, gppApplicableSections: [7]), optedOut: false),
        Row(name: "usca opted out and applies",
            strings: ConsentStrings(gppString: uscaOptedOut, gppApplicableSections: [8]), optedOut: true),
        Row(name: "GPP without US sections", strings: ConsentStrings(gppString: "DBABTA~1YNN"), optedOut: false),
        Row(name: "unreadable GPP string", strings: ConsentStrings(gppString: "not a GPP string"), optedOut: false),
        Row(name: "GPP did not opt out, US Privacy did",
            strings: ConsentStrings(gppString: usnatDidNotOptOut, usPrivacy: "1YYN"), optedOut: true),
        Row(name: "GPP opted out, US Privacy did not",
            strings: ConsentStrings(gppString: usnatOptedOut, usPrivacy: "1YNN"), optedOut: true),
    ]

    @Test(arguments: rows)
    func optOutDecision(_ row: Row) {
        #expect(GlobalPrivacyControl.userOptedOutOfSaleOrSharing(row.strings) == row.optedOut)
        let record = ConsentRecord(strings: row.strings, savedAt: Date(timeIntervalSince1970: 1))
        #expect(GlobalPrivacyControl.automatic.isEnabled(record: record, keys: IABKeySet()) == row.optedOut)
        #expect(GlobalPrivacyControl.always.isEnabled(record: record, keys: IABKeySet()))
        #expect(!GlobalPrivacyControl.never.isEnabled(record: record, keys: IABKeySet()))
    }

    @Test func withoutARecordTheStoredUSKeysDecide() {
        var keys = IABKeySet()
        #expect(!GlobalPrivacyControl.automatic.isEnabled(record: nil, keys: keys))
        #expect(GlobalPrivacyControl.always.isEnabled(record: nil, keys: keys))
        keys["IABUSPrivacy_String"] = .string("1YYN")
        #expect(GlobalPrivacyControl.automatic.isEnabled(record: nil, keys: keys))
        keys["IABUSPrivacy_String"] = .string("1YNN")
        keys["IABGPP_HDR_GppString"] = .string(Self.uscaOptedOut)
        keys["IABGPP_GppSID"] = .string("7")
        #expect(!GlobalPrivacyControl.automatic.isEnabled(record: nil, keys: keys))
        keys["IABGPP_GppSID"] = .string("7_8")
        #expect(GlobalPrivacyControl.automatic.isEnabled(record: nil, keys: keys))
        keys["IABGPP_GppSID"] = .int(8)
        #expect(GlobalPrivacyControl.automatic.isEnabled(record: nil, keys: keys))
        // A record, when there is one, is the stored consent: keys it does not match are not read.
        let record = ConsentRecord(strings: ConsentStrings(usPrivacy: "1YNN"), savedAt: Date())
        #expect(!GlobalPrivacyControl.automatic.isEnabled(record: record, keys: keys))
    }

    @Test func sharingConfigurationDefaultsToAutomatic() {
        var configuration = SharingConfiguration(contentOrigins: ["https://news.example"])
        #expect(configuration.globalPrivacyControl == .automatic)
        configuration.globalPrivacyControl = .never
        #expect(configuration != SharingConfiguration(contentOrigins: ["https://news.example"]))
    }

    @Test func userScriptsAddTheAllFramesScriptOnlyWhenOn() {
        let optedOut = ConsentRecord(strings: ConsentStrings(usPrivacy: "1YYN"), savedAt: Date())
        let notOptedOut = ConsentRecord(strings: ConsentStrings(usPrivacy: "1YNN"), savedAt: Date())
        var configuration = SharingConfiguration(contentOrigins: ["https://news.example"])
        let gpc = ConsentSharing.globalPrivacyControlScript()
        #expect(!gpc.forMainFrameOnly)
        #expect(gpc.injectionTime == .documentStart)
        #expect(ConsentSharing.isSharingScript(gpc.source))

        let on = ConsentSharing.userScripts(record: optedOut, keys: IABKeySet(), configuration: configuration)
        #expect(on.count == 3)
        #expect(on.last == gpc)
        #expect(on.dropLast().map(\.forMainFrameOnly) == [true, true])
        #expect(!ConsentSharing.userScripts(record: notOptedOut, keys: IABKeySet(), configuration: configuration)
            .contains(gpc))
        configuration.globalPrivacyControl = .never
        #expect(!ConsentSharing.userScripts(record: optedOut, keys: IABKeySet(), configuration: configuration)
            .contains(gpc))
        configuration.globalPrivacyControl = .always
        #expect(ConsentSharing.userScripts(record: notOptedOut, keys: IABKeySet(), configuration: configuration)
            .contains(gpc))
        #expect(ConsentSharing.userScripts(record: nil, keys: IABKeySet(), configuration: configuration).contains(gpc))
    }

    @Test func requestHeadersCarrySecGPCOnlyWhenOn() {
        let optedOut = ConsentRecord(strings: ConsentStrings(gppString: Self.usnatOptedOut), savedAt: Date())
        #expect(ConsentSharing.requestHeaders(record: optedOut, keys: IABKeySet()) == ["Sec-GPC": "1"])
        #expect(ConsentSharing.requestHeaders(record: optedOut, keys: IABKeySet(), setting: .never) == [:])
        #expect(ConsentSharing.requestHeaders(record: nil, keys: IABKeySet()) == [:])
        #expect(ConsentSharing.requestHeaders(record: nil, keys: IABKeySet(), setting: .always) == ["Sec-GPC": "1"])
    }

    /// The property as the GPC IDL defines it, in Node with a stand-in `Navigator`.
    @Test func scriptDefinesAReadonlyAccessorOnNavigatorPrototype() throws {
        let source = ConsentSharing.globalPrivacyControlScript().source
        let output = try NodeRunner.run("""
            globalThis.window = globalThis;
            class Navigator {}
            Object.defineProperty(globalThis, 'Navigator', { value: Navigator, configurable: true, writable: true });
            Object.defineProperty(globalThis, 'navigator', { value: new Navigator(), configurable: true });
            const before = 'globalPrivacyControl' in navigator;
            \(source)
            const d = Object.getOwnPropertyDescriptor(Navigator.prototype, 'globalPrivacyControl');
            navigator.globalPrivacyControl = false;
            let strictThrows = false;
            try { (function () { 'use strict'; navigator.globalPrivacyControl = false; })(); } catch (e) { strictThrows = e instanceof TypeError; }
            let brandThrows = false;
            try { Navigator.prototype.globalPrivacyControl; } catch (e) { brandThrows = e instanceof TypeError; }
            process.stdout.write(JSON.stringify({
              before, value: navigator.globalPrivacyControl, own: Object.prototype.hasOwnProperty.call(navigator, 'globalPrivacyControl'),
              getter: typeof d.get, setter: d.set === undefined, enumerable: d.enumerable, configurable: d.configurable,
              strictThrows, brandThrows, keys: Object.keys(Navigator.prototype)
            }));
            """)
        let result = try JSONValue(parsing: output)
        #expect(result == .object([
            "before": .bool(false), "value": .bool(true), "own": .bool(false), "getter": .string("function"),
            "setter": .bool(true), "enumerable": .bool(true), "configurable": .bool(true), "strictThrows": .bool(true),
            "brandThrows": .bool(true), "keys": .array([.string("globalPrivacyControl")]),
        ]))
    }
}
