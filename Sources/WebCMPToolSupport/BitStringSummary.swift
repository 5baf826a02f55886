/// How the command-line tools show a person a long IAB position string — a bit field such as `IABTCF_VendorConsents`
/// (one `0`/`1` per vendor id) or a publisher restriction string (`IABTCF_PublisherRestrictions{ID}`: one restriction
/// type `0`…`3` per vendor id): its length, how many positions are set (not `0`) and the first ids set, instead of
/// hundreds of characters. `--raw` prints the exact values instead (`webcmp-host run|check`, `scripts/demo`).
package struct BitStringSummary: Equatable, Sendable {
    /// The number of positions (characters) in the string.
    package var length: Int
    /// The ids (1-based positions) whose value is not `0`, at most ``shownLimit`` of them, in increasing order.
    package var firstIDs: [Int]
    /// The values at ``firstIDs`` when the string is a restriction string (any value above `1`); `nil` for a bit field.
    package var restrictionTypes: [Character]?
    /// How many positions are not `0`.
    package var setCount: Int

    /// At most this many ids are listed.
    package static let shownLimit = 10
    /// Shorter strings are printed as they are: the purpose fields (24 positions) stay readable.
    package static let minimumLength = 33

    /// The summary of `text`, or `nil` when `text` is not a position string (a character other than `0`…`3`) or is
    /// shorter than ``minimumLength`` (then the exact value is the readable one).
    package init?(_ text: String) {
        let utf8 = text.utf8
        guard utf8.count >= Self.minimumLength, utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "3")).contains($0) })
        else { return nil }
        var ids: [Int] = []
        var types: [Character] = []
        var count = 0
        var isRestriction = false
        for (offset, byte) in utf8.enumerated() where byte != UInt8(ascii: "0") {
            count += 1
            if byte > UInt8(ascii: "1") { isRestriction = true }
            if ids.count < Self.shownLimit {
                ids.append(offset + 1)
                types.append(Character(Unicode.Scalar(byte)))
            }
        }
        length = utf8.count
        firstIDs = ids
        restrictionTypes = isRestriction ? types : nil
        setCount = count
    }

    /// One line: `1000 bits, 3 set: ids 1, 4, 755` (a bit field) or `1000 positions, 2 set: ids 12 (type 1),
    /// 755 (type 2)` (a restriction string); `…` after the list when more ids are set than it shows.
    package var description: String {
        let ids = firstIDs.enumerated().map { index, id in
            restrictionTypes.map { "\(id) (type \($0[index]))" } ?? "\(id)"
        }
        let more = setCount > firstIDs.count ? ", … (first \(firstIDs.count) of \(setCount))" : ""
        let list = setCount == 0 ? "" : ": ids " + ids.joined(separator: ", ") + more
        return "\(length) \(restrictionTypes == nil ? "bits" : "positions"), \(setCount) set\(list)"
    }
}
