/// The IAB in-app key mapping: from consent strings to the keys vendors read from `UserDefaults`.
///
/// Spec: TCF "Consent Management Platform API" v2.2, "In-App Details"; GPP "CMP API Specification" v1.1,
/// "In-App Details"; GPP "IAB TCF Europe Technical Specification", "Key Names"; USP API v1.0, "In-app support";
/// Google "Additional Consent technical specification".
extension IABKeySet {
    /// Maps consent to the complete IAB in-app key set.
    ///
    /// - With a TC string: every `IABTCF_*` key of the CMP API v2.2 "In-App Details" table (see
    ///   ``addTCFKeys(for:rawValue:gdprApplies:cmpSDKID:cmpSDKVersion:into:)``), plus `IABTCF_AddtlConsent` when an
    ///   Additional Consent string is given. `IABTCF_gdprApplies` is written only when `gdprApplies` is known.
    /// - With a GPP string: the `IABGPP_*` keys (header, `IABGPP_GppSID`, one `IABGPP_{id}_String` per section, and
    ///   for a TCF EU section the `IABGPP_TCFEU2_*` mirror keys and `IABGPP_2_TCString`).
    /// - With a US Privacy string: `IABUSPrivacy_String`.
    /// - Without a TC string no `IABTCF_*` key is produced (an Additional Consent string alone is ignored: Google's
    ///   AC spec uses it only alongside a TC string).
    ///
    /// Every input is validated first; on any problem the whole mapping fails and nothing is produced. The mapping
    /// writes what the CMP produced: the consent rules (e.g. refusing `IsServiceSpecific = 0`) are
    /// ``ConsentCommit``'s.
    ///
    /// - Parameters:
    ///   - strings: the consent strings; the TC string is decoded here.
    ///   - gdprApplies: `IABTCF_gdprApplies`; `nil` leaves the key unset ("undetermined").
    ///   - identity: `IABTCF_CmpSdkID` (0...4095) and `IABTCF_CmpSdkVersion` (0...2147483647); without an id the TC
    ///     string's `CmpId` and `CmpVersion` are written (``CMPIdentity/completed(by:)``).
    package init(
        mapping strings: borrowing ConsentStrings, gdprApplies: Bool? = nil, identity: CMPIdentity = CMPIdentity()
    ) throws(IABMappingError) {
        // (An `if let` rather than `Optional.map` with a throwing closure: the decoded model is passed on without
        // being copied and destroyed through the generic `Optional` value witnesses.)
        if let raw = strings.tcString {
            let decoded = try IABKeySet.decodeTCString(raw)
            try self.init(
                mapping: strings, gdprApplies: gdprApplies, identity: identity, decoded: decoded,
                gpp: try IABKeySet.parseGPPString(strings.gppString))
        } else {
            try self.init(
                mapping: strings, gdprApplies: gdprApplies, identity: identity, decoded: nil,
                gpp: try IABKeySet.parseGPPString(strings.gppString))
        }
    }

    /// Parses a GPP string for the mapping (``GPPString/init(validatingForMapping:)``): the one place that decides
    /// that a GPP string is invalid, for the mapping and for ``ConsentCommit``, which parses it once per save and
    /// hands the result to ``init(mapping:gdprApplies:identity:decoded:gpp:)``.
    static func parseGPPString(_ raw: String?) throws(IABMappingError) -> GPPString? {
        guard let raw else { return nil }
        return try GPPString(validatingForMapping: raw)
    }

    /// Decodes a TC string of consent (`IABTCF_TCString`). The one place that decides that a TC string is invalid,
    /// for the mapping and for ``ConsentCommit`` (which refuses such consent with
    /// ``ConsentCommitError/invalidMapping(_:)``): ``IABMappingError/invalidTCString(_:)`` with the decoder's error.
    @inline(__always)
    static func decodeTCString(_ raw: String) throws(IABMappingError) -> TCString {
        do {
            return try TCString.decodedPrecisely(raw)
        } catch {
            throw .invalidTCString(error)
        }
    }

