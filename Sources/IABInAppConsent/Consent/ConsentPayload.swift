import Foundation

/// What a page's consent message carries, validated but not yet interpreted: the input of ``ConsentCommit``.
///
/// It holds what every CMP sends — why it was produced, the consent strings, whether GDPR applies — and, in
/// ``extras``, the typed value of the dialect that decoded it (``ConsentExtras``: Gravito's non-TCF data, an
/// Onesecondbefore expiry, a TCF CMP's reported id …). The TC string is the truth.
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
    /// Whether GDPR applies, when the page says so (it wins over the configured value).
    package var gdprApplies: Bool?
    /// What the dialect's message carries beside the shared consent; `nil` when nothing.
    package var extras: (any ConsentExtras)?

    /// Creates a payload.
    package init(
        origin: Origin = .userAction, strings: ConsentStrings, gdprApplies: Bool? = nil,
        extras: (any ConsentExtras)? = nil
    ) {
        self.origin = origin
        self.strings = strings
        self.gdprApplies = gdprApplies
        self.extras = extras
    }

    /// Whether the page said the user rejected everything (``ConsentExtras/isRejectAll``).
    package var isRejectAll: Bool? { extras?.isRejectAll }

    /// Equal when the shared fields are and the extras are the same value of the same type.
    package static func == (lhs: ConsentPayload, rhs: ConsentPayload) -> Bool {
        lhs.origin == rhs.origin && lhs.strings == rhs.strings && lhs.gdprApplies == rhs.gdprApplies
            && lhs.extras.map { AnyHashable($0) } == rhs.extras.map { AnyHashable($0) }
    }

    /// Hashes the shared fields and the extras.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(origin)
        hasher.combine(strings)
        hasher.combine(gdprApplies)
        hasher.combine(extras.map { AnyHashable($0) })
    }
}
