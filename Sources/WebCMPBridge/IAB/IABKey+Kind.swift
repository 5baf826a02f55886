extension IABKey {
    /// What a key's value must look like, per the specs; the consent store checks every value against it.
    public enum ValueKind: Sendable, Hashable, CustomStringConvertible {
        /// A `Number` key holding an unsigned integer (`IABTCF_CmpSdkID`, `IABTCF_PolicyVersion`, …).
        case number
        /// A `Number` key holding a boolean as `0` or `1` ("For mobile all booleans are written as Number").
        case flag
        /// A `String` key.
        case string
        /// A `Binary String` key: only `'0'` and `'1'`.
        case binaryString
        /// A publisher restrictions string: only `'0'`, `'1'`, `'2'` and `'_'`.
        case restrictions
        /// A key of our families that this package does not produce: an integer or a string.
        case unknown

        public var description: String {
            switch self {
            case .number: return "an unsigned integer"
            case .flag: return "the integer 0 or 1"
            case .string: return "a string"
            case .binaryString: return "a string of '0' and '1'"
            case .restrictions: return "a string of '0', '1', '2' and '_'"
            case .unknown: return "an integer or a string"
            }
        }
    }

    /// The kind of value this key holds (TCF CMP API v2.2 "In-App Details" key table; GPP CMP API "In-App Details";
    /// GPP TCF EU "Key Names", which reuses the TCF value types).
    public var valueKind: ValueKind {
        var name = Substring(rawValue)
        if name.hasPrefix(TCFKeyNames.gppTCFEU2Prefix) {
            name = "IABTCF_" + name.dropFirst(TCFKeyNames.gppTCFEU2Prefix.count)
        }
        if let kind = IABKey.kinds[String(name)] { return kind }
        if name.hasPrefix(IABKey.publisherRestrictionsPrefix) {
            let suffix = name.dropFirst(IABKey.publisherRestrictionsPrefix.count)
            if !suffix.isEmpty, suffix.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                return .restrictions
            }
        }
        if rawValue.hasPrefix("IABGPP_"), rawValue.hasSuffix("_String") { return .string }
        return .unknown
    }

    private static let kinds: [String: ValueKind] = {
        var kinds: [String: ValueKind] = [:]
        for key in [cmpSdkID, cmpSdkVersion, policyVersion] { kinds[key.rawValue] = .number }
        for key in [gdprApplies, purposeOneTreatment, useNonStandardTexts, useNonStandardStacks] {
            kinds[key.rawValue] = .flag
        }
        for key in [
            publisherCC, tcString, additionalConsent, gppVersion, gppSections, gppString, gppSID, gppTCFEUTCString,
            usPrivacyString,
        ] {
            kinds[key.rawValue] = .string
        }
        for key in [
            vendorConsents, vendorLegitimateInterests, disclosedVendors, purposeConsents, purposeLegitimateInterests,
            specialFeaturesOptIns, publisherConsent, publisherLegitimateInterests, publisherCustomPurposesConsents,
            publisherCustomPurposesLegitimateInterests,
        ] {
            kinds[key.rawValue] = .binaryString
        }
        return kinds
    }()

    /// Whether `value` fits this key's ``valueKind``.
    public func accepts(_ value: IABValue) -> Bool {
        switch (valueKind, value) {
        case (.number, .int(let number)): return number >= 0
        case (.flag, .int(let number)): return number == 0 || number == 1
        case (.string, .string), (.unknown, _): return true
        case (.binaryString, .string(let text)):
            return text.utf8.allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") }
        case (.restrictions, .string(let text)):
            return text.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "2")) || $0 == UInt8(ascii: "_")
            }
        default: return false
        }
    }
}
