import Foundation

extension TCString {
    /// This string with every choice of the user withdrawn, last updated at `now`: what the CMP would produce for
    /// "Reject all" on the same vendor list.
    ///
    /// Cleared: `PurposesConsent`, `PurposesLITransparency` (the user objects to every legitimate interest),
    /// `SpecialFeatureOptIns`, the vendor consent and vendor legitimate interest sections, and in the PublisherTC
    /// segment `PubPurposesConsent`, `PubPurposesLITransparency` and the custom purposes' consent and legitimate
    /// interest. `LastUpdated` becomes `now`, rounded down to the UTC day as CMPs write it (the TCF asks for day
    /// granularity). Kept: `Created`, `CmpId`, `CmpVersion`, `ConsentScreen`, `ConsentLanguage`,
    /// `VendorListVersion`, `TcfPolicyVersion`, `PublisherCC`, the publisher restrictions (the publisher's settings,
    /// not the user's choices) and the DisclosedVendors segment (the vendors were still disclosed).
    func rejectingAll(at now: Date) -> TCString {
        var rejected = self
        rejected.lastUpdatedDeciseconds = Self.dayDeciseconds(now)
        rejected.purposeConsents = []
        rejected.purposeLegitimateInterests = []
        rejected.specialFeatureOptIns = []
        rejected.vendorConsents = []
        rejected.vendorLegitimateInterests = []
        if var publisher = rejected.publisherTC {
            publisher.purposeConsents = []
            publisher.purposeLegitimateInterests = []
            publisher.customPurposeConsents = []
            publisher.customPurposeLegitimateInterests = []
            rejected.publisherTC = publisher
        }
        return rejected
    }

    /// Whether the user refused everything: no purpose consent or legitimate interest, no special feature opt-in, no
    /// vendor consent or legitimate interest, and in the PublisherTC segment (when present) no publisher or custom
    /// purpose consent or legitimate interest — what ``rejectingAll(at:)`` produces and what a CMP's "Reject all"
    /// stores. (Which vendors were disclosed and the publisher restrictions do not matter.)
    package var isRejectAll: Bool {
        guard purposeConsents.isEmpty, purposeLegitimateInterests.isEmpty, specialFeatureOptIns.isEmpty,
            vendorConsents.isEmpty, vendorLegitimateInterests.isEmpty
        else { return false }
        guard let publisherTC else { return true }
        return publisherTC.purposeConsents.isEmpty && publisherTC.purposeLegitimateInterests.isEmpty
            && publisherTC.customPurposeConsents.isEmpty && publisherTC.customPurposeLegitimateInterests.isEmpty
    }

    /// Epoch deciseconds of the start of `date`'s UTC day.
    static func dayDeciseconds(_ date: Date) -> Int64 {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        return (seconds - seconds % 86_400) * 10
    }
}
