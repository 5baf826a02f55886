extension ConsentStore {
    /// Checks one key and value before anything is written: the key must belong to an owned family, the value must
    /// have the spec's type (CMP API v2.2 "In-App Details": Number keys are integers), binary strings may hold only
    /// `0`/`1`, `IABTCF_PublisherRestrictions{ID}` values only `0`/`1`/`2`/`_` under a numeric purpose id, and the
    /// Boolean Number keys (`IABTCF_gdprApplies`, …) only `0` or `1`.
    static func validate(_ key: IABKey, _ value: IABValue) throws(ConsentStoreError) {
        guard key.isOwnedIABKey else { throw .foreignKey(key) }
        if let expected = key.expectedKind, expected != value.kind {
            throw .wrongValueType(key, expected: expected, found: value.kind)
        }
        if case .int(let number) = value, booleanKeys.contains(key), number != 0, number != 1 {
            throw .invalidValue(key, value)
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

    /// The Number keys that carry a Boolean (CMP API v2.2: "For mobile all booleans are written as Number"), with
    /// their GPP EU mirrors.
    private static let booleanKeys: Set<IABKey> = {
        let keys: [IABKey] = [.gdprApplies, .purposeOneTreatment, .useNonStandardTexts, .useNonStandardStacks]
        return Set(keys + keys.compactMap(\.gppTCFEUMirror))
    }()

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
