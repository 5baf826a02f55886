/// The ids of a TC string bitfield kept as the decoded segment's bits: bit `offset + i` of `bytes` (most significant
/// bit of each byte first, the string's own order) is id `i + 1`, for ids `1...max`.
///
/// ``IDSet`` keeps a vendor bitfield of more than 64 ids in this form (its `bits` storage): decoding a vendor section
/// then costs no allocation and no pass over its bits, and the IAB in-app binary string (`'1'` at index *n* for id
/// *n + 1*, in the same order as the bits) is written straight from the bytes, eight characters per table lookup.
/// Every other read of the set (membership, count, iteration, equality, hashing) sees the same ids as the words
/// form; a mutation turns the set into words first.
///
/// Invariants (checked by `IDSet._invariantViolations()` in debug builds): `max` is in `65...IDSet.maximumID`
/// (fewer ids are kept inline), bit `offset + max - 1` is set (so `max` is the highest id), and
/// `offset + max <= bytes.count * 8` (every bit read is in `bytes`). The bytes are never written after the span is
/// made: the decoder starts a new buffer for the next segment when a span holds the current one.
@usableFromInline
struct BitSpan: Sendable {
    /// The decoded bytes of one TC string segment, shared with the decoder and the other spans of that segment.
    @usableFromInline
    let bytes: [UInt8]
    /// The bit of `bytes` that is id 1.
    @usableFromInline
    let offset: UInt32
    /// The highest id: its bit, `offset + max - 1`, is set.
    @usableFromInline
    let max: UInt16

    /// A span of `max` ids from bit `offset` of `bytes`. The caller guarantees the invariants.
    init(bytes: [UInt8], offset: Int, max: Int) {
        self.bytes = bytes
        self.offset = UInt32(truncatingIfNeeded: offset)
        self.max = UInt16(truncatingIfNeeded: max)
    }

    /// Whether id `id` (any integer) is in the span.
    @inlinable
    func contains(_ id: Int) -> Bool {
        guard id >= 1, id <= Int(max) else { return false }
        let bit = Int(offset) &+ id &- 1
        return bytes[bit &>> 3] & (0x80 &>> UInt8(bit & 7)) != 0
    }

    /// The words of the set (bit *i* of word *w* is id `w * 64 + i + 1`; the last word is not zero), in temporary
    /// storage (on the stack for the sizes a TC string has) for the duration of `body`.
    func withWords<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        let max = Int(self.max)
        let wordCount = (max &+ 63) &>> 6
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: wordCount) { words in
            bytes.withUnsafeBytes { raw in
                precondition(Int(offset) &+ max <= raw.count &* 8, "BitSpan: bits beyond the bytes")
                for index in 0..<wordCount {
                    let take = Swift.min(64, max &- index &* 64)
                    let bits = BitReader.bits(take, at: Int(offset) &+ index &* 64, in: raw)
                    words.initializeElement(at: index, to: (bits &<< UInt64(64 &- take)).bitReversed)
                }
            }
            defer { words.deinitialize() }
            return body(UnsafeBufferPointer(words))
        }
    }

    /// The words as an array (see ``withWords(_:)``), for a set about to be changed or iterated.
    var words: [UInt64] { withWords { Array($0) } }

    /// The IAB in-app binary string of the ids: `max` characters, `'1'` at index *n* when id *n + 1* is in the set.
    /// The bits are in character order, so each byte of them is eight characters of ``asciiBits``.
    var binaryString: String {
        let max = Int(self.max)
        return String(unsafeUninitializedCapacity: max) { buffer in
            bytes.withUnsafeBytes { raw in
                BitSpan.asciiBits.withUnsafeBufferPointer { table in
                    // Every 8-byte store ends at `done + 8 <= max <= buffer.count`; every read is within the span's
                    // bits, which lie in `raw` (the type's invariant, checked here once).
                    precondition(buffer.count >= max && Int(offset) &+ max <= raw.count &* 8, "BitSpan: out of bounds")
                    let out = UnsafeMutableRawBufferPointer(buffer)
                    @inline(__always)
                    func store(_ byte: UInt64, at index: Int) {
                        let characters = table[Int(truncatingIfNeeded: byte & 0xFF)].littleEndian
                        out.storeBytes(of: characters, toByteOffset: index, as: UInt64.self)
                    }
                    // 56 characters per 8-byte load while the load stays within `raw`: shifted by the span's bit
                    // offset in its first byte, the load's top 56 bits are the next 56 ids' bits, 7 table stores.
                    let shift = UInt64(Int(offset) & 7)
                    var byte = Int(offset) &>> 3
                    var done = 0
                    while done &+ 56 <= max, byte &+ 8 <= raw.count {
                        let word = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: byte, as: UInt64.self)) &<< shift
                        store(word &>> 56, at: done)
                        store(word &>> 48, at: done &+ 8)
                        store(word &>> 40, at: done &+ 16)
                        store(word &>> 32, at: done &+ 24)
                        store(word &>> 24, at: done &+ 32)
                        store(word &>> 16, at: done &+ 40)
                        store(word &>> 8, at: done &+ 48)
                        done &+= 56
                        byte &+= 7
                    }
                    while done &+ 8 <= max {
                        store(BitReader.bits(8, at: Int(offset) &+ done, in: raw), at: done)
                        done &+= 8
                    }
                    while done < max {
                        let set = BitReader.bits(1, at: Int(offset) &+ done, in: raw) != 0
                        buffer[done] = set ? UInt8(ascii: "1") : UInt8(ascii: "0")
                        done &+= 1
                    }
                }
            }
            return max
        }
    }

    /// For each byte value, the eight ASCII characters `'0'`/`'1'` of its bits, most significant bit first in memory
    /// order (the order of a TC string bitfield and of the binary string alike).
    private static let asciiBits: [UInt64] = (0..<256).map { byte in
        var value: UInt64 = 0
        for index in 0..<8 {
            let character = UInt64(byte >> (7 - index) & 1) + UInt64(UInt8(ascii: "0"))
            value |= character << UInt64(index * 8)
        }
        return value
    }

    /// The highest id among the `count` bits from bit `offset` of `raw` (the bit of id *i* is `offset + i - 1`), or 0
    /// when none is set: scans from the end, 64 bits a step. Requires `offset + count <= raw.count * 8`.
    static func highestID(in raw: UnsafeRawBufferPointer, offset: Int, count: Int) -> Int {
        var end = count
        while end > 0 {
            let take = Swift.min(64, end)
            let chunk = BitReader.bits(take, at: offset &+ end &- take, in: raw)  // bit `end - 1` is the lowest
            if chunk != 0 { return end &- chunk.trailingZeroBitCount }
            end &-= take
        }
        return 0
    }
}