    /// Maps consent whose TC string and GPP string the caller has already decoded and parsed (`decoded` must be the
    /// decoding of `strings.tcString`, `gpp` the ``parseGPPString(_:)`` of `strings.gppString`), with the identity
    /// ``ConsentCommit`` resolved.
    @inline(__always)
    init(
        mapping strings: borrowing ConsentStrings, gdprApplies: Bool?, identity: CMPIdentity, decoded: TCString?,
        gpp: GPPString?
    ) throws(IABMappingError) {
        assert(gpp?.rawValue == strings.gppString, "IABKeySet(mapping:): gpp is not the parsing of strings.gppString")
        let additionalConsent = try strings.additionalConsent.map { raw throws(IABMappingError) in
            try IABKeySet.validatedAdditionalConsent(raw)
        }
        // (`if case`, not `decoded == nil`: the generic `==` with `nil` took a copy of the whole decoded model.)
        var tcRawValue: String?
        if case .some = decoded { tcRawValue = strings.tcString }
        self = try IABKeySet.mapped(
            tc: decoded, tcRawValue: tcRawValue, gpp: gpp,
            additionalConsent: additionalConsent, strings: strings, gdprApplies: gdprApplies, identity: identity)
    }

    /// The mapping core over already decoded inputs: `tc` (the decoding of `tcRawValue`) and `gpp` come from the
    /// codecs, `additionalConsent` has been validated. Validates the remaining plain inputs (SDK id/version,
    /// applicable sections, US Privacy string) before producing any key.
    @inline(__always)
    static func mapped(
        tc decoded: TCString?,
        tcRawValue: String?,
        gpp: GPPString?,
        additionalConsent: String?,
        strings: borrowing ConsentStrings,
        gdprApplies: Bool?,
        identity: CMPIdentity
    ) throws(IABMappingError) -> IABKeySet {
        if let id = identity.id, !(0...4095).contains(id) { throw .invalidCMPSDKID(id) }
        if let version = identity.version, !(0...Int(Int32.max)).contains(version) {
            throw .invalidCMPSDKVersion(version)
        }
        let usPrivacy = strings.usPrivacy
        if let usPrivacy, !IABKeySet.isValidUSPrivacy(usPrivacy) { throw .invalidUSPrivacy(usPrivacy) }

        // One CMP SDK per app: the TCF keys and their GPP EU mirrors carry the same SDK id and version.
        // The TC string's keys are appended straight to the result, sized once: no key is looked up or hashed.
        var values = IABKeySet(
            minimumCapacity: IABKeySet.tcfKeyCount + 2 + (decoded?.publisherRestrictions.count ?? 0))
        var identity = identity
        if let decoded, let tcRawValue {
            identity = identity.completed(by: decoded)
            IABKeySet.addTCFKeys(
                for: decoded, rawValue: tcRawValue, gdprApplies: gdprApplies,
                cmpSDKID: identity.id ?? decoded.cmpID, cmpSDKVersion: identity.version, into: &values)
            if let additionalConsent { values.appendNew(.additionalConsent, .string(additionalConsent)) }
        }
        if let gpp {
            try IABKeySet.addGPPKeys(
                gpp, applicableSections: strings.gppApplicableSections, gdprApplies: gdprApplies,
                identity: identity, tcRawValue: tcRawValue, into: &values)
        }
        if let usPrivacy { values.appendNew(.usPrivacyString, .string(usPrivacy)) }
        #if DEBUG
        values._checkInvariants()
        #endif
        return values
    }

    /// How many keys ``addTCFKeys(for:rawValue:gdprApplies:cmpSDKID:cmpSDKVersion:into:)`` writes at most besides
    /// the publisher restriction keys.
    static let tcfKeyCount = 19

