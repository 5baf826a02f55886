extension IABKeySet {
    /// Maps consent to the complete IAB in-app key set the consent store writes.
    ///
    /// - The `IABTCF_*` keys of the TCF CMP API v2.2 "In-App Details" table, when a TC string is given: decoded here
    ///   and stored verbatim in `IABTCF_TCString`. `IABTCF_gdprApplies`, `IABTCF_CmpSdkID` and `IABTCF_CmpSdkVersion`
    ///   are written only when known. `IABTCF_AddtlConsent` when an Additional Consent string is given with it.
    /// - The `IABGPP_*` keys of the GPP CMP API "In-App Details" when a GPP string is given, plus the
    ///   `IABGPP_TCFEU2_*` mirror of a TCF EU section (GPP TCF EU "Key Names").
    /// - `IABUSPrivacy_String` when a US Privacy string is given (USP API "In-app support").
    ///
    /// Empty strings count as absent (CMPs send `""` for "no string"). Number keys are `.int`; binary strings have
    /// index 0 = id 1 and end at the highest set id (`""` when none), as the IAB reference `InAppTCData` builds them.
    ///
    /// - Throws: ``TCStringError`` when the TC string does not decode; ``IABMappingError`` for any other invalid input.
    public init(mapping consent: InAppConsent) throws {
        let context = TCFContext(consent)
        try context.validate()
        var values: [IABKey: IABValue] = [:]
        values.reserveCapacity(40)
        if let raw = consent.tcString.nonEmpty {
            let decoded = try TCString(decoding: raw)
            guard decoded.isServiceSpecific else { throw IABMappingError.notServiceSpecific }
            IABKeySet.addTCFKeys(decoded, raw: raw, context: context, names: .tcf, to: &values)
            if let additionalConsent = consent.additionalConsent.nonEmpty {
                try IABKeySet.validateAdditionalConsent(additionalConsent)
                values[.additionalConsent] = .string(additionalConsent)
            }
        }
        if let gpp = consent.gppString.nonEmpty {
            let input = try GPPInput(parsing: gpp)
            try IABKeySet.addGPPKeys(input, applicableSections: consent.gppApplicableSections, context: context,
                                     to: &values)
        }
        if let usPrivacy = consent.usPrivacy.nonEmpty {
            try IABKeySet.validateUSPrivacy(usPrivacy)
            values[.usPrivacyString] = .string(usPrivacy)
        }
        self.init(values)
    }

    /// The facts that cannot be derived from the TC string.
    struct TCFContext: Sendable {
        var gdprApplies: Bool?
        var cmpSDKID: Int?
        var cmpSDKVersion: Int?

        init(gdprApplies: Bool? = nil, cmpSDKID: Int? = nil, cmpSDKVersion: Int? = nil) {
            self.gdprApplies = gdprApplies
            self.cmpSDKID = cmpSDKID
            self.cmpSDKVersion = cmpSDKVersion
        }

        init(_ consent: InAppConsent) {
            self.init(gdprApplies: consent.gdprApplies, cmpSDKID: consent.cmpSDKID,
                      cmpSDKVersion: consent.cmpSDKVersion)
        }

        /// CMP API v2.2 key table: both are "unsigned integer".
        func validate() throws(IABMappingError) {
            if let id = cmpSDKID, id < 0 { throw .negativeNumber(key: .cmpSdkID, value: id) }
            if let version = cmpSDKVersion, version < 0 { throw .negativeNumber(key: .cmpSdkVersion, value: version) }
        }
    }

    /// Adds the keys of one TCF key family for a decoded TC string (TCF CMP API v2.2, "In-App Details").
    ///
    /// Publisher keys are `""` when the PublisherTC segment is absent, and `DisclosedVendors` is written only when its
    /// segment is present, as in the IAB reference `InAppTCData`.
    static func addTCFKeys(
        _ tc: TCString, raw: String, context: TCFContext, names: TCFKeyNames, to values: inout [IABKey: IABValue]
    ) {
        if let id = context.cmpSDKID { values[names.cmpSdkID] = .int(id) }
        if let version = context.cmpSDKVersion { values[names.cmpSdkVersion] = .int(version) }
        if let applies = context.gdprApplies { values[names.gdprApplies] = .int(applies ? 1 : 0) }
        values[names.policyVersion] = .int(tc.policyVersion)
        values[names.publisherCC] = .string(tc.publisherCountryCode)
        values[names.purposeOneTreatment] = .int(tc.purposeOneTreatment ? 1 : 0)
        for key in names.useNonStandardTexts { values[key] = .int(tc.useNonStandardTexts ? 1 : 0) }
        values[names.tcString] = .string(raw)
        values[names.vendorConsents] = .string(tc.vendorConsents.binaryString)
        values[names.vendorLegitimateInterests] = .string(tc.vendorLegitimateInterests.binaryString)
        if let key = names.disclosedVendors, let disclosed = tc.disclosedVendors {
            values[key] = .string(disclosed.binaryString)
        }
        values[names.purposeConsents] = .string(tc.purposeConsents.binaryString)
        values[names.purposeLegitimateInterests] = .string(tc.purposeLegitimateInterests.binaryString)
        values[names.specialFeaturesOptIns] = .string(tc.specialFeatureOptIns.binaryString)
        for (purposeID, restriction) in restrictionStrings(tc.publisherRestrictions) {
            values[IABKey(rawValue: names.publisherRestrictionsPrefix + String(purposeID))] = .string(restriction)
        }
        let publisher = tc.publisherTC
        values[names.publisherConsent] = .string(publisher?.purposeConsents.binaryString ?? "")
        values[names.publisherLegitimateInterests] = .string(publisher?.purposeLegitimateInterests.binaryString ?? "")
        values[names.publisherCustomPurposesConsents] = .string(publisher?.customPurposeConsents.binaryString ?? "")
        values[names.publisherCustomPurposesLegitimateInterests] =
            .string(publisher?.customPurposeLegitimateInterests.binaryString ?? "")
    }

    /// The `IABTCF_PublisherRestrictions{ID}` values, per purpose id.
    ///
    /// CMP API v2.2 key table and `InAppTCData.publisher.restrictions` ("`_`: No Restriction (maintains indexing)"),
    /// with the IAB reference implementation's length rule: every string is as long as the highest vendor id that has
    /// any restriction, with the restriction type digit at index *n* for vendor *n + 1* and `'_'` elsewhere.
    ///
    /// Decisions where the specs are silent: entries with purpose id 0 or type 3 ("UNDEFINED (not used)") are
    /// ignored; when a string restricts one vendor twice for the same purpose, the lower digit wins (`0` "not allowed"
    /// over `1` "require consent" over `2` "require legitimate interest"), never the more permissive one.
    static func restrictionStrings(_ restrictions: [PublisherRestriction]) -> [(purposeID: Int, value: String)] {
        var length = 0
        for entry in restrictions where isUsable(entry) {
            length = max(length, entry.vendors.max ?? 0)
        }
        guard length > 0 else { return [] }
        var buffers: [Int: [UInt8]] = [:]
        for entry in restrictions where isUsable(entry) && !entry.vendors.isEmpty {
            let digit = UInt8(ascii: "0") + UInt8(entry.restrictionType.rawValue)
            var buffer = buffers[entry.purposeID] ?? [UInt8](repeating: UInt8(ascii: "_"), count: length)
            for vendor in entry.vendors {
                let index = vendor - 1
                if buffer[index] == UInt8(ascii: "_") || digit < buffer[index] { buffer[index] = digit }
            }
            buffers[entry.purposeID] = buffer
        }
        return buffers.keys.sorted().compactMap { purposeID in
            buffers[purposeID].map { (purposeID, String(decoding: $0, as: UTF8.self)) }
        }
    }

    private static func isUsable(_ entry: PublisherRestriction) -> Bool {
        entry.purposeID >= 1 && entry.restrictionType != .undefined
    }

    /// US Privacy string format ("CCPA/US Privacy String.md"): version `1`, then Notice, Opt-Out Sale and LSPA
    /// Covered, each `Y`, `N` or `-`.
    static func validateUSPrivacy(_ value: String) throws(IABMappingError) {
        let bytes = Array(value.utf8)
        let flags: Set<UInt8> = [UInt8(ascii: "Y"), UInt8(ascii: "N"), UInt8(ascii: "-")]
        guard bytes.count == 4, bytes[0] == UInt8(ascii: "1"), bytes.dropFirst().allSatisfy(flags.contains) else {
            throw .invalidUSPrivacy(value)
        }
    }
}

extension Optional where Wrapped == String {
    /// The string, or `nil` when it is absent or empty.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
