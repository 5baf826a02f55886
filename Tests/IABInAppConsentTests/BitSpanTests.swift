import Foundation
import Testing
@testable import IABInAppConsent

/// A vendor bitfield of more than 64 ids is kept as the decoded segment's bits (`BitSpan`) and read from them;
/// every other set is words. These tests hold the two forms against each other and against ids read one bit at a
/// time: the same ids, equality and hashing across forms, the same binary strings and the same decoded models, for
/// bitfield and range encodings, empty sections, MaxVendorId not a multiple of 8 (and above the highest id), and
/// every segment type.
@Suite struct BitSpanTests {
    /// The ids of `count` bits from bit `offset` of `bytes`, read one bit at a time: the reference.
    static func referenceIDs(_ bytes: [UInt8], offset: Int, count: Int) -> [Int] {
        (0..<count).filter { index in
            let bit = offset + index
            return bytes[bit / 8] >> (7 - bit % 8) & 1 == 1
        }.map { $0 + 1 }
    }

    /// The IAB binary string of sorted `ids`, one character at a time: the reference.
    static func referenceBinaryString(_ ids: [Int]) -> String {
        guard let max = ids.last else { return "" }
        let set = Set(ids)
        return String((1...max).map { set.contains($0) ? "1" : "0" })
    }

    /// The TCF keys of `model` (the mapping's own step), for comparing two models' keys.
    static func keys(of model: TCString, rawValue: String) -> IABKeySet {
        var keys = IABKeySet(minimumCapacity: 24)
        IABKeySet.addTCFKeys(
            for: model, rawValue: rawValue, gdprApplies: true, cmpSDKID: 300, cmpSDKVersion: 1, into: &keys)
        return keys
    }

