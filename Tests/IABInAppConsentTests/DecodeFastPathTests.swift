import Testing
@testable import IABInAppConsent

/// The decoder's fast paths (eight-character base64url groups, 8-byte bit loads, word-wise range fills, in-place
/// segment walking) against plain bit-by-bit references, at every length and position where a fast path hands over
/// to its slow one.
@Suite struct DecodeFastPathTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64url decoded one bit at a time: the reference.
    static func referenceDecode(_ text: [UInt8]) -> [UInt8] {
        var bits: [Bool] = []
        for byte in text where byte != UInt8(ascii: "=") {
            let value = alphabet.firstIndex(of: byte)!
            for shift in (0..<6).reversed() { bits.append(value >> shift & 1 == 1) }
        }
        var bytes: [UInt8] = []
        for start in stride(from: 0, to: bits.count, by: 8) {
            var byte: UInt8 = 0
            for offset in 0..<8 { byte = byte << 1 | (start + offset < bits.count && bits[start + offset] ? 1 : 0) }
            bytes.append(byte)
        }
        return bytes
    }

    static func randomText(_ count: Int, using random: inout SystemRandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in alphabet.randomElement(using: &random)! }
    }

    /// Decoding into a buffer that already holds bytes (a TC string's earlier, longer segment, or stale bytes of any
    /// length) gives exactly the reference bytes: the decoder overwrites the buffer in place and trims it, and no
    /// stale byte survives.
    @Test func base64URLIntoAReusedBufferMatchesTheBitReference() throws {
        var random = SystemRandomNumberGenerator()
        for count in 0...40 {
            for stale in [0, 1, count / 2, count, count + 7, 64] {
                let text = DecodeFastPathTests.randomText(count, using: &random)
                var bytes = [UInt8](repeating: 0xA5, count: stale)
                try Base64URL.decode(Substring(String(decoding: text, as: UTF8.self)).utf8, into: &bytes, offsetBase: 0)
                #expect(bytes == DecodeFastPathTests.referenceDecode(text), "\(count) characters over \(stale) stale bytes")
            }
        }
    }

    /// Every two-letter code of ConsentLanguage and PublisherCC decodes to its letters (the decoder takes them from a
    /// table indexed first letter × 26 + second).
    @Test func everyLetterPairDecodesToItsLetters() throws {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for first in letters {
            for second in letters {
                let code = String([first, second]), reversed = String([second, first])
                let string = try TCString(consentLanguage: code, publisherCountryCode: reversed).encoded()
                let decoded = try TCString(decodingPrecisely: string)
                #expect(decoded.consentLanguage == code && decoded.publisherCountryCode == reversed, "\(code)")
            }
        }
    }

    @Test func base64URLMatchesTheBitReferenceAtEveryLength() throws {
        var random = SystemRandomNumberGenerator()
        for length in 0...70 {
            for padding in 0...2 {
                let text = DecodeFastPathTests.randomText(length, using: &random) + Array(repeating: UInt8(ascii: "="), count: padding)
                let string = String(decoding: text, as: UTF8.self)
                #expect(try Base64URL.decode(string) == DecodeFastPathTests.referenceDecode(text), "\(string)")
            }
        }
    }

    /// An invalid byte in any position of a group (and in the tail) is reported at its exact character offset.
    @Test func base64URLReportsAnInvalidByteAtEveryPosition() {
        var random = SystemRandomNumberGenerator()
        for length in 1...27 {
            for position in 0..<length {
                for bad in ["!", ".", "=", "é"] {
                    var characters = DecodeFastPathTests.randomText(length, using: &random).map { String(UnicodeScalar($0)) }
                    characters[position] = bad
                    // A trailing `=` is padding, not an error.
                    if bad == "=", characters[position...].allSatisfy({ $0 == "=" }) { continue }
                    let string = characters.joined()
                    #expect(throws: TCStringError.invalidCharacter(Character(bad), offset: position), "\(string)") {
                        try Base64URL.decode(string)
                    }
                }
            }
        }
    }

    /// `BitReader.read` of every width at every position equals reading bit by bit, up to the last bit (the 8-byte
    /// load and the byte loop both run: the load where eight bytes follow, the loop near the end).
    @Test func bitReaderMatchesBitByBitReads() throws {
        var random = SystemRandomNumberGenerator()
        for byteCount in [1, 7, 8, 9, 16, 17] {
            let bytes = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &random) }
            let limit = byteCount * 8 - Int.random(in: 0...2, using: &random)
            func bit(_ index: Int) -> UInt64 { UInt64(bytes[index >> 3] >> (7 - index & 7) & 1) }
            for position in 0...limit {
                for width in 0...Swift.min(64, limit - position) {
                    var reader = BitReader(bytes: bytes, limit: limit, segment: 0)
                    reader.position = position
                    var expected: UInt64 = 0
                    for index in position..<position + width { expected = expected << 1 | bit(index) }
                    #expect(try reader.read(width, "field") == expected, "bytes \(bytes) position \(position) width \(width)")
                    #expect(reader.position == position + width)
                }
                var reader = BitReader(bytes: bytes, limit: limit, segment: 3)
                reader.position = position
                let width = limit - position + 1
                if width <= 64 {
                    #expect(throws: TCStringError.truncated(field: "past", atBit: position, segment: 3)) {
                        try reader.read(width, "past")
                    }
                }
            }
        }
    }

    /// Range fills equal inserting id by id, for ranges starting and ending at every bit of a word.
    @Test func rangeFillsMatchSingleInserts() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var fast = IDSet()
            var slow = IDSet()
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                let lower = Int.random(in: -3...400, using: &random)
                let upper = lower + Int.random(in: -2...200, using: &random)
                fast.insert(contentsOf: lower...Swift.max(lower, upper))
                for id in lower...Swift.max(lower, upper) { slow.insert(id) }
            }
            #expect(fast == slow)
            #expect(fast._invariantViolations().isEmpty)
        }
        var top = IDSet()
        top.insert(contentsOf: 65_500...70_000)
        #expect(top.max == IDSet.maximumID && top.count == 36 && top._invariantViolations().isEmpty)
    }

    /// Range entries of a vendor section decode to the same set as the ids inserted one by one, including ranges
    /// that end on and cross word boundaries.
    @Test func rangeEncodedSectionsRoundTrip() throws {
        // The last: 300 scattered single ids, one range entry each, as in a long string's publisher restrictions.
        for runs in [[1...1], [64...64, 65...65], [1...64], [63...129, 200...200], [1...1_000], [65_000...65_535],
                     (1...300).map { $0 * 3...$0 * 3 } + [65_535...65_535]] {
            var vendors = IDSet()
            for run in runs { vendors.insert(contentsOf: run) }
            let model = TCString(vendorConsents: vendors, vendorLegitimateInterests: vendors, publisherRestrictions: [
                PublisherRestriction(purposeID: 2, restrictionType: .requireConsent, vendors: vendors),
            ], disclosedVendors: vendors)
            let decoded = try TCString(decodingPrecisely: try model.encoded())
            #expect(decoded == model, "\(runs)")
        }
    }

    /// A core segment without vendors and with one publisher restriction (purpose 2, type 1) whose range entries
    /// `entries` writes (NumEntries included).
    static func coreWithOneRestriction(entries: (BitWriter) -> BitWriter) -> String {
        var writer = BitWriter()
        writer.write(2, 6); writer.write(0, 36); writer.write(0, 36); writer.write(1, 12); writer.write(1, 12)
        writer.write(0, 6); writer.writeLetters("EN"); writer.write(1, 12); writer.write(4, 6); writer.write(true)
        writer.write(false); writer.write(0, 12); writer.write(0, 24); writer.write(0, 24); writer.write(false)
        writer.writeLetters("AA")
        writer.write(0, 16); writer.write(false)  // vendor consents: MaxVendorId 0, bitfield
        writer.write(0, 16); writer.write(false)  // legitimate interests: likewise
        writer.write(1, 12); writer.write(2, 6); writer.write(1, 2)  // one restriction: purpose 2, type 1
        return entries(writer).string
    }

    /// Range entries are set in one inline word while every id is at most 64, and in words from the first entry
    /// above 64 on: entries in any order, below, across and above 64, decode to the ids of single inserts.
    @Test func rangeEntriesInAnyOrderAcrossTheInlineWord() throws {
        let cases: [[ClosedRange<Int>]] = [
            [3...3], [64...64], [1...64], [10...20, 3...3, 64...64], [70...70, 3...3], [3...3, 70...70],
            [60...70], [1...64, 65...65], [2...2, 65_535...65_535, 1...1], [5...5, 900...910, 64...64, 63...63],
        ]
        for entries in cases {
            let string = DecodeFastPathTests.coreWithOneRestriction { writer in
                var writer = writer
                writer.write(entries.count, 12)
                for entry in entries {
                    writer.write(entry.count > 1)
                    writer.write(entry.lowerBound, 16)
                    if entry.count > 1 { writer.write(entry.upperBound, 16) }
                }
                return writer
            }
            var expected = IDSet()
            for entry in entries { for id in entry { expected.insert(id) } }
            let vendors = try #require(try TCString(decodingPrecisely: string).publisherRestrictions.first).vendors
            #expect(vendors == expected && vendors.sorted == expected.sorted, "\(entries)")
            #expect(vendors._invariantViolations().isEmpty, "\(entries)")
        }
    }

    /// A range entry is read as one 17-bit field (IsARange and StartOrOnlyVendorId) while 17 bits remain, and field by
    /// field near the end: a publisher restriction of single ids and ranges decodes the same either way, and an entry
    /// cut short still names the field it lacks.
    @Test func rangeEntriesNearTheEndOfTheSegment() throws {
        let core = DecodeFastPathTests.coreWithOneRestriction
        let whole = core { writer in
            var writer = writer
            writer.write(3, 12)
            writer.write(false); writer.write(64, 16)
            writer.write(true); writer.write(65, 16); writer.write(130, 16)
            writer.write(false); writer.write(65_535, 16)
            return writer
        }
        let decoded = try TCString(decodingPrecisely: whole)
        var expected = IDSet([64, 65_535])
        expected.insert(contentsOf: 65...130)
        #expect(decoded.publisherRestrictions.first?.vendors == expected)
        // The second entry has its IsARange bit and 10 of its 16 id bits: fewer than 17 bits remain after the first.
        let cut = core { writer in
            var writer = writer
            writer.write(2, 12)
            writer.write(false); writer.write(7, 16)
            writer.write(false); writer.write(0, 10)
            return writer
        }
        let error = #expect(throws: TCStringError.self) { try TCString(decodingPrecisely: cut) }
        guard case .truncated(let field, _, let segment)? = error else {
            Issue.record("expected a truncation, got \(String(describing: error))")
            return
        }
        #expect(field == "Publisher Restrictions Section StartOrOnlyVendorId")
        #expect(segment == 0)
    }

    /// The segments' scan errors of the former walk (find the `.`, then decode the segment), in segment order: for
    /// each segment `nil` when it decodes, else its empty-segment or invalid-character error.
    static func referenceScanErrors(_ string: String) -> [TCStringError?] {
        let utf8 = Array(string.utf8)
        var errors: [TCStringError?] = []
        var start = 0
        while true {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: ".")) ?? utf8.count
            if end == start {
                errors.append(.emptySegment(index: errors.count))
            } else {
                let view = string.utf8
                let segment = Substring(view[view.index(view.startIndex, offsetBy: start)..<view.index(view.startIndex, offsetBy: end)])
                var bytes: [UInt8] = []
                do {
                    try Base64URL.decode(segment.utf8, into: &bytes, offsetBase: start)
                    errors.append(nil)
                } catch {
                    errors.append(error)
                }
            }
            guard end < utf8.count else { return errors }
            start = end + 1
        }
    }

    /// The decode finds each segment's end while decoding it: for strings of hostile pieces after a valid core (dots,
    /// padding in and out of place, characters outside the alphabet, non-ASCII, combining and prepended marks,
    /// empty segments), every empty-segment and invalid-character error is the former walk's, for the same segment,
    /// and every other outcome comes after segments that the former walk scanned without error.
    @Test func segmentScanErrorsMatchTheFormerWalk() throws {
        let core = try TCString(vendorConsents: [1, 3, 70]).encoded()
        let pieces = ["A", "Q", "g", "-", "_", "AAAAAAAA", "=", "==", ".", "!", "é", "\u{301}", "\u{600}", "\u{200D}",
                      " ", "%", "😀", "IABm", "QAhB"]
        var random = SplitMix64(state: 0x5E6)
        var scanErrors = 0
        for _ in 0..<3_000 {
            let tail = (0..<Int(random.next() % 10)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
            let string = core + "." + tail.joined()
            let reference = DecodeFastPathTests.referenceScanErrors(string)
            do {
                _ = try TCString(decodingPrecisely: string)
                #expect(reference.allSatisfy { $0 == nil }, "\(string) decoded, the former walk: \(reference)")
            } catch {
                let firstScanError = reference.firstIndex { $0 != nil }
                switch error {
                case .emptySegment, .invalidCharacter:
                    scanErrors += 1
                    #expect(firstScanError.map { reference[$0] } == error, "\(string): \(error), the former walk: \(reference)")
                case .truncated(_, _, let segment), .duplicateSegment(_, let segment), .unknownSegmentType(_, let segment):
                    #expect((firstScanError ?? Int.max) > segment, "\(string): \(error), the former walk: \(reference)")
                default:
                    #expect((firstScanError ?? 1) > 0, "\(string): \(error)")
                }
            }
        }
        #expect(scanErrors > 500)
    }

    /// The in-place segment walk keeps the errors and offsets of the former split.
    @Test func segmentWalkErrors() throws {
        let core = try TCString().encoded()
        let disclosed = try TCString(disclosedVendors: [1, 2]).encoded().split(separator: ".")[1]
        #expect(throws: TCStringError.emptySegment(index: 1)) { try TCString(decodingPrecisely: core + ".") }
        #expect(throws: TCStringError.emptySegment(index: 1)) { try TCString(decodingPrecisely: core + ".." + disclosed) }
        #expect(throws: TCStringError.emptySegment(index: 0)) { try TCString(decodingPrecisely: "." + core) }
        #expect(throws: TCStringError.duplicateSegment(type: 1, segment: 2)) {
            try TCString(decodingPrecisely: core + "." + disclosed + "." + disclosed)
        }
        #expect(throws: TCStringError.invalidCharacter("!", offset: core.count + 3)) {
            try TCString(decodingPrecisely: core + "." + disclosed.prefix(2) + "!" + disclosed.dropFirst(3))
        }
        #expect(try TCString(decodingPrecisely: core + "." + disclosed + "==").disclosedVendors == [1, 2])
    }

    /// The segment after the core is decoded into the core's buffer, after its bytes, before any set keeps it: for
    /// random models whose vendor sections are bitfields (sets that keep the buffer) or ranges, with any choice of
    /// optional segments in any order after the core, the decode gives the model back; a DisclosedVendors bitfield
    /// right after a core with a vendor bitfield keeps the same buffer as the core's set (no second buffer).
    @Test func theSegmentAfterTheCoreSharesTheCoresBuffer() throws {
        var random = SplitMix64(state: 0x0009_05E6)
        func scattered(_ maximum: Int, dense: Bool) -> IDSet {
            var set = IDSet()
            for id in 1...maximum where dense ? random.next() & 1 == 1 : random.next() % 40 == 0 { set.insert(id) }
            set.insert(maximum)
            return set
        }
        func buffer(_ set: IDSet?) -> UnsafePointer<UInt8>? {
            guard case .bits(let span)? = set?.storage else { return nil }
            return span.bytes.withUnsafeBufferPointer { $0.baseAddress }
        }
        var shared = 0
        for round in 0..<600 {
            let top = [20, 64, 65, 200, 1_000][round % 5]
            var model = TCString(
                createdDeciseconds: Int64(round), vendorConsents: scattered(top, dense: round % 2 == 0),
                vendorLegitimateInterests: scattered(top, dense: true))
            let optional = Int(random.next() % 8)
            if optional & 1 != 0 { model.disclosedVendors = scattered(top, dense: random.next() & 1 == 0) }
            if optional & 2 != 0 { model.allowedVendors = scattered(top, dense: random.next() & 1 == 0) }
            if optional & 4 != 0 {
                model.publisherTC = PublisherTC(
                    purposeConsents: IDSet([1, 3]), purposeLegitimateInterests: IDSet([2]), numberOfCustomPurposes: 3,
                    customPurposeConsents: IDSet([1]), customPurposeLegitimateInterests: IDSet([3]))
            }
            if round % 3 == 0 {
                model.publisherRestrictions = [
                    PublisherRestriction(purposeID: 2, restrictionType: .requireConsent, vendors: scattered(top, dense: false)),
                ]
            }
            var segments = try model.encoded().split(separator: ".").map(String.init)
            let core = segments.removeFirst()
            segments.shuffle(using: &random)
            let string = ([core] + segments).joined(separator: ".")
            let decoded = try TCString(decodingPrecisely: string)
            #expect(decoded == model, "\(string)")
            if let next = segments.first?.first, "IJKLMNOP".contains(next),  // SegmentType 1: DisclosedVendors
               let core = buffer(decoded.vendorLegitimateInterests), let disclosed = buffer(decoded.disclosedVendors) {
                #expect(core == disclosed, "\(string)")
                shared += 1
            }
        }
        #expect(shared > 20)
    }

    /// The segment after the core is decoded before the core's fields are read; its errors still come after theirs.
    @Test func theCoresErrorsComeBeforeTheNextSegments() throws {
        let core = try TCString(vendorConsents: IDSet(1...90)).encoded()
        #expect(core.first == "C")  // Version 2 in the first 6 bits; "D" is 3
        #expect(throws: TCStringError.unsupportedVersion(3)) { try TCString(decodingPrecisely: "D" + core.dropFirst() + ".!") }
        #expect(throws: TCStringError.unsupportedVersion(3)) { try TCString(decodingPrecisely: "D" + core.dropFirst() + ".") }
        #expect(throws: TCStringError.invalidCharacter("!", offset: core.count + 1)) {
            try TCString(decodingPrecisely: core + ".!")
        }
        #expect(throws: TCStringError.emptySegment(index: 1)) { try TCString(decodingPrecisely: core + ".") }
        let cut = String(core.prefix(40))
        do {
            _ = try TCString(decodingPrecisely: cut + ".!")
            Issue.record("a cut core decoded")
        } catch {
            guard case .truncated(_, _, 0) = error else { Issue.record("\(error)"); return }
        }
    }
}
