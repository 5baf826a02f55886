/// Why ``ConsentStore`` refused to write. When `apply` throws, storage has not been touched.
package enum ConsentStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key set holds a key outside the families this package owns (`IABTCF_*`, `IABGPP_*`,
    /// `IABUSPrivacy_String`). The store never writes foreign keys.
    case foreignKey(IABKey)
    /// The value has the wrong type for the key (e.g. a string for the Number key `IABTCF_gdprApplies`).
    case wrongValueType(IABKey, expected: IABValue.Kind, found: IABValue.Kind)
    /// A binary-string key holds a character other than `0` and `1`, or a publisher restriction key holds a character
    /// other than `0`, `1`, `2` and `_` (CMP API v2.2, "In-App Details"), or names no purpose id.
    case invalidValue(IABKey, IABValue)
    /// The values add up to more than the store's limit (1 MiB: `limit`). Real TC data needs a few tens of
    /// kilobytes; a crafted string can ask for megabytes of restriction strings, which would slow every app launch.
    case tooLarge(bytes: Int, limit: Int)
    /// The consent record could not be encoded (for example a non-finite number in its JSON data).
    case recordNotEncodable(reason: String)
    /// The `UserDefaults` suite could not be opened.
    case storageUnavailable(suiteName: String?)
    /// A conditional write (``ConsentStore/apply(_:record:provenance:details:now:replacing:)``) found that another
    /// write changed the stored record since the writer read it (`current`: the record now in force, `version`: its
    /// version), and wrote nothing: the writer prepares its change again on `current`.
    case recordChanged(current: ConsentRecord?, version: ConsentStore.RecordVersion)

    /// One sentence naming the problem and the offending value (untrusted input is quoted, escaped and shortened).
    public var description: String {
        switch self {
        case .foreignKey(let key):
            return "The key \(UntrustedText.quoted(key.rawValue)) is not an IABTCF_, IABGPP_ or IABUSPrivacy_String "
                + "key; the consent store writes only those."
        case .wrongValueType(let key, let expected, let found):
            return "The key \(UntrustedText.quoted(key.rawValue)) needs a value of type \(expected.rawValue), "
                + "not \(found.rawValue)."
        case .invalidValue(let key, let value):
            return "The key \(UntrustedText.quoted(key.rawValue)) cannot hold the value "
                + "\(UntrustedText.quoted(value.description))."
        case .tooLarge(let bytes, let limit):
            return "The consent data needs \(bytes) bytes, more than the store's limit of \(limit) bytes."
        case .recordNotEncodable(let reason):
            return "The consent record cannot be encoded as JSON: \(reason)"
        case .storageUnavailable(let suiteName):
            return "The UserDefaults suite \(UntrustedText.quoted(suiteName ?? "standard")) cannot be opened."
        case .recordChanged:
            return "Another write changed the stored consent while this change was prepared; nothing was written."
        }
    }
}
