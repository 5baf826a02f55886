import Foundation

extension OnesecondbeforeDialect {
    /// What an Onesecondbefore message carries beside the shared consent: when the consent expires
    /// (`expirationDate`), the cross-domain user id (`cduid`) and the choice arrays beside the TC string, which are
    /// only compared with it.
    struct Extras: ConsentExtras {
        /// When the consent expires.
        var expirationDate: Date?
        /// The cross-domain user id; a message without one keeps the previous record's.
        var crossDomainUserID: String?
        /// The choices the message claims besides the TC string, for diagnostics.
        var claimedChoices: ClaimedChoices?

        /// The expiry is this message's (or none); the cross-domain user id replaces the previous one when sent.
        func complete(_ record: inout ConsentRecord) {
            record.expirationDate = expirationDate
            if let crossDomainUserID { record.crossDomainUserID = crossDomainUserID }
        }

        /// A diagnostic naming the claimed arrays that disagree with the TC string (which is stored).
        func diagnostics(against tcString: TCString) -> [String] {
            guard let fields = claimedChoices?.disagreements(with: tcString), !fields.isEmpty else { return [] }
            let names = fields.joined(separator: ", ")
            return ["the payload's \(names) disagree with its TC string; the TC string was stored"]
        }
    }
}
