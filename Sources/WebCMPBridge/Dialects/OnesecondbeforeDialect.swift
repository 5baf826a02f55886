import Foundation

extension CMPDialect {
    /// Onesecondbefore: handler `osbCmpMessageHandler`, messages `{consent, cduid, expirationDate}`.
    public static let onesecondbefore = CMPDialect(registering: "onesecondbefore")
}

/// Onesecondbefore's in-app protocol: one message, the user's consent (`{consent: {tcString, purposes, …}, cduid,
/// expirationDate}`), which ends the UI. It has no ready message: when the app configured this dialect, the finished
/// main-frame load counts as ready. The arrays beside the TC string are compared with it, never stored.
struct OnesecondbeforeDialect: MessageDialect {
    init() {}

    var dialect: CMPDialect { .onesecondbefore }
    var handlerName: String { "osbCmpMessageHandler" }
    var finishedLoadIsReady: Bool { true }

    func decode(_ fields: MessageFields) throws(InboundMessageError) -> CMPMessage {
        guard let consent = try fields.object("consent") else { throw .missingField("consent") }
        guard let tcString = try consent.nonEmptyString("tcString") else { throw .missingField("consent.tcString") }
        var expiration: Date?
        if let milliseconds = try fields.number("expirationDate") {
            guard milliseconds >= 0, milliseconds < 32_503_680_000_000 else {
                throw .invalidField("expirationDate", expected: "milliseconds since 1970")
            }
            expiration = Date(timeIntervalSince1970: milliseconds / 1000)
        }
        let claimed = ClaimedChoices(
            purposeConsents: try consent.ids("purposes"),
            purposeLegitimateInterests: try consent.ids("legitimateInterests"),
            specialFeatureOptIns: try consent.ids("specialFeatures"),
            vendorConsents: try consent.ids("vendorConsents"),
            vendorLegitimateInterests: try consent.ids("vendorLegitimateInterests")
        )
        return .save(ConsentPayload(
            strings: ConsentStrings(tcString: tcString, additionalConsent: try consent.nonEmptyString("addtlConsent")),
            extras: Extras(
                expirationDate: expiration, crossDomainUserID: try fields.text("cduid"), claimedChoices: claimed)
        ))
    }
}
