import Foundation

/// One change of stored consent, as the store keeps it on the device (``ConsentStore/consentHistory()``) and reports
/// it with the change (``ConsentChange/historyEntry``): the proof of consent a publisher keeps to demonstrate it (GDPR
/// Art. 7(1)).
///
/// It is written in the same storage write as the IAB keys and the record it describes, so the history never holds a
/// change that was not stored and every stored change is in it (see <doc:ProofOfConsent>).
///
/// Bound by the kit's promises over a session (WebCMPBridge's article "The kit's promises over a session", promise 5).
public struct ConsentHistoryEntry: Sendable, Hashable, Codable {
    /// What made the change.
    public enum Cause: String, Sendable, Hashable, Codable, CaseIterable {
        /// The user chose on the hosted CMP page (``ConsentHistoryEntry/pageURL``, ``ConsentHistoryEntry/dialect``).
        case cmpPage
        /// The user chose on the app's bundled fallback page (the hosted page could not be loaded).
        case fallbackPage
        /// The app rejected everything without a page (``ConsentStore/rejectAll(now:)``).
        case rejectAll
        /// The app withdrew consent without a page (``ConsentStore/withdrawConsent(now:)``).
        case withdrawal
        /// Adopted from the keys a previous CMP SDK left (migration).
        case migration
        /// Consent was removed (``ConsentStore/clearAll()``, a reset, a page that timed out with clearing enabled).
        case cleared
    }

    /// When the change was written.
    public var date: Date
    /// What made it.
    public var cause: Cause
    /// The CMP page's message dialect (`gravito`, `tcf`, …) for ``Cause/cmpPage`` and ``Cause/fallbackPage``.
    public var dialect: String?
    /// The hosted CMP page's URL as configured (without the query items the kit adds) for ``Cause/cmpPage`` and
    /// ``Cause/fallbackPage``.
    public var pageURL: String?
    /// The CMP SDK id written (`IABTCF_CmpSdkID`).
    public var cmpID: Int?
    /// The CMP SDK version written (`IABTCF_CmpSdkVersion`).
    public var cmpVersion: Int?
    /// The TC string written (`IABTCF_TCString`).
    public var tcString: String?
    /// The Additional Consent string written (`IABTCF_AddtlConsent`).
    public var additionalConsent: String?
    /// The GPP string written (`IABGPP_HDR_GppString`).
    public var gppString: String?
    /// The US Privacy string written (`IABUSPrivacy_String`).
    public var usPrivacy: String?
    /// `IABTCF_gdprApplies` as written (`nil`: unset).
    public var gdprApplies: Bool?

    /// Creates an entry.
    package init(
        date: Date, cause: Cause, dialect: String? = nil, pageURL: String? = nil, cmpID: Int? = nil,
        cmpVersion: Int? = nil, strings: ConsentStrings = ConsentStrings(), gdprApplies: Bool? = nil
    ) {
        self.date = date
        self.cause = cause
        self.dialect = dialect
        self.pageURL = pageURL
        self.cmpID = cmpID
        self.cmpVersion = cmpVersion
        tcString = strings.tcString
        additionalConsent = strings.additionalConsent
        gppString = strings.gppString
        usPrivacy = strings.usPrivacy
        self.gdprApplies = gdprApplies
    }
}

/// What a ``ConsentStore`` write is, for its ``ConsentHistoryEntry``: the cause and, for a page, which page.
package struct ConsentChangeContext: Sendable, Hashable {
    package var cause: ConsentHistoryEntry.Cause
    package var dialect: String?
    package var pageURL: String?

    package init(_ cause: ConsentHistoryEntry.Cause, dialect: String? = nil, pageURL: String? = nil) {
        self.cause = cause
        self.dialect = dialect
        self.pageURL = pageURL
    }
}
