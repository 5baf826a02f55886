/// Reads big-endian bit fields from a decoded TC string segment.
struct BitReader {
    let bytes: [UInt8]
    /// The bit of `bytes` where the segment starts (a whole byte: the decoder decodes the segment after the core into
    /// the core's buffer, after its bytes). ``position`` and ``limit`` count from it.
    let base: Int
    /// The bit of `bytes` after the segment's last data bit: `base + limit`.
    let end: Int
    let segment: Int
    /// The bit of `bytes` read next: `base + position`.
    var bit: Int
    /// Whether a set read from this segment keeps `bytes` (a bitfield of more than 64 ids, ``BitSpan``).
    var sharesBytes = false

    init(bytes: [UInt8], limit: Int, segment: Int) {
        self.init(bytes: bytes, startingAt: 0, limit: limit, segment: segment)
    }

    /// A reader of the segment whose bytes start at byte `start` of `bytes`.
    init(bytes: [UInt8], startingAt start: Int, limit: Int, segment: Int) {
        self.bytes = bytes
        self.base = start &* 8
        self.end = start &* 8 &+ limit
        self.segment = segment
        self.bit = start &* 8
    }

    /// Bits that carry data: 6 per base64url character (the rest of the last byte is padding).
    var limit: Int { end &- base }

    /// The bit read next, counted from the segment's start.
    var position: Int {
        get { bit &- base }
        set { bit = base &+ newValue }
    }

    var remaining: Int { end - bit }

    func truncated(_ field: String) -> TCStringError {
        .truncated(field: field, atBit: position, segment: segment)
    }

    /// Reads `count` (≤ 64) bits as an unsigned integer.
    @inline(__always)
    mutating func read(_ count: Int, _ field: @autoclosure () -> String) throws(TCStringError) -> UInt64 {
        guard count <= remaining else { throw truncated(field()) }
        let value = bits(count)
        bit += count
        return value
    }

    /// Zero bytes after a TC string segment's decoded bytes (``Base64URL/decodeSegment(_:from:into:at:)``): every read
    /// of the segment's bits, up to its last one, is then one 8-byte load in ``bits(_:at:in:)`` (without them the reads
    /// of the last eight bytes, where the publisher restrictions are, went byte by byte: callgrind).
    static let padding = 8

