import Foundation

/// The one consent transaction: from a validated payload, the previous record, the rules and `now`, everything that
/// is stored and reported — the IAB key set, the record inside its summary, the CMP identity and diagnostics — or a
/// typed error, in which case nothing may be stored.
///
/// It is pure (no storage, no clock, no web view) and it is the only place that holds the consent rules:
/// - the TC string is decoded **once** here, and a string with `IsServiceSpecific = 0` is refused ("Transparency and
///   Consent String" v2.2, "IsServiceSpecific": such a string "is considered invalid" in an app);
/// - a string that TCF 2.3 requires to carry the DisclosedVendors segment and does not (created on or after
///   2026-02-28; the source and the reading are in ``MissingDisclosedVendorsPolicy``) is stored with a diagnostic
///   naming the rule, or refused when ``Rules/missingDisclosedVendors`` is ``MissingDisclosedVendorsPolicy/refuse``;
/// - the CMP SDK id/version come from ``CMPIdentity``; the page's `gdprApplies` wins over the configured one: the
///   payload's own (TCData `gdprApplies`), else the GPP `applicableSections` when the page reports them (section 2,
///   `tcfeuv2`, in force means GDPR applies; other sections only mean it does not), else the configured value.
///   `IABTCF_gdprApplies` is written only beside a TC string (never for GPP-only consent);
/// - the latest GPP signal and US Privacy string of the page fill in a payload without them, and a newer page signal
///   updates the consent saved in the run (``PageSignals``);
/// - re-saving what a CMP merely loaded keeps the date the user gave it, and what made it (``ConsentProvenance``: the
///   user's choice stays the user's choice; a default nobody chose stays unchosen);
/// - the record starts from the shared consent, the previous record's non-TCF data (when
///   ``Rules/keepsPreviousNonTCFData``) and cross-domain user id and the configured configuration version; the
///   dialect's ``ConsentExtras`` then write the CMP's own facts (a dialect's own fields: non-TCF data, a
///   configuration version, an expiry, a cross-domain user id), so a dialect that sends no non-TCF data keeps the
///   previous record's.
///
/// `ConsentBridge`, programmatic reject/withdraw and `webcmp inspect` all go through it, so that they can never
/// disagree about what a string means.
package struct ConsentCommit: Sendable {
    /// The facts and policies that do not come from the page.
    package struct Rules: Sendable, Hashable {
        /// `IABTCF_CmpSdkID` the app configured.
        package var cmpSDKID: Int?
        /// `IABTCF_CmpSdkVersion` the app configured.
        package var cmpSDKVersion: Int?
        /// `IABTCF_gdprApplies` when the page does not say.
        package var gdprApplies: Bool?
        /// The configuration version recorded when the page reports none.
        package var configVersion: String?
        /// Policy versions below this one are reported as a diagnostic.
        package var minimumPolicyVersion: Int?
        /// Whether a payload without non-TCF data keeps the previous record's.
        package var keepsPreviousNonTCFData: Bool
        /// Who produces the consent (the record's and the history's ``ConsentProvenance/source``).
        package var source: ConsentProvenance.Source
        /// What happens to a TC string that TCF 2.3 requires to carry the DisclosedVendors segment and does not.
        /// Programmatic changes (reject all, withdraw) and migration keep the default, ``MissingDisclosedVendorsPolicy/warn``:
        /// a withdrawal is never refused.
        package var missingDisclosedVendors: MissingDisclosedVendorsPolicy

        package init(
            cmpSDKID: Int? = nil, cmpSDKVersion: Int? = nil, gdprApplies: Bool? = true, configVersion: String? = nil,
            minimumPolicyVersion: Int? = nil, keepsPreviousNonTCFData: Bool = true, source: ConsentProvenance.Source = .app,
            missingDisclosedVendors: MissingDisclosedVendorsPolicy = .warn
        ) {
            self.cmpSDKID = cmpSDKID
            self.cmpSDKVersion = cmpSDKVersion
            self.gdprApplies = gdprApplies
            self.configVersion = configVersion
            self.minimumPolicyVersion = minimumPolicyVersion
            self.keepsPreviousNonTCFData = keepsPreviousNonTCFData
            self.source = source
            self.missingDisclosedVendors = missingDisclosedVendors
        }
    }

    /// The keys to write: the mapping's, valid by construction.
    package var keys: MappedIABKeys
    /// What the app is told: the record to write with the keys, and its decoded TC string.
    package var summary: ConsentSummary
    /// What this change is, for the history: the rules' source and what happened (the payload's action, or
    /// ``ConsentProvenance/Action/reReport`` for a "user's save" of the stored TC string). The record's provenance
    /// may keep the stored one's action (``provenance(of:source:previous:)``).
    package var change: ConsentProvenance
    /// The CMP SDK id and version the keys carry, resolved once (``CMPIdentity``).
    package var identity: CMPIdentity
    /// Things worth knowing that do not stop the commit (a payload whose arrays disagree with its TC string, an old
    /// policy version, a TC string without the DisclosedVendors segment that TCF 2.3 requires).
    package var diagnostics: [String]

    /// Runs the transaction.
    /// - Parameters:
    ///   - payload: what the page sent, validated by the message decoder.
    ///   - page: the page's latest GPP string and US Privacy string (``PageSignals``), used when the payload has
    ///     none.
    ///   - previous: the stored record.
    ///   - rules: the app's facts and policies.
    ///   - now: the time of the commit.
    package init(
        payload: ConsentPayload, page: PageSignals = PageSignals(), previous: ConsentRecord?, rules: Rules, now: Date
    ) throws(ConsentCommitError) {
        let strings = page.filling(payload.strings)
        // A TCF CMP whose TCData says GDPR does not apply answers with an empty TC string: that is the page's answer,
        // stored as `IABTCF_gdprApplies = 0` without a TC string (TCF CMP API v2.2, "gdprApplies" and "tcString").
        let gdprDoesNotApply = strings.isEmpty && payload.gdprApplies == false
        // The GPP string is parsed once, here; a parse error is thrown where the mapping would throw it (after the
        // TC string's), so that the first problem reported stays the same.
        let gpp = Result { () throws(IABMappingError) in try IABKeySet.parseGPPString(strings.gppString) }
        guard !strings.isEmpty || gdprDoesNotApply, !Self.isBareGPPHeader(strings, parsed: try? gpp.get()) else {
            throw .noConsent
        }
        let decoded: TCString?
        do {
            decoded = try strings.tcString.map { raw throws(IABMappingError) in try IABKeySet.decodeTCString(raw) }
        } catch {
            throw .invalidMapping(error)
        }
        if let decoded, !decoded.isServiceSpecific { throw .notServiceSpecific }
        var diagnostics: [String] = []
        if let decoded, decoded.isMissingRequiredDisclosedVendors {
            switch rules.missingDisclosedVendors {
            case .refuse: throw .missingDisclosedVendors(created: decoded.created)
            case .warn: diagnostics.append(DisclosedVendorsRule.diagnostic(created: decoded.created))
            }
        }
        let gdprApplies = payload.gdprApplies ?? Self.gdprApplies(gppApplicableSections: strings.gppApplicableSections)
            ?? rules.gdprApplies
        let reported = payload.extras?.reportedCMP
        identity = CMPIdentity.resolve(
            configuredID: rules.cmpSDKID, configuredVersion: rules.cmpSDKVersion, reportedID: reported?.id,
            reportedVersion: reported?.version, tcString: decoded)
        var mapped: IABKeySet
        do {
            mapped = try IABKeySet(
                mapping: strings, gdprApplies: gdprApplies, identity: identity, decoded: decoded, gpp: try gpp.get())
        } catch {
            throw .invalidMapping(error)
        }
        if gdprDoesNotApply {
            mapped.appendNew(.gdprApplies, .int(0))
            // The mapping checked the identity's ranges.
            if let id = identity.id { mapped.appendNew(.cmpSDKID, .int(id)) }
            if let version = identity.version { mapped.appendNew(.cmpSDKVersion, .int(version)) }
        }
        keys = MappedIABKeys(mapped: mapped)
        let sameConsent = strings.tcString != nil
            ? previous?.tcString == strings.tcString : previous?.gppString == strings.gppString
        // A user's save carries a TC string with a new `LastUpdated` ("Transparency and Consent String" v2.2, "Core
        // string": the time the string was last updated): a "save" of the very string stored is the CMP restating it
        // (some CMPs post their saves on load too, after the app gave them the stored record).
        // Whether a TC string was decoded (`if case`, not `decoded != nil`: the generic comparison with `nil` copied
        // the whole decoded model, callgrind).
        var hasTCString = false
        if case .some = decoded { hasTCString = true }
        let action: ConsentProvenance.Action =
            payload.action == .userChoice && hasTCString && previous?.tcString == strings.tcString
            ? .reReport : payload.action
        change = ConsentProvenance(rules.source, action)
        var record = ConsentRecord(
            strings: strings,
            gdprApplies: !hasTCString && !gdprDoesNotApply ? nil : gdprApplies,
            nonTCFData: rules.keepsPreviousNonTCFData ? previous?.nonTCFData : nil,
            crossDomainUserID: previous?.crossDomainUserID,
            configVersion: rules.configVersion,
            savedAt: action != .userChoice && sameConsent ? previous?.savedAt ?? now : now,
            provenance: Self.provenance(of: action, source: rules.source, previous: sameConsent ? previous : nil))
        payload.extras?.complete(&record)
        summary = ConsentSummary(record: record, decoded: decoded)
        if let decoded, let extras = payload.extras {
            diagnostics += extras.diagnostics(against: decoded)
        }
        if let decoded, let minimum = rules.minimumPolicyVersion, decoded.policyVersion < minimum {
            diagnostics.append("the TC string has policy version \(decoded.policyVersion), below \(minimum)")
        }
        self.diagnostics = diagnostics
    }

    /// The record to write with the keys (the summary's).
    package var record: ConsentRecord { summary.record }

    /// The record's provenance: `action` by `source`, except that anything but the user's choice that stores the
    /// consent in force (`previous`, when it holds the same TC string, or GPP string without one) keeps what made that
    /// consent, as it keeps its date: a CMP restating the user's choice, or its privacy settings shown over it, leave
    /// it the user's choice, and a report of a default nobody chose leaves it unchosen.
    static func provenance(
        of action: ConsentProvenance.Action, source: ConsentProvenance.Source, previous: ConsentRecord?
    ) -> ConsentProvenance {
        guard action != .userChoice, let previous else { return ConsentProvenance(source, action) }
        switch previous.provenance.action {
        case .userChoice, .rejectAll, .withdrawal, .adopted, .noChoiceWhileUIShown:
            return ConsentProvenance(source, previous.provenance.action)
        case .reReport, .signalUpdate, .cleared:
            return ConsentProvenance(source, action)
        }
    }

    /// What the page's GPP `applicableSections` say about GDPR: `true` when section 2 (`tcfeuv2`) is in force,
    /// `false` when only other sections are, `nil` when the page reports none (GPP CMP API v1.1, `PingReturn`).
    static func gdprApplies(gppApplicableSections sections: [Int]?) -> Bool? {
        guard let sections = sections?.filter({ $0 > 0 }), !sections.isEmpty else { return nil }
        return sections.contains(2)
    }

    /// Whether the only consent string is a GPP string without any section: a GPP CMP's signal before the user chose
    /// (e.g. `DBAA`), which is no consent. `parsed`: the GPP string as the mapping parsed it (`nil` when there is none
    /// or it is invalid: the mapping then refuses it).
    static func isBareGPPHeader(_ strings: ConsentStrings, parsed: GPPString?) -> Bool {
        guard strings.tcString == nil, strings.usPrivacy == nil, let parsed else { return false }
        return parsed.sections.isEmpty
    }

    /// Runs the transaction on consent strings that did not come from a page (programmatic changes, migration,
    /// `webcmp inspect`).
    /// `action`: what the change is (the app's ``ConsentProvenance/Action/rejectAll``, …).
    package init(
        strings: ConsentStrings, gdprApplies: Bool? = nil, action: ConsentProvenance.Action = .userChoice,
        previous: ConsentRecord?, rules: Rules, now: Date
    ) throws(ConsentCommitError) {
        try self.init(
            payload: ConsentPayload(action: action, strings: strings, gdprApplies: gdprApplies),
            previous: previous, rules: rules, now: now)
    }
}

