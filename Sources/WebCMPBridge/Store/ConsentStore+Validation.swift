extension ConsentStore {
    /// Checks one key and value before anything is written: the key must belong to an owned family, the value must
    /// have the spec's type (CMP API v2.2 "In-App Details": Number keys are integers), binary strings may hold only
    /// `0`/`1`, and `IABTCF_PublisherRestrictions{ID}` values only `0`/`1`/`2`/`_` under a numeric purpose id.
    static func validate(_ key: IABKey, _ value: IABValue) throws(ConsentStoreError) {
        guard key.isOwnedIABKey else { throw .foreignKey(key) }
        if let expected = key.expectedKind, expected != value.kind {
            throw .wrongValueType(key, expected: expected, found: value.kind)
        }
        guard case .string(let string) = value else { return }
        if binaryStringKeys.contains(key) {
            guard string.utf8.allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") }) else {
                throw .invalidValue(key, value)
            }
        } else if let purpose = restrictionPurpose(of: key) {
            guard !purpose.isEmpty, purpose.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                string.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "2")).contains($0) || $0 == UInt8(ascii: "_") })
            else { throw .invalidValue(key, value) }
        }
    }

    /// The binary-string keys and their GPP EU mirrors.
    private static let binaryStringKeys: Set<IABKey> = Set(
        IABKey.binaryStringKeys + IABKey.binaryStringKeys.compactMap(\.gppTCFEUMirror))

    /// The purpose-id part of a publisher restriction key (TCF or GPP EU mirror), or `nil` for other keys.
    private static func restrictionPurpose(of key: IABKey) -> Substring.UTF8View? {
        for prefix in [IABKey.publisherRestrictionsPrefix, IABKey.gppPublisherRestrictionsPrefix]
        where key.rawValue.hasPrefix(prefix) {
            return key.rawValue.dropFirst(prefix.count).utf8
        }
        return nil
    }
}
