import Foundation

/// What a page's consent message carries, validated but not yet interpreted: the input of ``ConsentCommit``.
///
/// It holds what every CMP sends — why it was produced, the consent strings, whether GDPR applies — and, in
/// ``extras``, the typed value of the dialect that decoded it (``ConsentExtras``: a dialect's own fields, such as
/// non-TCF data, an expiry or a reported CMP id). The TC string is the truth.
package struct ConsentPayload: Sendable, Hashable {
    /// Why this payload was produced: the user acted in the CMP UI (``ConsentProvenance/Action/userChoice``), the
    /// CMP reported consent it had without the user acting (``ConsentProvenance/Action/reReport``: TCF `tcloaded`),
    /// a GPP or US Privacy signal changed (``ConsentProvenance/Action/signalUpdate``), or the CMP's default was
    /// signalled while its UI was on screen (``ConsentProvenance/Action/noChoiceWhileUIShown``).
    package var action: ConsentProvenance.Action
    /// The consent strings.
    package var strings: ConsentStrings
    /// Whether GDPR applies, when the page says so (it wins over the configured value).
    package var gdprApplies: Bool?
    /// What the dialect's message carries beside the shared consent; `nil` when nothing.
    package var extras: (any ConsentExtras)?

    /// Creates a payload.
    package init(
        action: ConsentProvenance.Action = .userChoice, strings: ConsentStrings, gdprApplies: Bool? = nil,
        extras: (any ConsentExtras)? = nil
    ) {
        self.action = action
        self.strings = strings
        self.gdprApplies = gdprApplies
        self.extras = extras
    }

    /// Whether the page said the user rejected everything (``ConsentExtras/isRejectAll``).
    package var isRejectAll: Bool? { extras?.isRejectAll }

    /// Equal when the shared fields are and the extras are the same value of the same type.
    package static func == (lhs: ConsentPayload, rhs: ConsentPayload) -> Bool {
        lhs.action == rhs.action && lhs.strings == rhs.strings && lhs.gdprApplies == rhs.gdprApplies
            && lhs.extras.map { AnyHashable($0) } == rhs.extras.map { AnyHashable($0) }
    }

    /// Hashes the shared fields and the extras.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(strings)
        hasher.combine(gdprApplies)
        hasher.combine(extras.map { AnyHashable($0) })
    }
}