/// Why the core's `ConsentCommit` refused consent. Nothing is stored.
package enum ConsentCommitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no TC string, no US Privacy string and no GPP string with a section.
    case noConsent
    /// The TC string has `IsServiceSpecific = 0`, which the TCF declares invalid (an app's consent is service-specific).
    case notServiceSpecific
    /// The consent cannot be mapped to the IAB keys: a TC string that cannot be decoded
    /// (``IABMappingError/invalidTCString(_:)``, with the decoder's ``TCStringError``), or a bad Additional Consent,
    /// GPP or US Privacy string, or SDK id.
    case invalidMapping(IABMappingError)
    /// The TC string, created at `created` (on or after 2026-02-28), has no DisclosedVendors segment, which TCF 2.3
    /// requires, and the rules say ``MissingDisclosedVendorsPolicy/refuse`` (see ``MissingDisclosedVendorsPolicy``).
    case missingDisclosedVendors(created: Date)

    public var description: String {
        switch self {
        case .noConsent: return "there is no TC, GPP or US Privacy string"
        case .notServiceSpecific: return "IsServiceSpecific is 0; the TCF requires 1 (such a string is invalid)"
        case .invalidMapping(let error): return String(describing: error)
        case .missingDisclosedVendors(let created): return DisclosedVendorsRule.finding(created: created)
        }
    }
}
