extension IABKeySet {
    /// Validates a Google Additional Consent string before it is stored in `IABTCF_AddtlConsent`.
    ///
    /// Google "Additional Consent technical specification": v1 `1~ids`, v2 `2~ids~dv.ids`, ids dot-separated
    /// positive integers.
    static func validateAdditionalConsent(_ value: String) throws(IABMappingError) {
        let parts = value.split(separator: "~", omittingEmptySubsequences: false)
        func ids(_ part: Substring) -> Bool {
            part.isEmpty || part.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { id in
                !id.isEmpty && id.count <= 9 && id.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            }
        }
        switch parts.first {
        case "1":
            guard parts.count == 2, ids(parts[1]) else {
                throw .invalidAdditionalConsent(value, reason: "expected 1~<ids>")
            }
        case "2":
            guard parts.count == 3, ids(parts[1]), parts[2].hasPrefix("dv."), ids(parts[2].dropFirst(3)) else {
                throw .invalidAdditionalConsent(value, reason: "expected 2~<ids>~dv.<ids>")
            }
        default:
            throw .invalidAdditionalConsent(value, reason: "unknown version")
        }
    }
}
