/// Purpose, special feature and vendor ids an Onesecondbefore message lists next to its TC string (its `consent`
/// object, in ``OnesecondbeforeExtras``). Only compared with the TC string, never stored.
struct ClaimedChoices: Sendable, Hashable {
    /// Claimed purpose consents.
    var purposeConsents: IDSet?
    /// Claimed purpose legitimate interests.
    var purposeLegitimateInterests: IDSet?
    /// Claimed special feature opt-ins.
    var specialFeatureOptIns: IDSet?
    /// Claimed vendor consents.
    var vendorConsents: IDSet?
    /// Claimed vendor legitimate interests.
    var vendorLegitimateInterests: IDSet?

    /// Creates claimed choices.
    init(
        purposeConsents: IDSet? = nil, purposeLegitimateInterests: IDSet? = nil, specialFeatureOptIns: IDSet? = nil,
        vendorConsents: IDSet? = nil, vendorLegitimateInterests: IDSet? = nil
    ) {
        self.purposeConsents = purposeConsents
        self.purposeLegitimateInterests = purposeLegitimateInterests
        self.specialFeatureOptIns = specialFeatureOptIns
        self.vendorConsents = vendorConsents
        self.vendorLegitimateInterests = vendorLegitimateInterests
    }

    /// The names of the fields that disagree with `tcString`.
    func disagreements(with tcString: TCString) -> [String] {
        var fields: [String] = []
        if let purposeConsents, purposeConsents != tcString.purposeConsents { fields.append("purposes") }
        if let purposeLegitimateInterests, purposeLegitimateInterests != tcString.purposeLegitimateInterests {
            fields.append("legitimateInterests")
        }
        if let specialFeatureOptIns, specialFeatureOptIns != tcString.specialFeatureOptIns {
            fields.append("specialFeatures")
        }
        if let vendorConsents, vendorConsents != tcString.vendorConsents { fields.append("vendorConsents") }
        if let vendorLegitimateInterests, vendorLegitimateInterests != tcString.vendorLegitimateInterests {
            fields.append("vendorLegitimateInterests")
        }
        return fields
    }
}