    /// Random bytes in which each bit is set with probability `density`/8.
    static func randomBytes(_ count: Int, density: Int, using random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in
            var byte: UInt8 = 0
            for bit in 0..<8 where Int(random.next() % 8) < density { byte |= 1 << UInt8(bit) }
            return byte
        }
    }

    /// Every read of a set made from a bitfield (the bits form above 64 ids, inline below) gives the reference's
    /// ids, and the set equals and hashes like the words-form set of the same ids, at every offset within a byte and
    /// around every word and byte boundary of the length, with the bits after the highest id zero or not there.
    @Test func bitfieldSetsReadTheSameIDsAsTheBitReference() {
        var random = SplitMix64(state: 0xB175_5A4E)
        let counts = [0, 1, 7, 8, 9, 63, 64, 65, 66, 71, 72, 127, 128, 129, 200, 843, 1_000, 2_772]
        for count in counts {
            for offset in [0, 1, 3, 7, 8, 13, 230] {
                for density in [0, 1, 4, 8] {
                    var bytes = BitSpanTests.randomBytes((offset + count + 7) / 8 + 9, density: density, using: &random)
                    // Trailing zero bits inside the field (a MaxVendorId above the highest id) half of the time.
                    if count > 10, random.next() & 1 == 0 {
                        for bit in (offset + count - 10)..<(offset + count) { bytes[bit / 8] &= ~(0x80 >> UInt8(bit % 8)) }
                    }
                    let ids = BitSpanTests.referenceIDs(bytes, offset: offset, count: count)
                    let set = IDSet(bitfield: bytes, offset: offset, count: count)
                    let words = IDSet(ids)
                    let label = "count \(count), offset \(offset), density \(density)"
                    #expect(set._invariantViolations().isEmpty, "\(label): \(set._invariantViolations())")
                    if let max = ids.last, max > 64 {
                        if case .bits = set.storage {} else { Issue.record("\(label): not kept as bits") }
                    }
                    #expect(set.sorted == ids, "\(label)")
                    #expect(Array(set) == ids, "\(label)")
                    #expect(set.count == ids.count, "\(label)")
                    #expect(set.max == ids.last, "\(label)")
                    #expect(set.isEmpty == ids.isEmpty, "\(label)")
                    #expect(set == words && words == set, "\(label)")
                    #expect(set.hashValue == words.hashValue, "\(label)")
                    #expect(set.binaryString == BitSpanTests.referenceBinaryString(ids), "\(label)")
                    #expect(set.binaryString == words.binaryString, "\(label)")
                    #expect(set.words == words.words, "\(label)")
                    #expect(set.runs == words.runs, "\(label)")
                    #expect(set.description == words.description, "\(label)")
                    let members = Set(ids)
                    for id in -1...(count + 66) where set.contains(id) != members.contains(id) {
                        Issue.record("\(label): contains(\(id)) is \(set.contains(id))")
                    }
                }
            }
        }
    }

    /// Two bits sets, a bits set and a words set, differ exactly when their ids do (one id more or less, at the start,
    /// the end or the middle), and a changed bits set holds the changed ids.
    @Test func bitsSetsCompareAndChangeByTheirIDs() {
        var random = SplitMix64(state: 0x5E75)
        let bytes = BitSpanTests.randomBytes(140, density: 4, using: &random) + [0xFF]
        let count = 843
        let ids = BitSpanTests.referenceIDs(bytes, offset: 5, count: count)
        let set = IDSet(bitfield: bytes, offset: 5, count: count)
        // The same ids at another offset of other bytes: equal, same hash.
        var shifted = BitWriter()
        shifted.write(0, 3)
        shifted.bitfield(IDSet(ids), width: count)
        let other = IDSet(bitfield: shifted.bytes, offset: 3, count: count)
        #expect(set == other && set.hashValue == other.hashValue)
        for id in [ids.first!, ids[ids.count / 2], ids.last!, ids.last! + 1, 1, 2, 1_000] {
            var changed = set
            var reference = Set(ids)
            if reference.contains(id) {
                changed.remove(id)
                reference.remove(id)
            } else {
                changed.insert(id)
                reference.insert(id)
            }
            #expect(changed != set && set != changed, "\(id)")
            #expect(changed.sorted == reference.sorted(), "\(id)")
            #expect(changed == IDSet(reference) && changed.hashValue == IDSet(reference).hashValue, "\(id)")
            #expect(changed._invariantViolations().isEmpty, "\(id)")
            #expect(set.sorted == ids, "the original is unchanged after changing a copy (\(id))")
        }
        var grown = set
        grown.insert(contentsOf: 2_000...2_100)
        #expect(grown.sorted == ids + Array(2_000...2_100))
        // Removing every id above 64 turns the set into one word, equal to the words form.
        var shrunk = set
        for id in ids where id > 64 { shrunk.remove(id) }
        #expect(shrunk == IDSet(ids.filter { $0 <= 64 }) && shrunk._invariantViolations().isEmpty)
        // Codable round trip through the ids.
        let decoded = try? JSONDecoder().decode(IDSet.self, from: JSONEncoder().encode(set))
        #expect(decoded == set)
    }

    /// Models with bitfield and range vendor sections, empty ones, MaxVendorId not a multiple of 8, and every
    /// segment type decode to a model equal to (and hashing like) the one encoded, with the same ids in every set
    /// and the same IAB key values as the words form gives.
    @Test func decodedModelsEqualTheirEncodedModelsInEveryForm() throws {
        var random = SplitMix64(state: 0xDEC0DE)
        func scattered(_ maximum: Int, density: UInt64) -> IDSet {
            guard maximum > 0 else { return IDSet() }
            var set = IDSet()
            for id in 1...maximum where random.next() % 8 < density { set.insert(id) }
            set.insert(maximum)
            return set
        }
        var checked = 0
        for maximum in [0, 1, 9, 64, 65, 71, 100, 843, 1_001, 2_772] {
            for density: UInt64 in [1, 4, 7] {
                let consents = scattered(maximum, density: density)
                let legitimate = scattered(maximum / 2, density: 8 - density)
                let model = TCString(
                    cmpID: 300, purposeConsents: [1, 3, 24], purposeLegitimateInterests: [2, 7],
                    vendorConsents: consents, vendorLegitimateInterests: legitimate,
                    publisherRestrictions: [
                        PublisherRestriction(purposeID: 2, restrictionType: .requireConsent, vendors: [3, 70, 900]),
                    ],
                    disclosedVendors: scattered(maximum + 3, density: density),
                    allowedVendors: scattered(maximum / 3 + 66, density: 4),
                    publisherTC: PublisherTC(
                        purposeConsents: [1], numberOfCustomPurposes: 5, customPurposeConsents: [2, 5]))
                let string = try model.encoded()
                let decoded = try TCString(decodingPrecisely: string)
                #expect(decoded == model, "\(maximum)/\(density)")
                #expect(decoded.hashValue == model.hashValue, "\(maximum)/\(density)")
                for (name, read, written) in [
                    ("consents", decoded.vendorConsents, consents), ("LI", decoded.vendorLegitimateInterests, legitimate),
                    ("disclosed", decoded.disclosedVendors!, model.disclosedVendors!),
                    ("allowed", decoded.allowedVendors!, model.allowedVendors!),
                ] {
                    #expect(read.sorted == written.sorted, "\(name) \(maximum)/\(density)")
                    #expect(read.binaryString == BitSpanTests.referenceBinaryString(written.sorted), "\(name)")
                    #expect(read._invariantViolations().isEmpty, "\(name)")
                }
                let keys = BitSpanTests.keys(of: decoded, rawValue: string)
                let expected = BitSpanTests.keys(of: model, rawValue: string)
                #expect(keys == expected, "\(maximum)/\(density)")
                checked += 1
            }
        }
        #expect(checked == 30)
    }

    /// A bitfield vendor section whose MaxVendorId is above its highest id (trailing zero bits, allowed by the
    /// format) decodes to the ids that are set, in the core and in a DisclosedVendors segment, and keys as long as
    /// the highest set id.
    @Test func bitfieldsWithTrailingZeroBitsDecodeToTheirSetIDs() throws {
        for (maximum, ids) in [(843, [5, 70, 800]), (843, [5, 60]), (130, [] as [Int]), (1_003, [1_000])] {
            let base = try TCString(cmpID: 7, vendorConsents: [1], disclosedVendors: [1]).encoded()
            // Rewrite the core's vendor consent section and the DisclosedVendors segment as bitfields of `maximum`.
            let model = try TCString(decodingPrecisely: base)
            var core = BitWriter()
            core.write(2, 6)
            core.write(UInt64(model.createdDeciseconds), 36)
            core.write(UInt64(model.lastUpdatedDeciseconds), 36)
            core.write(model.cmpID, 12)
            core.write(0, 12)
            core.write(0, 6)
            core.writeLetters("EN")
            core.write(0, 12)
            core.write(4, 6)
            core.write(true)
            core.write(false)
            core.write(0, 12 + 24 + 24)
            core.write(false)
            core.writeLetters("AA")
            for _ in 0..<2 {
                core.write(maximum, 16)
                core.write(false)
                core.bitfield(IDSet(ids), width: maximum)
            }
            core.write(0, 12)
            var disclosed = BitWriter()
            disclosed.write(1, 3)
            disclosed.write(maximum, 16)
            disclosed.write(false)
            disclosed.bitfield(IDSet(ids), width: maximum)
            let string = core.string + "." + disclosed.string
            let decoded = try TCString(decodingPrecisely: string)
            for set in [decoded.vendorConsents, decoded.vendorLegitimateInterests, decoded.disclosedVendors!] {
                #expect(set.sorted == ids && set == IDSet(ids), "\(maximum) \(ids)")
                #expect(set.binaryString == BitSpanTests.referenceBinaryString(ids))
            }
        }
    }
}
