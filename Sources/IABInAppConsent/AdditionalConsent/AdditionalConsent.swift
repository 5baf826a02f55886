/// A Google Additional Consent (AC) string: consent for Google Ad Tech Providers that are not on the IAB Global
/// Vendor List, stored in-app as `IABTCF_AddtlConsent`.
///
/// Format (Google, "Additional Consent technical specification", <https://support.google.com/admob/answer/9681920>):
/// v1 `1~1.35.41.101` (consented provider ids); v2 `2~1.35.41.101~dv.9.21.81` (consented ids, then the ids that
/// were disclosed but not consented, after `dv.`).
public struct AdditionalConsent: Sendable, Hashable {
    /// The string as given.
    public var rawValue: String
    /// The format version, 1 or 2.
    public var version: Int
    /// Providers the user consented to, in string order.
    public var consentedProviders: [Int]
    /// Providers disclosed but not consented (v2 only), in string order.
    public var disclosedProviders: [Int]

    /// The longest AC string accepted (Google's list has a few thousand providers).
    static let maximumLength = 64 * 1024

    /// Parses an AC string.
    /// - Throws: ``IABConsentError`` with the code ``IABConsentError/Code/invalidAdditionalConsent`` for anything
    ///   that is not a v1 or v2 AC string.
    public init(parsing string: String) throws(IABConsentError) {
        do {
            try self.init(parsingPrecisely: string)
        } catch {
            throw IABConsentError(error)
        }
    }

    /// ``init(parsing:)`` with the parser's precise error.
    package init(parsingPrecisely string: String) throws(AdditionalConsentError) {
        guard string.utf8.count <= AdditionalConsent.maximumLength else {
            throw .tooLong(length: string.utf8.count, limit: AdditionalConsent.maximumLength)
        }
        let parts = string.split(separator: "~", omittingEmptySubsequences: false)
        rawValue = string
        switch parts[0] {
        case "1":
            guard parts.count == 2 else { throw .malformed("a version 1 string has exactly one '~'") }
            version = 1
            consentedProviders = try AdditionalConsent.ids(parts[1], part: "consented providers")
            disclosedProviders = []
        case "2":
            guard parts.count == 3 else { throw .malformed("a version 2 string has exactly two '~'") }
            guard parts[2].hasPrefix("dv.") else {
                throw .malformed("the disclosed providers part must start with 'dv.'")
            }
            version = 2
            consentedProviders = try AdditionalConsent.ids(parts[1], part: "consented providers")
            disclosedProviders = try AdditionalConsent.ids(parts[2].dropFirst(3), part: "disclosed providers")
        default:
            throw .unsupportedVersion(String(parts[0]))
        }
    }

    private static func ids(_ text: Substring, part: String) throws(AdditionalConsentError) -> [Int] {
        guard !text.isEmpty else { return [] }
        var result: [Int] = []
        for piece in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !piece.isEmpty, piece.utf8.count <= 9, piece.utf8.allSatisfy({ (48...57).contains($0) }),
                let id = Int(piece), id > 0
            else { throw .invalidProviderID(String(piece.prefix(32)), part: part) }
            result.append(id)
        }
        return result
    }
}

/// Why an AC string was rejected.
package enum AdditionalConsentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The version before the first `~` is not 1 or 2.
    case unsupportedVersion(String)
    /// The parts are not laid out as the version requires.
    case malformed(String)
    /// A provider id is not a positive integer.
    case invalidProviderID(String, part: String)
    /// The string is implausibly long.
    case tooLong(length: Int, limit: Int)

    public var description: String {
        switch self {
        case .unsupportedVersion(let version): return "unsupported Additional Consent version \(UntrustedText.quoted(version))"
        case .malformed(let reason): return "malformed Additional Consent string: \(reason)"
        case let .invalidProviderID(id, part):
            return "invalid provider id \(UntrustedText.quoted(id)) in the \(part) of the Additional Consent string"
        case let .tooLong(length, limit): return "the Additional Consent string has \(length) bytes, over the limit of \(limit)"
        }
    }
}
