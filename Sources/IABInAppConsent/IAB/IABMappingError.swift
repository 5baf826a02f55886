/// Why consent could not be mapped to IAB in-app keys.
///
/// Every case carries the offending data; ``description`` is one sentence for people. When mapping fails nothing is
/// produced, so nothing can be written.
package enum IABMappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The TC string cannot be decoded.
    case invalidTCString(TCStringError)
    /// The Google Additional Consent string is malformed.
    case invalidAdditionalConsent(AdditionalConsentError)
    /// The GPP string is malformed.
    case invalidGPPString(GPPStringError)
    /// A GPP section string is malformed: characters outside base64url and `.`, or a US Privacy section (id 6) that
    /// is not a US Privacy string.
    case invalidGPPSection(id: Int, reason: String)
    /// The TCF EU section (id 2) of the GPP string is not a valid TC string.
    case invalidGPPTCFSection(TCStringError)
    /// A US section (ids 7–27: MSPA US National, US states) of the GPP string does not decode.
    case invalidGPPUSSection(GPPUSSectionError)
    /// The US Privacy string is not `1` followed by three of `Y`, `N`, `-` (USP API v1.0, "US Privacy String").
    case invalidUSPrivacy(String)
    /// The CMP SDK id is outside `0...4095` (the 12-bit CMP id space of the TC string).
    case invalidCMPSDKID(Int)
    /// The CMP SDK version is outside `0...2147483647` (readers use 32-bit `getInt`).
    case invalidCMPSDKVersion(Int)
    /// A GPP applicable section id is not `-1`, `0` or a section id in `1...65535`.
    case invalidApplicableSection(Int)

    /// One sentence naming the problem and the offending value (untrusted input is quoted, escaped and shortened).
    public var description: String {
        switch self {
        case .invalidTCString(let error):
            return "The TC string is invalid: \(error)"
        case .invalidAdditionalConsent(let error):
            return "The Additional Consent string is invalid: \(error)"
        case .invalidGPPString(let error):
            return "The GPP string is invalid: \(error)"
        case .invalidGPPSection(let id, let reason):
            return "GPP section \(id) is invalid: \(reason)"
        case .invalidGPPTCFSection(let error):
            return "The TCF EU section (id 2) of the GPP string is not a valid TC string: \(error)"
        case .invalidGPPUSSection(let error):
            return "A US section of the GPP string is invalid: \(error)"
        case .invalidUSPrivacy(let value):
            return "The US Privacy string \(UntrustedText.quoted(value)) is invalid: expected '1' followed by three of "
                + "Y, N or -."
        case .invalidCMPSDKID(let value):
            return "The CMP SDK id \(value) is outside 0...4095."
        case .invalidCMPSDKVersion(let value):
            return "The CMP SDK version \(value) is outside 0...2147483647."
        case .invalidApplicableSection(let value):
            return "The GPP applicable section id \(value) is not -1, 0 or a section id in 1...65535."
        }
    }
}
