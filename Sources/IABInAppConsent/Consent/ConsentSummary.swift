import Foundation

/// What the user chose, as the app reads it after a save: the stored ``ConsentRecord`` and its decoded TC string (the
/// truth for purposes and vendors).
///
/// It is layered on the record, never built beside it: the core's consent transaction (`ConsentCommit`) makes the
/// record and wraps it with the one decoding of its TC string, so the summary's strings, dates and source are the
/// stored record's by construction.
/// Apps get it from `ConsentBridgeEvent.consentReady(_:)` and ``ConsentStore/rejectAll(now:)``; what the store holds
/// later reads back as the record alone (``ConsentStore/record(includingNonTCFData:)``).
public struct ConsentSummary: Sendable, Hashable {
    /// The consent as stored, with every fact the CMP reported (non-TCF data, expiry, configuration version …).
    public var record: ConsentRecord
    /// The decoding of the record's TC string; `nil` when it has none.
    public var decoded: TCString?

    /// Creates a summary of `record`; `decoded` must be the decoding of `record.tcString`.
    public init(record: ConsentRecord, decoded: TCString?) {
        self.record = record
        self.decoded = decoded
    }

    /// The consent strings.
    public var strings: ConsentStrings { record.strings }
    /// Whether GDPR applies, as written to `IABTCF_gdprApplies`.
    public var gdprApplies: Bool? { record.gdprApplies }
    /// When the CMP says the consent expires.
    public var expirationDate: Date? { record.expirationDate }
    /// When the user gave it.
    public var savedAt: Date { record.savedAt }
    /// Where it came from and whether the user chose it (``ConsentProvenance/Action/noChoiceWhileUIShown``: the CMP's
    /// default signal, stored while its UI was on screen, is in force but is not the user's answer).
    public var provenance: ConsentProvenance { record.provenance }
    /// Who produced it.
    public var source: ConsentProvenance.Source { record.source }
    /// The TC string, when the CMP produced one.
    public var tcString: String? { record.tcString }
    /// The GPP string, when the CMP produced one.
    public var gppString: String? { record.gppString }
    /// Purposes with consent.
    public var purposeConsents: IDSet { decoded?.purposeConsents ?? [] }
    /// Purposes with legitimate interest.
    public var purposeLegitimateInterests: IDSet { decoded?.purposeLegitimateInterests ?? [] }
    /// Special features opted in.
    public var specialFeatureOptIns: IDSet { decoded?.specialFeatureOptIns ?? [] }
    /// Vendors with consent.
    public var vendorConsents: IDSet { decoded?.vendorConsents ?? [] }
    /// Vendors with legitimate interest.
    public var vendorLegitimateInterests: IDSet { decoded?.vendorLegitimateInterests ?? [] }

    /// Google Consent Mode v2 signals, when there is a TC string.
    public var googleConsentMode: GoogleConsentMode? {
        decoded.map { GoogleConsentMode(tcString: $0, gdprApplies: gdprApplies) }
    }
}