    /// The `IABTCF_*` keys of one TC string (CMP API v2.2, "In-App Details" key table).
    ///
    /// - `IABTCF_CmpSdkID` / `IABTCF_CmpSdkVersion`: the id and version resolved by ``CMPIdentity`` (vendors use the
    ///   id's presence as the "a CMP is present" signal); `nil` version leaves `IABTCF_CmpSdkVersion` unset. The GPP
    ///   EU mirrors use the same values.
    /// - `IABTCF_UseNonStandardTexts` and its pre-2.2 name `IABTCF_UseNonStandardStacks` (same bit) are both written,
    ///   so that older SDKs and the GPP EU key table's name keep working.
    /// - Binary strings follow the IAB reference implementation (`InAppTCData`): index 0 = id 1, as long as the highest
    ///   set id, `""` when none is set.
    /// - `IABTCF_DisclosedVendors` only when the DisclosedVendors segment is present.
    /// - The four `IABTCF_Publisher*` purpose keys are `""` when the PublisherTC segment is absent (reference
    ///   implementation behaviour).
    /// - `IABTCF_PublisherRestrictions{ID}`: see ``publisherRestrictionStrings(_:)``.
    static func addTCFKeys(
        for model: TCString,
        rawValue: String,
        gdprApplies: Bool?,
        cmpSDKID: Int,
        cmpSDKVersion: Int?,
        into keys: inout IABKeySet
    ) {
        // Room for every key made once (at most one restriction key per restriction entry), then no check per key.
        keys.appending(room: tcfKeyCount + model.publisherRestrictions.count) { keys in
            keys.appendKnown(.cmpSDKID, .int(cmpSDKID))
            if let cmpSDKVersion { keys.appendKnown(.cmpSDKVersion, .int(cmpSDKVersion)) }
            keys.appendKnown(.policyVersion, .int(model.policyVersion))
            if let gdprApplies { keys.appendKnown(.gdprApplies, .int(gdprApplies ? 1 : 0)) }
            keys.appendKnown(.publisherCC, .string(model.publisherCountryCode))
            keys.appendKnown(.purposeOneTreatment, .int(model.purposeOneTreatment ? 1 : 0))
            keys.appendKnown(.useNonStandardTexts, .int(model.useNonStandardTexts ? 1 : 0))
            keys.appendKnown(.useNonStandardStacks, .int(model.useNonStandardTexts ? 1 : 0))
            keys.appendKnown(.tcString, .string(rawValue))
            keys.appendKnown(.vendorConsents, .string(model.vendorConsents.binaryString))
            keys.appendKnown(.vendorLegitimateInterests, .string(model.vendorLegitimateInterests.binaryString))
            if let disclosed = model.disclosedVendors {
                keys.appendKnown(.disclosedVendors, .string(disclosed.binaryString))
            }
            keys.appendKnown(.purposeConsents, .string(model.purposeConsents.binaryString))
            keys.appendKnown(.purposeLegitimateInterests, .string(model.purposeLegitimateInterests.binaryString))
            keys.appendKnown(.specialFeatureOptIns, .string(model.specialFeatureOptIns.binaryString))
            let publisher = model.publisherTC
            keys.appendKnown(.publisherConsent, .string(publisher?.purposeConsents.binaryString ?? ""))
            keys.appendKnown(
                .publisherLegitimateInterests, .string(publisher?.purposeLegitimateInterests.binaryString ?? ""))
            keys.appendKnown(
                .publisherCustomPurposesConsents, .string(publisher?.customPurposeConsents.binaryString ?? ""))
            keys.appendKnown(
                .publisherCustomPurposesLegitimateInterests,
                .string(publisher?.customPurposeLegitimateInterests.binaryString ?? ""))
            forEachPublisherRestrictionString(model.publisherRestrictions) { purpose, value in
                if let known = Known.restriction(purpose: purpose) {
                    keys.appendKnown(known, .string(value))
                } else {
                    keys.appendNew(.publisherRestrictions(purpose: purpose), .string(value))
                }
            }
        }
    }

    /// The `IABTCF_PublisherRestrictions{ID}` values, one per purpose id that restricts at least one vendor.
    ///
    /// Follows the IAB reference implementation (`InAppTCData`) and the `InAppTCData` object of CMP API v2.2: position
    /// *n* holds the restriction type (`0`, `1`, `2`) for vendor *n + 1*, `_` ("No Restriction (maintains
    /// indexing)") elsewhere, and every string is as long as the highest vendor id restricted for any purpose.
    ///
    /// Decisions where the specs are silent:
    /// - Entries with `RestrictionType` 3 ("UNDEFINED (not used)"), purpose id 0 or no vendors restrict nothing and
    ///   are skipped (the key table allows only `0`/`1`/`2`).
    /// - A vendor given two types for one purpose (ill-formed) gets the lowest type, so that `0` ("not allowed")
    ///   always wins.
    static func publisherRestrictionStrings(_ restrictions: [PublisherRestriction]) -> [(purpose: Int, value: String)]
    {
        var strings: [(purpose: Int, value: String)] = []
        forEachPublisherRestrictionString(restrictions) { strings.append(($0, $1)) }
        return strings
    }

