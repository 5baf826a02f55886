import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// `ConsentExpiryPolicy.quietPeriodAfterRejection`: after a refusal of everything, the rules that would ask again are
/// held back for the period; nothing changes without the period or for consent that is not a refusal.
@Suite struct ConsentQuietPeriodTests {
    static let day: TimeInterval = 86_400
    static let savedAt = Date(timeIntervalSince1970: 1_790_000_000)
    static let onlyLegitimateInterest = TestStrings.make(legitimateInterests: [2])
    static let onlyPublisherConsent: String = {
        var model = (try? TCString(decoding: TestStrings.rejectAll))!
        model.publisherTC = PublisherTC(
            purposeConsents: [1], purposeLegitimateInterests: [], numberOfCustomPurposes: 0,
            customPurposeConsents: [], customPurposeLegitimateInterests: [])
        return (try? model.encoded()) ?? "encoding-failed"
    }()

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var tcString: String?
        var gppString: String? = nil
        var provenance = ConsentProvenance(.cmpPage, .userChoice)
        var configVersion: String? = nil
        var age: TimeInterval
        var quietPeriod: TimeInterval?
        var expected: ConsentRenewalReason?
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "off by default: a refusal past the configuration change is asked again",
            tcString: TestStrings.rejectAll, configVersion: "1", age: 10 * day, quietPeriod: nil,
            expected: .configurationChanged),
        Row(name: "a refusal within the period is not asked again after a configuration change",
            tcString: TestStrings.rejectAll, configVersion: "1", age: 10 * day, quietPeriod: 180 * day, expected: nil),
        Row(name: "a refusal after the period is asked again",
            tcString: TestStrings.rejectAll, configVersion: "1", age: 181 * day, quietPeriod: 180 * day,
            expected: .configurationChanged),
        Row(name: "a refusal too old for the maximum age but within a longer period is not asked again",
            tcString: TestStrings.rejectAll, configVersion: "2", age: 400 * day, quietPeriod: 420 * day,
            expected: nil),
        Row(name: "a refusal on the fallback page is not sent to the hosted page within the period",
            tcString: TestStrings.rejectAll, provenance: ConsentProvenance(.fallbackPage, .userChoice), configVersion: "2", age: day,
            quietPeriod: 180 * day, expected: nil),
        Row(name: "consent that grants something is asked again",
            tcString: TestStrings.analyticsOnly, configVersion: "1", age: 10 * day, quietPeriod: 180 * day,
            expected: .configurationChanged),
        Row(name: "a legitimate interest left standing is no refusal",
            tcString: onlyLegitimateInterest, configVersion: "1", age: 10 * day, quietPeriod: 180 * day,
            expected: .configurationChanged),
        Row(name: "a publisher purpose consent is no refusal",
            tcString: onlyPublisherConsent, configVersion: "1", age: 10 * day, quietPeriod: 180 * day,
            expected: .configurationChanged),
        Row(name: "the app's own reject-all is a refusal",
            tcString: TestStrings.rejectAll, provenance: ConsentProvenance(.app, .rejectAll), configVersion: "1", age: day,
            quietPeriod: 180 * day, expected: nil),
        Row(name: "GPP-only consent is never a refusal",
            tcString: nil, gppString: "DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", configVersion: "1",
            age: day, quietPeriod: 180 * day, expected: .configurationChanged),
        Row(name: "a policy version the TCF no longer accepts is renewed even within the period",
            tcString: TestStrings.make(policyVersion: 2), configVersion: "2", age: day, quietPeriod: 180 * day,
            expected: .policyVersionChanged),
    ]

    @Test(arguments: rows)
    func theQuietPeriodHoldsBackOnlyTheRenewalOfARefusal(_ row: Row) {
        var policy = ConsentExpiryPolicy(currentConfigVersion: "2")
        policy.quietPeriodAfterRejection = row.quietPeriod
        let record = ConsentRecord(
            strings: ConsentStrings(tcString: row.tcString, gppString: row.gppString), gdprApplies: true,
            configVersion: row.configVersion, savedAt: Self.savedAt, provenance: row.provenance)
        #expect(policy.renewalReason(for: record, now: Self.savedAt + row.age) == row.expected)
    }

    @Test func nothingStoredIsAlwaysAskedFor() {
        var policy = ConsentExpiryPolicy()
        policy.quietPeriodAfterRejection = 180 * Self.day
        #expect(policy.renewalReason(for: nil, now: Self.savedAt) == .noConsent)
    }

    @Test(arguments: [
        (TestStrings.rejectAll, true), (TestStrings.acceptAll, false), (TestStrings.analyticsOnly, false),
        (TestStrings.make(specialFeatures: [1]), false), (TestStrings.make(vendors: [2]), false),
        (onlyLegitimateInterest, false), (onlyPublisherConsent, false),
    ])
    func aRejectAllIsATCStringThatGrantsNothing(_ tcString: String, expected: Bool) throws {
        #expect(try TCString(decoding: tcString).isRejectAll == expected)
        #expect(try TCString(decoding: TestStrings.acceptAll).rejectingAll(at: Self.savedAt).isRejectAll)
    }
}
