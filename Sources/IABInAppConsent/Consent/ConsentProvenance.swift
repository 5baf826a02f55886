/// Where a consent came from and what the user did: the one value that says so, in the stored record
/// (``ConsentRecord/provenance``), the summary, the history entry (``ConsentHistoryEntry/provenance``) and the store's
/// writes.
///
/// Two questions, answered apart:
/// - ``source``: who produced the consent. An open value: this module names only what it produces itself (``Source/app``,
///   ``Source/previousSDK``); a module that produces consent declares its own sources as static members (the bridge:
///   `cmpPage`, `fallbackPage`). A source this version does not know (written by a later one) reads back as written.
/// - ``action``: what happened, above all whether **the user chose** (``Action/userChoice``) or a consent was only
///   reported, updated, adopted or defaulted without a choice. Proof of consent needs that difference (GDPR Art. 7(1)).
public struct ConsentProvenance: Sendable, Hashable, Codable {
    /// Who produced a consent: an open value (a `String` underneath, coded as the bare string), so that the consent
    /// module does not have to know every producer.
    public struct Source: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        /// The stable name written into the record and the history (`cmpPage`, `app`, …).
        public var rawValue: String

        /// A source named `rawValue`.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The app itself, without a page: ``ConsentStore/rejectAll(now:)``, ``ConsentStore/withdrawConsent(now:)``,
        /// ``ConsentStore/clearAll()``. Written `programmatic`, as versions before this one did.
        public static let app = Source(rawValue: "programmatic")
        /// A previous CMP SDK whose keys were adopted (``ConsentMigration``). Written `migrated`, as before.
        public static let previousSDK = Source(rawValue: "migrated")

        /// The stable name.
        public var description: String { rawValue }
    }

    /// What happened to the consent.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        /// The user chose in the source's UI (TCF `useractioncomplete`, a dialect's save, GPP after the user acted).
        case userChoice
        /// The source reported consent without the user acting: consent it already had (a TCF CMP's `tcloaded` on
        /// load, a dialect's save of the very TC string stored: a TC string a user saves carries a new `LastUpdated`),
        /// or a choice stated by a page that no user can have seen (the bridge: a pre-warmed page no UI has shown).
        case reReport
        /// A GPP or US Privacy string changed without a choice in the UI (a section change, a new USP string).
        case signalUpdate
        /// The source signalled its default while its consent UI was on screen, and the user did not choose before
        /// the run ended (issue "a CMP's default signal is not the user's answer"): the signal is in force for the
        /// ad SDKs, but the user is asked again.
        case noChoiceWhileUIShown
        /// The app rejected everything (``ConsentStore/rejectAll(now:)``).
        case rejectAll
        /// The app withdrew consent (``ConsentStore/withdrawConsent(now:)``).
        case withdrawal
        /// Adopted from a previous CMP SDK's keys (``ConsentMigration``).
        case adopted
        /// Consent was removed (``ConsentStore/clearAll()``, a reset, a page that timed out with clearing enabled).
        case cleared

        /// Whether the action only reports consent without anyone deciding (``reReport``, ``signalUpdate``,
        /// ``noChoiceWhileUIShown``): the store writes nothing for a report that changes nothing, and the history
        /// keeps reports so that they never push a decision out (see ``ConsentStore/consentHistory()``).
        public var isReport: Bool { self == .reReport || self == .signalUpdate || self == .noChoiceWhileUIShown }
    }

    /// Who produced the consent.
    public var source: Source
    /// What happened.
    public var action: Action

    /// A provenance.
    public init(_ source: Source, _ action: Action) {
        self.source = source
        self.action = action
    }
}