    /// Calls `body` with each `IABTCF_PublisherRestrictions{ID}` purpose id and value of
    /// ``publisherRestrictionStrings(_:)``, in ascending purpose order, without collecting them first.
    static func forEachPublisherRestrictionString(
        _ restrictions: [PublisherRestriction], _ body: (_ purpose: Int, _ value: String) -> Void
    ) {
        func restricts(_ entry: PublisherRestriction) -> Bool {
            entry.purposeID >= 1 && entry.restrictionType != .undefined && !entry.vendors.isEmpty
        }
        // The purposes that restrict something: a bit mask for the 6-bit ids a TC string can carry, and a sorted
        // list only for larger ids (which only a hand-built `TCString` can hold).
        var highest = 0
        var smallPurposes: UInt64 = 0
        var largePurposes: [Int] = []
        for entry in restrictions where restricts(entry) {
            if let max = entry.vendors.max, max > highest { highest = max }
            if entry.purposeID < 64 {
                smallPurposes |= 1 << UInt64(entry.purposeID)
            } else {
                largePurposes.append(entry.purposeID)
            }
        }
        guard highest > 0 else { return }
        // A constant for the nested function (capturing the variable cost a dynamic exclusivity check per string).
        let length = highest
        func value(for purpose: Int) -> String {
            String(unsafeUninitializedCapacity: length) { buffer in
                buffer.initialize(repeating: UInt8(ascii: "_"))
                for entry in restrictions where entry.purposeID == purpose && restricts(entry) {
                    let digit = UInt8(ascii: "0") + UInt8(entry.restrictionType.rawValue)
                    entry.vendors.forEachID { vendor in
                        // `length` is the highest restricted id (IDSet's invariants, checked by `_checkInvariants()`
                        // in debug builds, keep every id at most its set's max); the guard makes the write safe even
                        // if they were broken.
                        guard vendor <= length else { return }
                        let current = buffer[vendor &- 1]
                        if current == UInt8(ascii: "_") || current > digit { buffer[vendor &- 1] = digit }
                    }
                }
                return length
            }
        }
        while smallPurposes != 0 {
            let purpose = smallPurposes.trailingZeroBitCount
            smallPurposes &= smallPurposes &- 1
            body(purpose, value(for: purpose))
        }
        if largePurposes.count > 1 { largePurposes.sort() }  // (sorting an empty array allocated: callgrind)
        var previous: Int?
        for purpose in largePurposes where purpose != previous {
            previous = purpose
            body(purpose, value(for: purpose))
        }
    }

    /// Adds the GPP keys (GPP CMP API v1.1, "In-App Details").
    ///
    /// Decisions on the spec inconsistencies listed in the team reference (§2.2):
    /// - `IABGPP_HDR_Version` is a String (`"1"`), as the in-app key table says, not an Integer.
    /// - `IABGPP_HDR_Sections` and `IABGPP_GppSID` join ids with `_` (`"2_6"`), the list rule of the same spec.
    /// - The TCF EU section string is written under both `IABGPP_2_String` (core spec pattern) and
    ///   `IABGPP_2_TCString` (GPP EU "Key Names" table).
    /// - The `IABGPP_TCFEU2_*` mirror keys carry the same values as the `IABTCF_*` keys (binary strings, integers),
    ///   as the GPP EU table refers to the TCF spec for values; they are exactly the keys of that table (so
    ///   `UseNonStandardStacks`, and no `DisclosedVendors`, `UseNonStandardTexts` or AddtlConsent mirror).
    /// - Each US section (ids 7–27) adds its per-field keys, `IABGPP_USNAT_SaleOptOut` … (see
    ///   ``GPPUSSectionData/keys``); one that does not decode fails the mapping.
    static func addGPPKeys(
        _ gpp: GPPString,
        applicableSections: [Int]?,
        gdprApplies: Bool?,
        identity: CMPIdentity,
        tcRawValue: String?,
        into values: inout IABKeySet
    ) throws(IABMappingError) {
        let sid: [Int]
        if let applicableSections {
            for id in applicableSections where !(-1...65_535).contains(id) {
                throw .invalidApplicableSection(id)
            }
            sid = applicableSections
        } else {
            sid = gpp.sectionIDs
        }
        var mirror: [IABKey: IABValue] = [:]
        for section in gpp.sections where section.id == 2 {
            var keys = IABKeySet(minimumCapacity: tcfKeyCount)
            if let tcRawValue, tcRawValue == section.string {
                // The same string as the TC string: its `IABTCF_*` keys are already in `values`.
                keys = values
            } else {
                let model = try decodeTCFSection(section.string)
                let identity = identity.completed(by: model)
                addTCFKeys(
                    for: model, rawValue: section.string, gdprApplies: gdprApplies,
                    cmpSDKID: identity.id ?? model.cmpID, cmpSDKVersion: identity.version, into: &keys)
            }
            for (key, value) in keys where !notMirroredInGPP.contains(key) {
                if let name = key.gppTCFEUMirror { mirror[name] = value }
            }
        }
        // Every GPP key is new to `values`: the families differ from the TCF keys and from each other (`IABGPP_TCFEU2_*`
        // and `IABGPP_2_TCString` mirrors, `IABGPP_HDR_*`, one `IABGPP_{id}_String` per distinct section id, the
        // `IABGPP_USP1_*` and US field keys), so they are appended without a lookup — a GPP string can hold 1,000
        // sections.
        for (key, value) in mirror { values.appendNew(key, value) }
        values.appendNew(.gppVersion, .string(String(gpp.version)))
        values.appendNew(.gppSections, .string(joined(gpp.sectionIDs)))
        values.appendNew(.gppString, .string(gpp.rawValue))
        values.appendNew(.gppSID, .string(joined(sid)))
        for section in gpp.sections {
            values.appendNew(.gppSectionString(section.id), .string(section.string))
            if section.id == 6 { addUSP1Keys(section.string, into: &values) }
        }
        for (key, value) in try gpp.usSectionKeys() { values.appendNew(key, value) }
    }

