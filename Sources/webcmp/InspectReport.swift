import Foundation
import WebCMPBridge

/// The readable part of `webcmp inspect`: every decoded field of a TC string.
enum InspectReport {
    static func lines(for tc: TCString, raw: String) -> [String] {
        var rows: [(String, String)] = [
            ("Version", String(tc.version)),
            ("Created", date(tc.created)),
            ("LastUpdated", date(tc.lastUpdated)),
            ("CmpId", String(tc.cmpID)),
            ("CmpVersion", String(tc.cmpVersion)),
            ("ConsentScreen", String(tc.consentScreen)),
            ("ConsentLanguage", tc.consentLanguage),
            ("VendorListVersion", String(tc.vendorListVersion)),
            ("TcfPolicyVersion", String(tc.policyVersion)),
            ("IsServiceSpecific", flag(tc.isServiceSpecific)),
            ("UseNonStandardTexts", flag(tc.useNonStandardTexts)),
            ("SpecialFeatureOptIns", ids(tc.specialFeatureOptIns)),
            ("PurposesConsent", ids(tc.purposeConsents)),
            ("PurposesLITransparency", ids(tc.purposeLegitimateInterests)),
            ("PurposeOneTreatment", flag(tc.purposeOneTreatment)),
            ("PublisherCC", tc.publisherCountryCode),
            ("VendorConsents", ids(tc.vendorConsents)),
            ("VendorLegitimateInterests", ids(tc.vendorLegitimateInterests)),
        ]
        if tc.publisherRestrictions.isEmpty { rows.append(("PublisherRestrictions", "none")) }
        for restriction in tc.publisherRestrictions {
            rows.append((
                "PublisherRestriction",
                "purpose \(restriction.purposeID), type \(restriction.restrictionType.rawValue) "
                    + "(\(restriction.restrictionType)), vendors \(ids(restriction.vendors))"
            ))
        }
        rows.append(("DisclosedVendors", tc.disclosedVendors.map(ids) ?? "segment absent"))
        rows.append(("AllowedVendors", tc.allowedVendors.map(ids) ?? "segment absent"))
        if let publisher = tc.publisherTC {
            rows += [
                ("PubPurposesConsent", ids(publisher.purposeConsents)),
                ("PubPurposesLITransparency", ids(publisher.purposeLegitimateInterests)),
                ("NumCustomPurposes", String(publisher.numberOfCustomPurposes)),
                ("CustomPurposesConsent", ids(publisher.customPurposeConsents)),
                ("CustomPurposesLITransparency", ids(publisher.customPurposeLegitimateInterests)),
            ]
        } else {
            rows.append(("PublisherTC", "segment absent"))
        }
        let width = rows.map(\.0.count).max() ?? 0
        return ["TC string (\(raw.utf8.count) characters):"]
            + rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
    }

    private static func flag(_ value: Bool) -> String { value ? "1" : "0" }

    private static func date(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Ids as compact ranges: `1-3, 7 (4 ids)`.
    static func ids(_ set: IDSet) -> String {
        guard !set.isEmpty else { return "none" }
        var parts: [String] = []
        var start = -1
        var previous = -1
        for id in set {
            if id == previous + 1 { previous = id; continue }
            if start > 0 { parts.append(start == previous ? "\(start)" : "\(start)-\(previous)") }
            start = id
            previous = id
        }
        parts.append(start == previous ? "\(start)" : "\(start)-\(previous)")
        return parts.joined(separator: ", ") + " (\(set.count) id\(set.count == 1 ? "" : "s"))"
    }
}
