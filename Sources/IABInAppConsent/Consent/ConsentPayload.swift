import Foundation

/// What a page's consent message carries, validated but not yet interpreted: the input of ``ConsentCommit``.
/// The TC string is the truth; the other choice arrays are kept only to report disagreements.
package struct ConsentPayload: Sendable, Hashable {
    /// Why this payload was produced.
    package enum Origin: String, Sendable, Hashable {
        /// The user acted in the CMP UI.
        case userAction
        /// The CMP loaded consent it already had without the user acting (generic TCF `tcloaded`, a GPP signal).
        case loaded
    }

    /// Why this payload was produced.
    package var origin: Origin
    /// The consent strings.
    package var strings: ConsentStrings
    /// The CMP's non-TCF data (Gravito `nontcfdata`), kept verbatim for re-injection.
    var nonTCFData: JSONValue?
    /// Whether GDPR applies, when the page says so (it wins over the configured value).
    package var gdprApplies: Bool?
    /// The CMP's configuration version (Gravito `configversion`).
    var configVersion: String?
    /// When the consent expires (Onesecondbefore `expirationDate`).
    var expirationDate: Date?
    /// Cross-domain user id (Onesecondbefore `cduid`).
    var crossDomainUserID: String?
    /// Whether the user rejected everything (Gravito `isRejectAll`).
    package var isRejectAll: Bool?
    /// The CMP id the page reported (generic TCF `cmpId`).
    var cmpID: Int?
    /// The CMP version the page reported (generic TCF `cmpVersion`).
    var cmpVersion: Int?
    /// The choices the payload claims besides the TC string, for diagnostics.
    var claimedChoices: ClaimedChoices?

    package init(
        origin: Origin = .userAction, strings: ConsentStrings, nonTCFData: JSONValue? = nil,
        gdprApplies: Bool? = nil, configVersion: String? = nil, expirationDate: Date? = nil,
        crossDomainUserID: String? = nil, isRejectAll: Bool? = nil, cmpID: Int? = nil, cmpVersion: Int? = nil,
        claimedChoices: ClaimedChoices? = nil
    ) {
        self.origin = origin
        self.strings = strings
        self.nonTCFData = nonTCFData
        self.gdprApplies = gdprApplies
        self.configVersion = configVersion
        self.expirationDate = expirationDate
        self.crossDomainUserID = crossDomainUserID
        self.isRejectAll = isRejectAll
        self.cmpID = cmpID
        self.cmpVersion = cmpVersion
        self.claimedChoices = claimedChoices
    }
}