    /// The `count` (0…64) bits at ``bit``, big-endian. Requires `bit + count <= end`, and `end` is at most
    /// `bytes.count * 8` (a decoded segment's last byte holds its last bits).
    ///
    /// Where eight bytes follow `bit`'s byte, one unaligned big-endian load (and a ninth byte when the field
    /// crosses it) replaces the byte-by-byte loop. Both reads are bounds-checked against `bytes`.
    @inline(__always)
    func bits(_ count: Int) -> UInt64 {
        bytes.withUnsafeBytes { BitReader.bits(count, at: bit, in: $0) }
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
            bit += count
            return IDSet(word: word)
        }
        // In bounds: `count <= remaining` was checked, and `end <= bytes.count * 8`. The set keeps the bytes (no
        // words are made: ``BitSpan``) when its highest id is above 64, and this segment's bytes must then stay as
        // they are: `sharesBytes` tells the decoder to give the next segment a buffer of its own.
        let set = IDSet(bitfield: bytes, offset: bit, count: count)
        if case .bits = set.storage { sharesBytes = true }
        bit += count
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
        // Both letters in one read when both are there (34 instructions a decode, callgrind). A field cut short is
        // read letter by letter and throws where it always did: at the first letter's bit, or at the second's when
        // only the first fits.
        let first: UInt64, second: UInt64
        if remaining >= 12 {
            let both = read12()
            (first, second) = (both &>> 6, both & 0x3F)
        } else {
            first = try read(6, field())
            second = try read(6, field())
        }
        guard first < 26, second < 26 else {
            throw .invalidFieldValue(field: field(), value: "letter codes \(first), \(second) (a = 0 … z = 25)")
        }
        let index = Int(truncatingIfNeeded: first) &* 26 &+ Int(truncatingIfNeeded: second)
        return BitReader.letterPairs[index]
    }

    /// 12 bits, unchecked: the caller checked `remaining >= 12`.
    @inline(__always)
    private mutating func read12() -> UInt64 {
        let value = bits(12)
        bit &+= 12
        return value
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
    /// In a padded segment (``padding``: every segment the decoder reads) one pass, ``scanEntries(_:from:limit:count:maximum:end:)``,
    /// reads and checks the entries with its state in locals and one 8-byte load per field, and sets their ids in an
    /// inline word (1–64: the usual restriction of a short string allocates nothing) and in words on the stack.
    /// Anything it does not take — an entry cut short, a zero id, an end before its start, an id above `maximum`, an
    /// id above 8,192, or bytes without padding — goes to two passes: the first reads and checks every entry through
    /// the reader and throws the entry's error (so the errors and their order are this loop's alone), keeping the
    /// highest id and ids 1–64; when an id is above 64 the second reads the entries again, unchecked, into words sized
    /// for the highest id. (The former single pass set bits through a closure that captured the reader, into words
    /// sized for the vendor sections' highest id, then trimmed: ~67 instructions an entry, callgrind.) A single-id
    /// entry (IsARange 0), the common one in restrictions, is read as one 17-bit field.
    mutating func ranges(_ field: @autoclosure () -> String, maximum: Int?) throws(TCStringError) -> IDSet {
        let entries = try int(12, "\(field()) NumEntries")
        guard entries > 0 else { return IDSet() }
        let first = bit
        // Every bit of the segment is below `end`, so each 8-byte load at a bit's byte stays within the padding.
        let segmentEnd = end
        let padded = segmentEnd &>> 3 &+ BitReader.padding <= bytes.count
        var after = first
        if padded, let set = bytes.withUnsafeBytes({ raw in
            BitReader.scanEntries(
                raw, from: first, limit: segmentEnd, count: entries, maximum: maximum ?? Int.max, end: &after)
        }) {
            bit = after
            return set
        }
        var small: UInt64 = 0
        var highest = 0
        for _ in 0..<entries {
            let isRange: Bool
            let start: Int
            if remaining >= 17 {
                // IsARange and StartOrOnlyVendorId in one read (the checked reads below near the end give the same
                // values, or the same truncation error).
                let head = bits(17)
                bit += 17
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
            if end > highest { highest = end }
            if end <= 64 { small |= BitReader.mask(start, end) }
        }
        guard highest > 64 else { return IDSet(word: small) }
        // Ids are 16-bit: at most 65,535 = IDSet.maximumID, so at most `IDSet.maximumWordCount` words.
        var words = BitReader.zeroedWords((highest &+ 63) &>> 6)
        let last = bit
        bytes.withUnsafeBytes { raw in
            words.withUnsafeMutableBufferPointer { buffer in
                // The first pass read these bits, all below `last <= end <= raw.count * 8`, and checked every id to
                // be in 1...highest: `setBits` and the one-bit store below stay within the words.
                precondition(last <= raw.count &* 8 && buffer.count &* 64 >= highest, "BitReader.ranges: bounds")
                @inline(__always)
                func load(_ count: Int, at bit: Int) -> UInt64 {
                    padded ? BitReader.paddedBits(count, at: bit, in: raw) : BitReader.bits(count, at: bit, in: raw)
                }
                var at = first
                for _ in 0..<entries {
                    let head = load(17, at: at)
                    at &+= 17
                    let start = Int(truncatingIfNeeded: head & 0xFFFF)
                    if head >> 16 != 0 {
                        let end = Int(truncatingIfNeeded: load(16, at: at))
                        at &+= 16
                        IDSet.setBits(start...end, in: buffer)
                    } else {
                        buffer[(start &- 1) &>> 6] |= 1 &<< UInt64((start &- 1) & 63)
                    }
                }
            }
        }
        return IDSet(words: words)
    }

    /// Ids `start...end` (within 1–64) as bits of one word.
    @inline(__always)
    static func mask(_ start: Int, _ end: Int) -> UInt64 {
        (~0 &<< UInt64(start &- 1)) & (~0 &>> UInt64(64 &- end))
    }

    /// ``bits(_:at:in:)`` in a padded segment (8 bytes follow the byte of every bit below its limit: ``padding``):
    /// one 8-byte load, no bounds branch. Requires `bit >> 3 + 8 <= raw.count`.
    @inline(__always)
    static func paddedBits(_ count: Int, at bit: Int, in raw: UnsafeRawBufferPointer) -> UInt64 {
        entryWord(raw, at: bit) &>> UInt64(64 &- count)
    }

    /// How many words ``scanIntoWords(_:at:limit:left:maximum:small:end:)`` sets ids in (on the stack): ids up to
    /// 8,192. A restriction or vendor section with a higher id is left to the two passes.
    static let scanWords = 128

    /// The 64 bits from bit `at` of a padded segment, the bit at `at` highest: one load holds a whole range entry
    /// (its 33 bits start within the load's first byte). Requires `at >> 3 + 8 <= raw.count` (`at <= limit`).
    @inline(__always)
    static func entryWord(_ raw: UnsafeRawBufferPointer, at: Int) -> UInt64 {
        UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: at &>> 3, as: UInt64.self)) &<< UInt64(at & 7)
    }

    /// ``ranges(_:maximum:)`` in one pass over a padded segment (`limit >> 3 + padding <= raw.count`, `start <= limit`),
    /// its state in locals: `count` entries from bit `start`, each read with one load (``entryWord(_:at:)``: IsARange,
    /// StartOrOnlyVendorId and EndVendorId at once). While the ids are single and in 1–64 (a short string's usual
    /// restriction) each entry is one load, one check of the entry's end against `limit` and one unsigned compare
    /// (a zero id, an id above `maximum` and an id above 64 all fail it), its bit set in an inline word; at any other
    /// entry the rest goes to ``scanIntoWords(_:at:limit:left:maximum:small:end:)`` from that entry. The set, with
    /// `end` the entries' end; `nil` as soon as an entry would fail a check of the checked loop (cut short before
    /// `limit`, a zero id, an end before its start, an id above `maximum`) or has an id above 64 × ``scanWords``: the
    /// two passes then read them all again (and the checked one throws). Entries are read past `limit` only within
    /// the padding (every load starts at a bit `<= limit`), and such an entry is never taken.
    static func scanEntries(
        _ raw: UnsafeRawBufferPointer, from start: Int, limit: Int, count: Int, maximum: Int, end: inout Int
    ) -> IDSet? {
        precondition(limit &>> 3 &+ padding <= raw.count && 0 <= start && start <= limit && maximum >= 0,
                     "BitReader.scanEntries: not a padded segment")
        var at = start
        var small: UInt64 = 0
        var left = count
        // An id `id` is taken here when `id - 1 < smallLimit` as unsigned: 1 <= id <= min(maximum, 64).
        let smallLimit = UInt(Swift.min(maximum, 64))
        while left > 0 {
            let head = entryWord(raw, at: at) &>> 47  // IsARange, then StartOrOnlyVendorId
            let index = Int(truncatingIfNeeded: head) &- 1  // a range's IsARange bit makes it >= 65,535
            guard at &+ 17 <= limit, UInt(bitPattern: index) < smallLimit else {
                return scanIntoWords(raw, at: at, limit: limit, left: left, maximum: maximum, small: small, end: &end)
            }
            small |= 1 &<< UInt64(index)
            at &+= 17
            left &-= 1
        }
        end = at
        return IDSet(word: small)
    }

    /// The rest of ``scanEntries(_:from:limit:count:maximum:end:)`` from the entry at bit `at` (`left` entries;
    /// `small` holds the ids 1–64 before it): ids set in ``scanWords`` words on the stack (1,024 bytes, the size
    /// `withUnsafeTemporaryAllocation` puts on the stack without asking the thread for its stack's bounds), word 0
    /// starting as `small`, the others zeroed as the highest id grows (the bounds check only then: every word below
    /// `zeroed` is in the buffer), copied into the set's words at the end (kept inline when they are one word).
    static func scanIntoWords(
        _ raw: UnsafeRawBufferPointer, at start: Int, limit: Int, left: Int, maximum: Int, small: UInt64,
        end: inout Int
    ) -> IDSet? {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: scanWords) { words -> IDSet? in
            precondition(words.count >= scanWords, "BitReader.scanIntoWords: words")
            let base = words.baseAddress!
            base.initialize(to: small)
            var zeroed = 1  // words[0..<zeroed] are initialised
            var at = start
            var left = left
            let maximum = UInt(bitPattern: maximum)
            // Makes words `0...word` initialised (zeroing the new ones); `false` when `word` is past the stack words.
            @inline(__always)
            func cover(_ word: Int) -> Bool {
                if word >= zeroed {
                    guard word < scanWords else { return false }
                    (base + zeroed).initialize(repeating: 0, count: word &+ 1 &- zeroed)
                    zeroed = word &+ 1
                }
                return true
            }
            while left > 0 {
                let word = entryWord(raw, at: at)
                let head = word &>> 47
                let first = Int(truncatingIfNeeded: head & 0xFFFF)
                if head &>> 16 == 0 {
                    at &+= 17
                    // 1 <= first <= maximum in one unsigned compare.
                    let index = first &- 1
                    guard at <= limit, UInt(bitPattern: index) < maximum else { return nil }
                    let word = index &>> 6
                    guard cover(word) else { return nil }
                    base[word] |= 1 &<< UInt64(index & 63)
                } else {
                    let last = Int(truncatingIfNeeded: (word &>> 31) & 0xFFFF)
                    at &+= 33
                    // 1 <= first <= last in one unsigned compare, then last <= maximum.
                    guard at <= limit, UInt(bitPattern: first &- 1) < UInt(bitPattern: last),
                          UInt(bitPattern: last) <= maximum else { return nil }
                    guard cover((last &- 1) &>> 6) else { return nil }
                    IDSet.setBits(first...last, in: UnsafeMutableBufferPointer(start: base, count: zeroed))
                }
                left &-= 1
            }
            end = at
            // Word `zeroed - 1` holds the highest id (it was zeroed for it): the words are normalised. Only ranges
            // within 1–64 (which the inline word's loop leaves here) end with one word.
            guard zeroed > 1 else { return IDSet(word: base[0]) }
            return IDSet(normalizedWords: Array(UnsafeBufferPointer(start: base, count: zeroed)))
        }
    }
}