    /// The `IABGPP_USP1_*` keys of a US Privacy section (id 6), which ``GPPString/init(validatingForMapping:)`` has
    /// checked to be a US Privacy string (`1` and three of `Y`, `N`, `-`): ``IABKey/gppUSP1Version`` and the three
    /// one-character fields. The names are those of GPP CMP API v1.1 "In-App Details" (its example key names), which
    /// CMP SDKs write (OneTrust's Android SDK: the version with `putInt`, the fields with `putString`).
    static func addUSP1Keys(_ section: String, into values: inout IABKeySet) {
        let characters = Array(section.utf8)
        guard characters.count == 4, let version = Int(String(UnicodeScalar(characters[0]))) else {
            assertionFailure("a US Privacy section that was not validated: \(section)")
            return
        }
        let field = { (index: Int) in IABValue.string(String(UnicodeScalar(characters[index]))) }
        values.appendNew(.gppUSP1Version, .int(version))
        values.appendNew(.gppUSP1Notice, field(1))
        values.appendNew(.gppUSP1OptOut, field(2))
        values.appendNew(.gppUSP1LSPACovered, field(3))
    }

    /// `IABTCF_*` keys that have no `IABGPP_TCFEU2_*` counterpart in the GPP EU "Key Names" table.
    private static let notMirroredInGPP: Set<IABKey> = [.disclosedVendors, .useNonStandardTexts, .additionalConsent]

    /// Decodes the TCF EU section (id 2) of a GPP string.
    ///
    /// Strings are mapped as the CMP produced them, as the IAB reference implementation (`InAppTCData`) does: an
    /// `IsServiceSpecific` = 0 or `TcfPolicyVersion` < 4 string is declared invalid by the TCF, but it is written
    /// verbatim (with `IABTCF_PolicyVersion`) so that vendors apply their own validity rules; the bridge refuses such
    /// strings before mapping when it wants to.
    static func decodeTCFSection(_ raw: String) throws(IABMappingError) -> TCString {
        do {
            return try TCString.decodedPrecisely(raw)
        } catch {
            throw .invalidGPPTCFSection(error)
        }
    }

    /// Whether `value` is a US Privacy string: `1`, then Notice, Opt-Out Sale and LSPA Covered, each `Y`, `N` or `-`
    /// (IAB "US Privacy String" v1.0).
    package static func isValidUSPrivacy(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count == 4, bytes[0] == UInt8(ascii: "1") else { return false }
        return bytes.dropFirst().allSatisfy { $0 == UInt8(ascii: "Y") || $0 == UInt8(ascii: "N") || $0 == UInt8(ascii: "-") }
    }

    private static func joined(_ ids: [Int]) -> String {
        ids.map(String.init).joined(separator: "_")
    }
}
