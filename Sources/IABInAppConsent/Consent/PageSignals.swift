/// The latest GPP string and US Privacy string of the CMP page (generic dialect: the forwarder's `__gpp` events and
/// `__uspapi('getUSPData')`), and the rules by which they join the consent of a run. These rules live here and in
/// ``ConsentCommit`` only:
/// - a payload without a GPP string (or US Privacy string) takes the page's latest (``filling(_:)``);
/// - a newer GPP string updates the consent saved in the run, else the record in force (a signal on load must not drop
///   the TC string the user chose in an earlier session), or is the consent itself on a GPP-only page — unless it is
///   only a header without sections that a CMP reports before the user chose
///   (``updatingGPP(_:sections:reportsStatus:userActed:last:inForce:)``);
/// - a newer US Privacy string is stored with the consent saved in the run, never as consent on its own: a CMP
///   answers `getUSPData` before the user chose anything (``updatingUSPrivacy(_:last:)``).
///
/// Spec: GPP CMP API v1.1 ("addEventListener", `signalStatus`); IAB "USP API" v1.0 ("getUSPData").
package struct PageSignals: Sendable, Hashable {
    /// The page's latest GPP string with the `applicableSections` reported with it, and its latest US Privacy string
    /// (its other strings stay `nil`: a page signals only these two).
    private(set) var strings: ConsentStrings

    /// Creates the signals of a page that reported these strings.
    package init(gppString: String? = nil, gppApplicableSections: [Int]? = nil, usPrivacy: String? = nil) {
        strings = ConsentStrings(gppString: gppString, gppApplicableSections: gppApplicableSections, usPrivacy: usPrivacy)
    }

    /// `strings` with the page's signals where they have none.
    func filling(_ strings: ConsentStrings) -> ConsentStrings {
        var strings = strings
        if strings.gppString == nil, let gppString = self.strings.gppString {
            strings.gppString = gppString
            strings.gppApplicableSections = self.strings.gppApplicableSections
        }
        if strings.usPrivacy == nil { strings.usPrivacy = self.strings.usPrivacy }
        return strings
    }

    /// Takes in a GPP string the page reported, and returns the payload to commit: the run's last saved payload
    /// (`last`), else the record in force (`record`: the stored consent the run started from, whose other strings
    /// the signal does not take away), else an empty one, with the new string; or `nil` when nothing changes (the
    /// same string and sections as `last`) or it is no consent yet (a CMP reporting `signalStatus` with a bare header
    /// before the run saved anything).
    /// - Parameters:
    ///   - reportsStatus: whether the event carried a `signalStatus`.
    ///   - userActed: whether the user acted in the CMP's UI in this run (the payload is then a user action).
    package mutating func updatingGPP(
        _ gppString: String, sections: [Int]?, reportsStatus: Bool, userActed: Bool, last: ConsentPayload?,
        inForce record: ConsentRecord? = nil
    ) -> ConsentPayload? {
        strings.gppString = gppString
        strings.gppApplicableSections = sections
        guard last?.strings.gppString != gppString || last?.strings.gppApplicableSections != sections else {
            return nil
        }
        if reportsStatus, last == nil, ConsentCommit.isBareGPPHeader(
            ConsentStrings(gppString: gppString), parsed: try? IABKeySet.parseGPPString(gppString)) {
            return nil
        }
        var payload = last ?? Self.consent(of: record, in: ConsentPayload(action: .signalUpdate, strings: ConsentStrings()))
        payload.action = userActed ? .userChoice : .signalUpdate
        payload.strings.gppString = gppString
        payload.strings.gppApplicableSections = sections
        return payload
    }

    /// `payload` (the run's consent with this page's latest signals applied, prepared on a record that another write
    /// has replaced since) prepared again on `record`, the record in force: its strings with the page's latest GPP
    /// string (and sections) and US Privacy string where the page reported them, and its `gdprApplies`. The signal is
    /// all the page said; the rest of the run's consent is what the other write replaced (another page's user
    /// choice, the app's `rejectAll()`), so it is not written back over it. `nil` when `record` holds neither a TC
    /// string nor a GPP string and the page reported no GPP string: a US Privacy string is never consent on its own.
    package func rebasing(_ payload: ConsentPayload, on record: ConsentRecord?) -> ConsentPayload? {
        var rebased = Self.consent(of: record, in: payload)
        if let gppString = strings.gppString {
            rebased.strings.gppString = gppString
            rebased.strings.gppApplicableSections = strings.gppApplicableSections
        }
        if let usPrivacy = strings.usPrivacy { rebased.strings.usPrivacy = usPrivacy }
        guard rebased.strings.tcString != nil || rebased.strings.gppString != nil else { return nil }
        return rebased
    }

    /// `payload` carrying the consent of `record` (its strings and `gdprApplies`; none without a record) instead of
    /// its own: the one conversion of a stored record into a payload that a signal updates.
    private static func consent(of record: ConsentRecord?, in payload: ConsentPayload) -> ConsentPayload {
        var payload = payload
        payload.strings = record?.strings ?? ConsentStrings()
        payload.gdprApplies = record?.gdprApplies
        return payload
    }

    /// Takes in a US Privacy string the page reported, and returns the payload to commit: the run's last saved
    /// payload with it, or `nil` when it did not change or nothing was saved in the run yet.
    package mutating func updatingUSPrivacy(_ usPrivacy: String, last: ConsentPayload?) -> ConsentPayload? {
        guard usPrivacy != strings.usPrivacy else { return nil }
        strings.usPrivacy = usPrivacy
        guard var payload = last else { return nil }
        payload.action = .signalUpdate
        payload.strings.usPrivacy = usPrivacy
        return payload
    }
}
