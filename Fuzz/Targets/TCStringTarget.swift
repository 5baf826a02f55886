// Fuzz target "tcstring": any input decodes to a typed error or a model; every accepted model re-encodes, and the
// re-encoded string decodes to the same model.
func fuzzTCString(_ bytes: UnsafeRawBufferPointer) {
    guard let input = fuzzString(bytes) else { return }
    guard let model = try? TCString(decoding: input) else { return }
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
