// Fuzz target "tcstring": any input decodes to a typed error or a model; every accepted model re-encodes, and the
// re-encoded string decodes to the same model; every decoded vendor set (kept as the decoded bits above 64 ids) has the
// ids, equality, hash value and IAB binary string of the words form of the same ids.
func fuzzTCString(_ bytes: UnsafeRawBufferPointer) {
    guard let input = fuzzString(bytes) else { return }
    guard let model = try? TCString(decoding: input) else { return }
    let vendorSets = [model.vendorConsents, model.vendorLegitimateInterests]
        + [model.disclosedVendors, model.allowedVendors].compactMap { $0 }
    for set in vendorSets {
        let words = IDSet(set.sorted)
        fuzzCheck(
            set == words && words == set && set.hashValue == words.hashValue && set.count == words.count
                && set.max == words.max && set.binaryString == words.binaryString,
            "a decoded vendor set differs from the words form of its ids in \(input)")
    }
    let encoded: String
    do {
        encoded = try model.encoded()
    } catch {
        fuzzCheck(false, "accepted string \(input) does not re-encode: \(error)")
        return
    }
    let again = try? TCString(decoding: encoded)
    fuzzCheck(again == model, "round trip changed the model for \(input) -> \(encoded)")
}
