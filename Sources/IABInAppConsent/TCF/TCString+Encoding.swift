extension TCString {
    /// The TC string for this model: base64url without padding; segments core, DisclosedVendors, AllowedVendors,
    /// PublisherTC (those present).
    ///
    /// Each vendor section uses MaxVendorId = the highest id, and range encoding when its bit count is smaller than
    /// the bitfield's (the rule of the IAB reference library iabtcf-java; the spec says "choose the encoding scheme
    /// that results in the smaller output size").
    ///
    /// - Throws: ``TCStringError/invalidFieldValue(field:value:)`` when a field does not fit the format.
    package func encoded() throws(TCStringError) -> String {
        try validate()
        var core = BitWriter()
        core.write(version, 6)
        core.write(UInt64(createdDeciseconds), 36)
        core.write(UInt64(lastUpdatedDeciseconds), 36)
        core.write(cmpID, 12)
        core.write(cmpVersion, 12)
        core.write(consentScreen, 6)
        core.writeLetters(consentLanguage)
        core.write(vendorListVersion, 12)
        core.write(policyVersion, 6)
        core.write(isServiceSpecific)
        core.write(useNonStandardTexts)
        core.bitfield(specialFeatureOptIns, width: 12)
        core.bitfield(purposeConsents, width: 24)
        core.bitfield(purposeLegitimateInterests, width: 24)
        core.write(purposeOneTreatment)
        core.writeLetters(publisherCountryCode)
        core.vendorSection(vendorConsents)
        core.vendorSection(vendorLegitimateInterests)
        core.write(publisherRestrictions.count, 12)
        for restriction in publisherRestrictions {
            core.write(restriction.purposeID, 6)
            core.write(restriction.restrictionType.rawValue, 2)
            core.ranges(restriction.vendors.runs)
        }
        var segments = [core.string]
        for (type, vendors) in [(1, disclosedVendors), (2, allowedVendors)] {
            guard let vendors else { continue }
            var writer = BitWriter()
            writer.write(type, 3)
            writer.vendorSection(vendors)
            segments.append(writer.string)
        }
        if let publisherTC {
            var writer = BitWriter()
            writer.write(3, 3)
            writer.bitfield(publisherTC.purposeConsents, width: 24)
            writer.bitfield(publisherTC.purposeLegitimateInterests, width: 24)
            writer.write(publisherTC.numberOfCustomPurposes, 6)
            writer.bitfield(publisherTC.customPurposeConsents, width: publisherTC.numberOfCustomPurposes)
            writer.bitfield(publisherTC.customPurposeLegitimateInterests, width: publisherTC.numberOfCustomPurposes)
            segments.append(writer.string)
        }
        return segments.joined(separator: ".")
    }

    private func validate() throws(TCStringError) {
        func check(_ field: String, _ value: Int64, bits: Int) throws(TCStringError) {
            guard value >= 0, value < (Int64(1) << Int64(bits)) else {
                throw .invalidFieldValue(field: field, value: String(value))
            }
        }
        func check(_ field: String, _ set: IDSet, maximum: Int) throws(TCStringError) {
            if let max = set.max, max > maximum { throw .invalidFieldValue(field: field, value: "id \(max) > \(maximum)") }
        }
        func checkLetters(_ field: String, _ text: String) throws(TCStringError) {
            let utf8 = Array(text.utf8)
            guard utf8.count == 2, utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
                throw .invalidFieldValue(field: field, value: "\(UntrustedText.quoted(text)) (two letters A-Z)")
            }
        }
        guard version == 2 else { throw .invalidFieldValue(field: "Version", value: String(version)) }
        try check("Created", createdDeciseconds, bits: 36)
        try check("LastUpdated", lastUpdatedDeciseconds, bits: 36)
        try check("CmpId", Int64(cmpID), bits: 12)
        try check("CmpVersion", Int64(cmpVersion), bits: 12)
        try check("ConsentScreen", Int64(consentScreen), bits: 6)
        try checkLetters("ConsentLanguage", consentLanguage)
        try check("VendorListVersion", Int64(vendorListVersion), bits: 12)
        try check("TcfPolicyVersion", Int64(policyVersion), bits: 6)
        try check("SpecialFeatureOptIns", specialFeatureOptIns, maximum: 12)
        try check("PurposesConsent", purposeConsents, maximum: 24)
        try check("PurposesLITransparency", purposeLegitimateInterests, maximum: 24)
        try checkLetters("PublisherCC", publisherCountryCode)
        try check("NumPubRestrictions", Int64(publisherRestrictions.count), bits: 12)
        for restriction in publisherRestrictions {
            try check("PubRestriction PurposeId", Int64(restriction.purposeID), bits: 6)
            try check("PubRestriction NumEntries", Int64(restriction.vendors.runs.count), bits: 12)
        }
        if let publisherTC {
            try check("PubPurposesConsent", publisherTC.purposeConsents, maximum: 24)
            try check("PubPurposesLITransparency", publisherTC.purposeLegitimateInterests, maximum: 24)
            try check("NumCustomPurposes", Int64(publisherTC.numberOfCustomPurposes), bits: 6)
            try check("CustomPurposesConsent", publisherTC.customPurposeConsents, maximum: publisherTC.numberOfCustomPurposes)
            try check("CustomPurposesLITransparency", publisherTC.customPurposeLegitimateInterests,
                      maximum: publisherTC.numberOfCustomPurposes)
        }
    }
}

extension BitWriter {
    mutating func writeLetters(_ text: String) {
        for byte in text.utf8 { write(Int(byte) - 65, 6) }
    }

    /// A vendor section: MaxVendorId, IsRangeEncoding, then the shorter of bitfield and range entries.
    mutating func vendorSection(_ vendors: IDSet) {
        let maximum = vendors.max ?? 0
        write(maximum, 16)
        let runs = vendors.runs
        let rangeBits = 12 + runs.reduce(0) { $0 + ($1.count > 1 ? 33 : 17) }
        if runs.count < 4096, rangeBits < maximum {
            write(true)
            ranges(runs)
        } else {
            write(false)
            bitfield(vendors, width: maximum)
        }
    }
}
