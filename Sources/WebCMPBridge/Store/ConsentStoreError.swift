/// Why ``ConsentStore/apply(_:record:)`` refused to write. When it throws, storage was not touched (except for
/// ``storageFailed(_:)``, which the storage itself reported while writing).
public enum ConsentStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key set holds a key outside the families the store owns (`IABTCF_*`, `IABGPP_*`,
    /// `IABUSPrivacy_String`). The store never writes other apps' keys.
    case foreignKey(IABKey)
    /// A value does not fit its key's type (e.g. a string for a `Number` key, `2` for a boolean key, a `'x'` in a
    /// binary string).
    case invalidValue(key: IABKey, value: IABValue, expected: IABKey.ValueKind)
    /// The record could not be encoded (e.g. a non-finite number in its non-TCF data).
    case recordNotEncodable(String)
    /// The `UserDefaults` suite could not be opened (`UserDefaults(suiteName:)` returned `nil`).
    case storageUnavailable(suiteName: String?)
    /// The storage reported an error while writing.
    case storageFailed(String)

    public var description: String {
        switch self {
        case .foreignKey(let key):
            return "refusing to write \(key.rawValue): not an IABTCF_, IABGPP_ or IABUSPrivacy_String key"
        case .invalidValue(let key, let value, let expected):
            let shown: String
            switch value {
            case .int(let number): shown = "integer \(number)"
            case .string(let text): shown = "string of \(text.utf8.count) bytes \"\(text.prefix(40))\""
            }
            return "refusing to write \(key.rawValue): expected \(expected), got \(shown)"
        case .recordNotEncodable(let reason):
            return "consent record cannot be encoded: \(reason)"
        case .storageUnavailable(let suiteName):
            return "UserDefaults suite \(suiteName.map { "\"\($0)\"" } ?? "standard") cannot be opened"
        case .storageFailed(let reason):
            return "storage failed while writing: \(reason)"
        }
    }
}
