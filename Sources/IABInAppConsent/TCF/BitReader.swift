/// Reads big-endian bit fields from a decoded TC string segment.
struct BitReader {
    let bytes: [UInt8]
    /// Bits that carry data: 6 per base64url character (the rest of the last byte is padding).
    let limit: Int
    let segment: Int
    var position = 0
    /// Whether a set read from this segment keeps `bytes` (a bitfield of more than 64 ids, ``BitSpan``).
    var sharesBytes = false

    init(bytes: [UInt8], limit: Int, segment: Int) {
        self.bytes = bytes
        self.limit = limit
        self.segment = segment
    }

    var remaining: Int { limit - position }

    func truncated(_ field: String) -> TCStringError {
        .truncated(field: field, atBit: position, segment: segment)
    }

    /// Reads `count` (≤ 64) bits as an unsigned integer.
    @inline(__always)
    mutating func read(_ count: Int, _ field: @autoclosure () -> String) throws(TCStringError) -> UInt64 {
        guard count <= remaining else { throw truncated(field()) }
        let value = bits(count)
        position += count
        return value
    }

    /// The `count` (0…64) bits at `position`, big-endian. Requires `position + count <= limit`, and `limit` is at
    /// most `bytes.count * 8` (a decoded segment's last byte holds its last bits).
    ///
    /// Where eight bytes follow `position`'s byte, one unaligned big-endian load (and a ninth byte when the field
    /// crosses it) replaces the byte-by-byte loop. Both reads are bounds-checked against `bytes`.
    @inline(__always)
    func bits(_ count: Int) -> UInt64 {
        bytes.withUnsafeBytes { BitReader.bits(count, at: position, in: $0) }
    }

