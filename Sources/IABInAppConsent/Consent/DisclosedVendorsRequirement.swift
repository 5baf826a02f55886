import Foundation

/// TCF 2.3's rule that a TC string carries the DisclosedVendors segment, and when it applies.
///
/// **The rule.** IAB Tech Lab, "Transparency and Consent String with Global Vendor & CMP List Formats",
/// `TCFv2/IAB Tech Lab - Consent string and vendor list formats v2.md` in
/// <https://github.com/InteractiveAdvertisingBureau/GDPR-Transparency-and-Consent-Framework> (read at commit
/// `10b489e`, 2026-02-26): section "TC String Format" — "A TC String must contain a Core TC String and the Disclosed
/// Vendors segment. It may optionally contain a Publisher TC segment"; section "Disclosed Vendors" — "This is a
/// mandatory segment."; section "Why was the disclosed vendor section made mandatory in TCF 2.3?"; version history
/// "Apr 2025 | 2.3". `TCFv2/TCF-Implementation-Guidelines.md`, "What changed in v2.3?", says the same. Before 2.3 the
/// segment was optional and "must not be included in the TC String when returned" by the CMP API (the same document
/// before commit `c2a28ab`, 2025-03-31), so a page that returns a string without it was right until 2.3.
///
/// **Which strings.** The specification names no date and no policy version, so the kit reads it this way (the most
/// defensible reading; it is an interpretation, not IAB text):
/// - The date is IAB Europe's deadline for TCF 2.3, **28 February 2026**: from then on every TC string a CMP creates
///   must carry the segment. The date is not in the Tech Lab repository; it is IAB Europe's announced deadline, as
///   CMP vendors publish it (e.g. consentmanager's "IAB TCF v2.3 explained", CookieYes' "IAB TCF v2.3: What
///   Publishers Must Do by February 2026").
/// - A string is judged by its `Created` field (the spec: since December 2021 `Created` = `LastUpdated` = the day of
///   the last update, so a CMP that writes a string writes that day): created on or after
///   2026-02-28T00:00:00Z (``TCString/disclosedVendorsRequiredSince``) → required. A string created before is
///   exempt: it was made under the old rule, and a stored string a page merely returns keeps its date.
///   ``ConsentStore/rejectAll(now:)`` (the kit's own reject/withdraw) keeps `Created`, so it never turns an old string
///   into a new one.
/// - The policy version does not decide it: TCF 2.3 did not change it (IAB GDPR-Transparency-and-Consent-Framework
///   issue #423), and policy version 5 has been in global vendor lists since mid-2024 (vendor list versions 62/63,
///   prebid/prebid-server issue #3828), long before TCF 2.3, so 2.2-style strings carry 5 as well.
/// - A segment that is present but lists no vendor counts as present: the kit cannot know, without the vendor list,
///   which vendors the CMP showed.
/// - Only the TC string itself (`IABTCF_TCString`) is judged; a TCF EU section inside a GPP string is not.
///
/// **What the kit does.** By default (``MissingDisclosedVendorsPolicy/warn``) the consent is still stored and a
/// diagnostic names the rule: refusing it would leave the user's choice unrecorded, the app without any consent, and
/// the user asked again by a page that cannot produce anything else. ``MissingDisclosedVendorsPolicy/refuse`` makes it
/// an error for teams that want to enforce TCF 2.3 (`ConsentBridgeError` with the code `missingDisclosedVendors`);
/// nothing is then written.
public enum MissingDisclosedVendorsPolicy: String, Sendable, Hashable, CaseIterable {
    /// Store the consent and report a diagnostic naming the rule (the default).
    case warn
    /// Refuse the consent: nothing is stored, and the save fails with
    /// `ConsentBridgeError` with the code `missingDisclosedVendors`.
    case refuse
}

extension TCString {
    /// 2026-02-28T00:00:00Z: TC strings created on or after this instant must carry the DisclosedVendors segment
    /// (TCF 2.3; see ``MissingDisclosedVendorsPolicy`` for the source and the reading).
    public static let disclosedVendorsRequiredSince = Date(timeIntervalSince1970: 1_772_236_800)

    /// Whether TCF 2.3 requires this string to carry the DisclosedVendors segment: it was created on or after
    /// ``disclosedVendorsRequiredSince``. The policy version plays no part (see ``MissingDisclosedVendorsPolicy``).
    public var requiresDisclosedVendors: Bool {
        created >= Self.disclosedVendorsRequiredSince
    }

    /// Whether this string breaks TCF 2.3's rule: it ``requiresDisclosedVendors`` and has no DisclosedVendors
    /// segment.
    public var isMissingRequiredDisclosedVendors: Bool {
        disclosedVendors == nil && requiresDisclosedVendors
    }
}

/// The texts that name the rule, shared by the diagnostic, the errors and the tools.
package enum DisclosedVendorsRule {
    /// The rule in one sentence, with its source.
    static let statement = "TCF 2.3 requires the DisclosedVendors segment in every TC string created on or after "
        + "2026-02-28 (IAB Tech Lab, Consent string and vendor list formats v2, \"TC String Format\")"

    /// `created` as a UTC day, e.g. `2026-03-02`.
    static func day(_ created: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: created)
    }

    /// What is wrong with a string created at `created`.
    package static func finding(created: Date) -> String {
        "the TC string (created \(day(created))) has no DisclosedVendors segment; " + statement
    }

    /// The diagnostic reported when the consent is stored anyway.
    static func diagnostic(created: Date) -> String {
        finding(created: created) + "; the consent was stored (missingDisclosedVendors policy: warn)"
    }
}
