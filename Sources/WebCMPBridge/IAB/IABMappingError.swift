/// Why ``IABKeySet/init(mapping:)`` refused its input. Nothing is written when mapping fails.
///
/// TC string decoding errors are thrown as ``TCStringError`` unchanged.
public enum IABMappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The TC string's `IsServiceSpecific` bit is 0; the TC string format v2 spec calls such a string invalid.
    case notServiceSpecific
    /// A CMP SDK id or version was negative (the CMP API key table says "unsigned integer").
    case negativeNumber(key: IABKey, value: Int)
    /// The US Privacy string is not `1` followed by three of `Y`/`N`/`-` (USP string spec, "US Privacy String Format").
    case invalidUSPrivacy(String)
    /// The Additional Consent string could not be parsed.
    case invalidAdditionalConsent(String, reason: String)
    /// The GPP string could not be parsed.
    case invalidGPP(reason: String)
    /// A GPP applicable section id was outside `-1...` (the GPP CMP API uses `-1` for "no section applies").
    case invalidGPPSectionID(Int)

    public var description: String {
        switch self {
        case .notServiceSpecific:
            return "TC string has IsServiceSpecific = 0; the TCF requires 1 (such a string is invalid)"
        case .negativeNumber(let key, let value):
            return "\(key.rawValue) must be an unsigned integer, got \(value)"
        case .invalidUSPrivacy(let value):
            return "US Privacy string \(quoted(value)) is not '1' followed by three of Y, N or -"
        case .invalidAdditionalConsent(let value, let reason):
            return "Additional Consent string \(quoted(value)) is invalid: \(reason)"
        case .invalidGPP(let reason):
            return "GPP string is invalid: \(reason)"
        case .invalidGPPSectionID(let id):
            return "GPP applicable section id \(id) is invalid (expected -1 or a positive section id)"
        }
    }

    private func quoted(_ value: String) -> String {
        let prefix = value.prefix(64)
        return "\"" + prefix + (prefix.count < value.count ? "…" : "") + "\""
    }
}