    /// ``bits(_:)`` at bit `position` of `raw` (the decoded segment's bytes). Requires `position + count <= limit`
    /// (so `<= raw.count * 8`); the byte-by-byte tail reads are bounds-checked like `Array`'s subscript.
    @inline(__always)
    static func bits(_ count: Int, at position: Int, in raw: UnsafeRawBufferPointer) -> UInt64 {
        guard count > 0 else { return 0 }
        let byteIndex = position &>> 3
        let shift = position & 7
        if byteIndex <= raw.count &- 8 {
            var word = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: byteIndex, as: UInt64.self))
            word = word &<< UInt64(shift)
            if shift + count > 64 {
                // The field's last bit is in byte `byteIndex + 8`, which exists: position + count <= raw.count * 8.
                precondition(byteIndex + 8 < raw.count, "BitReader.bits: read past the segment")
                word |= UInt64(raw[byteIndex + 8]) &>> UInt64(8 - shift)
            }
            return word &>> UInt64(64 - count)
        }
        var value: UInt64 = 0
        var left = count
        var position = position
        while left > 0 {
            precondition(position >> 3 < raw.count, "BitReader.bits: read past the segment")
            let byte = UInt64(raw[position >> 3])
            let available = 8 - (position & 7)
            let take = Swift.min(available, left)
            let bits = (byte >> UInt64(available - take)) & ((1 << UInt64(take)) - 1)
            value = (value << UInt64(take)) | bits
            position += take
            left -= take
        }
        return value
    }

    @inline(__always)
    mutating func int(_ count: Int, _ field: @autoclosure () -> String) throws(TCStringError) -> Int {
        Int(try read(count, field()))
    }

    @inline(__always)
    mutating func bool(_ field: @autoclosure () -> String) throws(TCStringError) -> Bool {
        try read(1, field()) == 1
    }

    /// Reads a bitfield of `count` bits where the first bit is id 1.
    mutating func bitfield(_ count: Int, _ field: @autoclosure () -> String) throws(TCStringError) -> IDSet {
        guard count <= remaining else { throw truncated(field()) }
        if count <= 64 {
            // Ids 1–64 (purposes, special features): one word, kept inline by the set.
            let word = (bits(count) << UInt64(64 - count)).bitReversed
            position += count
            return IDSet(word: word)
        }
        // In bounds: `count <= remaining` was checked, and `limit <= bytes.count * 8`. The set keeps the bytes (no
        // words are made: ``BitSpan``) when its highest id is above 64, and this segment's bytes must then stay as
        // they are: `sharesBytes` tells the decoder to give the next segment a buffer of its own.
        let set = IDSet(bitfield: bytes, offset: position, count: count)
        if case .bits = set.storage { sharesBytes = true }
        position += count
        return set
    }

    /// `count` zero words. (Reserved, then appended: `[UInt64](repeating:count:)` and
    /// `Array(unsafeUninitializedCapacity:)` allocate through the generic, unspecialised array allocator, which looks
    /// up the storage metadata at run time: ~530 instructions for a restriction's words, callgrind, more than
    /// decoding its entries. Appending from a static block of zeros instead of `repeatElement` was tried: +50
    /// instructions a call.)
    @inline(__always)
    static func zeroedWords(_ count: Int) -> [UInt64] {
        var words: [UInt64] = []
        words.reserveCapacity(count)
        words.append(contentsOf: repeatElement(0, count: count))
        return words
    }

    /// Reads two letters of 6 bits each (a = 0 … z = 25), upper case.
    mutating func letters(_ field: @autoclosure () -> String) throws(TCStringError) -> String {
        let first = try read(6, field())
        let second = try read(6, field())
        guard first < 26, second < 26 else {
            throw .invalidFieldValue(field: field(), value: "letter codes \(first), \(second) (a = 0 … z = 25)")
        }
        let index = Int(truncatingIfNeeded: first) &* 26 &+ Int(truncatingIfNeeded: second)
        return BitReader.letterPairs[index]
    }

    /// `AA` … `ZZ` (index `first * 26 + second`), built once: each is a small (inline) string, so ``letters(_:)``
    /// neither allocates nor validates UTF-8 (building it from an array did both, twice per decode).
    static let letterPairs: [String] = (0..<676).map { (index: Int) -> String in
        let first = UInt8(ascii: "A") + UInt8(index / 26)
        let second = UInt8(ascii: "A") + UInt8(index % 26)
        return String(decoding: [first, second], as: UTF8.self)
    }

    /// Reads a vendor section (MaxVendorId, IsRangeEncoding, bitfield or range entries).
    mutating func vendorSection(_ field: @autoclosure () -> String) throws(TCStringError) -> IDSet {
        let maxVendorID = try int(16, "\(field()) MaxVendorId")
        if try !bool("\(field()) IsRangeEncoding") {
            return try bitfield(maxVendorID, "\(field()) BitField")
        }
        return try ranges(field(), maximum: maxVendorID)
    }

    /// Reads `NumEntries` (12 bits) range entries.
    ///
    /// One checked pass that sets each entry's bits through one pointer into words zeroed once, then drops the words
    /// above the highest id. The words are sized for `maximum` (a vendor section's MaxVendorId); without one (a
    /// publisher restriction) for `expected`, the vendor sections' highest id, and grown to the 16-bit id limit (8 KB)
    /// only when an entry goes above them. Before, each entry was read twice with checks (a sizing pass, then the
    /// checked pass) and set through `Array`'s subscript (a growth and a uniqueness check each): ~170 instructions an
    /// entry, the most of a long string's decode (callgrind); then every restriction zeroed 8 KB for the id limit and
    /// kept them (DHAT: 44.6 KB a decode of issue 38's 2,476-character string, 32 KB of them for its four
    /// restrictions). A single-id entry (IsARange 0), the common one in restrictions, is read as one 17-bit field and
    /// sets its one bit in place, without `setBits`' range masks.
    mutating func ranges(_ field: @autoclosure () -> String, maximum: Int?, expected: Int = 0) throws(TCStringError) -> IDSet {
        let entries = try int(12, "\(field()) NumEntries")
        guard entries > 0 else { return IDSet() }
        // Ids are 16-bit (at most 65,535 < IDSet.maximumID), and an id above `maximum` is refused before it is set.
        let wordCount = Swift.min(maximum.map { ($0 + 63) / 64 } ?? Swift.max(1, (expected + 63) / 64), IDSet.maximumWordCount)
        // Ids 1–64 are set in one inline word until an entry goes above 64: only then are the words allocated (a
        // restriction of low vendor ids, as in a short string, allocates nothing: callgrind, ~500 instructions).
        var small: UInt64 = 0
        var words: [UInt64] = []
        var highest = 0
        var done = 0
        while done < entries {
            var failure: TCStringError?
            // An entry above the words (only without `maximum`): read and checked, set once the words have grown.
            var outgrown: ClosedRange<Int>?
            let capacity = words.count * 64
            words.withUnsafeMutableBufferPointer { buffer in
                do throws(TCStringError) {
                    while done < entries {
                        let isRange: Bool
                        let start: Int
                        if remaining >= 17 {
                            // IsARange and StartOrOnlyVendorId in one read (the checked reads below near the end give
                            // the same values, or the same truncation error).
                            let head = bits(17)
                            position += 17
                            isRange = head >> 16 != 0
                            start = Int(truncatingIfNeeded: head & 0xFFFF)
                        } else {
                            isRange = try bool("\(field()) IsARange")
                            start = try int(16, "\(field()) StartOrOnlyVendorId")
                        }
                        let end = isRange ? try int(16, "\(field()) EndVendorId") : start
                        guard start >= 1 else { throw .zeroID(field: field()) }
                        guard start <= end else { throw .rangeEndBeforeStart(field: field(), start: start, end: end) }
                        if let maximum, end > maximum { throw .idAboveMaximum(field: field(), id: end, maximum: maximum) }
                        highest = Swift.max(highest, end)
                        done += 1
                        if end > capacity {
                            if capacity == 0, end <= 64 {
                                small |= (~0 &<< UInt64(start &- 1)) & (~0 &>> UInt64(64 &- end))
                                continue
                            }
                            outgrown = start...end
                            return
                        }
                        if isRange {
                            IDSet.setBits(start...end, in: buffer)
                        } else {
                            // One bit, set in place: `start - 1` is below `capacity`, the words' bits.
                            buffer[(start &- 1) &>> 6] |= 1 &<< UInt64((start &- 1) & 63)
                        }
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            if let outgrown {
                if words.isEmpty {
                    words = BitReader.zeroedWords(wordCount)
                    words[0] = small
                }
                if outgrown.upperBound > words.count * 64 {
                    words.append(contentsOf: repeatElement(0, count: IDSet.maximumWordCount - words.count))
                }
                words.withUnsafeMutableBufferPointer { IDSet.setBits(outgrown, in: $0) }
            }
        }
        guard !words.isEmpty else { return IDSet(word: small) }
        words.removeLast(words.count - (highest + 63) / 64)
        return IDSet(words: words)
    }
}
