/// Base64url (RFC 4648 §5) as TC strings use it: no padding on output; trailing `=` accepted on input.
///
/// Spec: TC string format v2, "How should the TC String be encoded?" ("URL-safe base64-encoded"); TCF v1.1:
/// "Padding '=' characters should be omitted".
package enum Base64URL {
    /// The value of each ASCII byte in the alphabet, 0xFF for bytes outside it.
    @usableFromInline
    static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    static let encodeTable: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decodes `string` into bytes (the last partial byte's bits are kept, zero-filled). Trailing `=` is ignored.
    /// - Throws: ``TCStringError/invalidCharacter(_:offset:)`` for any byte outside the alphabet.
    package static func decode(_ string: Substring) throws(TCStringError) -> [UInt8] {
        var bytes: [UInt8] = []
        try decode(string.utf8, into: &bytes, offsetBase: 0)
        return bytes
    }

    /// Decodes `string` into bytes. See ``decode(_:)-(Substring)``.
    package static func decode(_ string: String) throws(TCStringError) -> [UInt8] {
        try decode(Substring(string))
    }

    /// Decodes into `bytes`; on an invalid byte throws with the character offset counted from `offsetBase`.
    static func decode(_ utf8: Substring.UTF8View, into bytes: inout [UInt8], offsetBase: Int) throws(TCStringError) {
        let badByte = utf8.withContiguousStorageIfAvailable { decodeBytes($0, into: &bytes) }
            ?? Array(utf8).withUnsafeBufferPointer { decodeBytes($0, into: &bytes) }
        if let badByte {
            let (bad, characterOffset) = character(in: Substring(utf8), atByte: badByte)
            throw .invalidCharacter(bad, offset: offsetBase + characterOffset)
        }
    }

    /// For each pair of ASCII bytes `first << 7 | second`, their 12 bits `value(first) << 6 | value(second)`; 0x8000
    /// when either is outside the alphabet. (16,384 entries, 32 KB: one lookup decodes two characters.)
    static let pairTable: [UInt16] = {
        var table = [UInt16](repeating: 0x8000, count: 128 * 128)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for (high, first) in alphabet.enumerated() {
            for (low, second) in alphabet.enumerated() {
                table[Int(first) << 7 | Int(second)] = UInt16(high << 6 | low)
            }
        }
        return table
    }()

    /// Zero bytes appended to a decode buffer to give it its length (appending an array is one copy; appending
    /// `repeatElement(0, …)` wrote byte by byte: ~390 instructions of a 334-character string's decode + map).
    private static let zeroBytes = [UInt8](repeating: 0, count: 512)

    /// Makes `bytes.count` at least `count`; the bytes added are zero.
    private static func grow(_ bytes: inout [UInt8], to count: Int) {
        guard bytes.count < count else { return }
        bytes.reserveCapacity(count)
        zeroBytes.withUnsafeBufferPointer { zeros in
            while bytes.count < count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: zeros.prefix(count - bytes.count)))
            }
        }
    }

    /// The decoding loop over contiguous UTF-8: returns the offset of the first byte outside the alphabet, if any.
    /// Trailing `=` is ignored.
    private static func decodeBytes(_ input: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> Int? {
        var count = input.count
        while count > 0, input[count - 1] == UInt8(ascii: "=") { count -= 1 }
        let stop = decodeRun(input, from: 0, to: count, into: &bytes)
        return stop < count ? stop : nil
    }

    /// Decodes the TC string segment that starts at byte `start` of `input` — up to the next `.` or the end, without
    /// finding that end first — into `bytes` from byte `base` (the bytes before it are kept: the decoder puts the
    /// segment after the core after the core's bytes, in one buffer), followed by ``BitReader/padding`` zero bytes (so that every read of the
    /// segment's bits is one 8-byte load). Returns the segment's end (the offset of its `.`, or `input.count`) and
    /// the offset where its data ends (before any trailing `=`); or, as `badByte`, the offset of the first byte that
    /// is outside the alphabet and is not the segment's trailing `=` padding (the bytes are then unusable).
    ///
    /// The same bytes and the same first invalid byte as finding the `.` first and decoding the segment with
    /// ``decode(_:into:offsetBase:)``, in one pass: the run stops at the first byte outside the alphabet, and only
    /// then is that byte looked at (a separate scan for the `.` cost ~670 instructions of a 334-character string's
    /// decode + map, callgrind).
    static func decodeSegment(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, into bytes: inout [UInt8], at base: Int = 0
    ) -> (end: Int, dataEnd: Int, badByte: Int?) {
        let stop = decodeRun(input, from: start, to: input.count, into: &bytes, at: base, padding: BitReader.padding)
        guard stop < input.count else { return (input.count, input.count, nil) }
        switch input[stop] {
        case UInt8(ascii: "."):
            return (stop, stop, nil)
        case UInt8(ascii: "="):
            // Padding when only `=` follow up to the segment's end; otherwise the first `=` is invalid.
            var after = stop + 1
            while after < input.count, input[after] == UInt8(ascii: "=") { after += 1 }
            if after == input.count || input[after] == UInt8(ascii: ".") { return (after, stop, nil) }
            return (after, stop, stop)
        default:
            return (stop, stop, stop)
        }
    }

    /// Decodes `input[start..<end]` into `bytes` (from byte `base`, at most `bytes.count`; the buffer is grown as
    /// needed and trimmed to what was written, the bytes before `base` kept) until the first byte outside the
    /// alphabet, and returns that byte's offset (`end` when there is none). The bits of a last partial byte are kept,
    /// zero-filled.
    ///
    /// Eight characters (six bytes) at a time while whole groups of eight remain: one 8-byte load, one test that all
    /// are ASCII, the four pairs' indices made at once, four lookups of two characters each in ``pairTable`` and one
    /// test that finds any pair outside the alphabet (0x8000; every valid value is below 4,096). The rest of the
    /// input — the last partial group, or everything from a group holding a byte outside the alphabet — goes through
    /// the bit accumulator, which stops at the exact byte. (Four characters a time with one lookup each cost ~10
    /// instructions a character, callgrind.)
    ///
    /// `padding` zero bytes follow the decoded ones (the buffer's count is `base + written + padding`).
    private static func decodeRun(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into bytes: inout [UInt8], at base: Int = 0,
        padding: Int = 0
    ) -> Int {
        // `count * 6 / 8` rounded up: whole groups write exactly 6 bytes per 8 characters, so every write below
        // stays within it. Bytes the caller's buffer already holds are overwritten in place, not cleared and
        // refilled first: the loops below write every byte up to `written`, and the buffer is trimmed to it (the
        // caller's buffer is reused when it is large enough: one allocation for all the segments of a TC string).
        precondition(0 <= start && start <= end && end <= input.count && 0 <= base && base <= bytes.count,
                     "Base64URL.decodeRun: bounds")
        let needed = base + ((end - start) * 6 + 7) / 8 + padding
        grow(&bytes, to: needed)
        var stop = end
        let written = pairTable.withUnsafeBufferPointer { pairs in
            decodeTable.withUnsafeBufferPointer { table in
                bytes.withUnsafeMutableBufferPointer { output in
                    precondition(output.count >= needed && pairs.count == 128 * 128 && table.count == 256)
                    let raw = UnsafeRawBufferPointer(input)
                    let out = UnsafeMutableRawBufferPointer(output)
                    var index = start
                    var written = base
                    let wholeGroups = start + ((end - start) & ~7)
                    while index < wholeGroups {
                        // Byte k of the load is character index + k (little-endian load).
                        let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        if word & 0x8080_8080_8080_8080 != 0 { break }
                        // The four pairs' table indices `first << 7 | second` at once, one per 16-bit lane (every
                        // byte is below 0x80, so `first << 7` stays within its lane).
                        let indices = (word & 0x00FF_00FF_00FF_00FF) &<< 7 | (word &>> 8) & 0x00FF_00FF_00FF_00FF
                        @inline(__always)
                        func pair(_ shift: UInt64) -> UInt64 {
                            UInt64(pairs[Int(truncatingIfNeeded: UInt16(truncatingIfNeeded: indices &>> shift))])
                        }
                        let p0 = pair(0), p1 = pair(16), p2 = pair(32), p3 = pair(48)
                        if (p0 | p1 | p2 | p3) & 0x8000 != 0 { break }
                        let group = p0 &<< 36 | p1 &<< 24 | p2 &<< 12 | p3  // 48 bits, the first byte highest
                        out.storeBytes(
                            of: UInt32(truncatingIfNeeded: group &>> 16).bigEndian, toByteOffset: written, as: UInt32.self)
                        out.storeBytes(
                            of: UInt16(truncatingIfNeeded: group).bigEndian, toByteOffset: written &+ 4, as: UInt16.self)
                        index &+= 8
                        written &+= 6
                    }
                    // A group boundary is a byte boundary: the accumulator starts empty.
                    var accumulator: UInt32 = 0
                    var bits = 0
                    while index < end {
                        let value = table[Int(input[index])]
                        if value == 0xFF {
                            stop = index
                            break
                        }
                        accumulator = (accumulator << 6) | UInt32(value)
                        bits += 6
                        if bits >= 8 {
                            bits -= 8
                            output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                            written += 1
                        }
                        index += 1
                    }
                    if bits > 0 {
                        output[written] = UInt8(truncatingIfNeeded: accumulator << UInt32(8 - bits))
                        written += 1
                    }
                    for index in written..<(written + padding) { output[index] = 0 }
                    return written + padding
                }
            }
        }
        if written < bytes.count { bytes.removeLast(bytes.count - written) }
        return stop
    }

    /// The character containing UTF-8 byte `byteOffset` of `text`, and its offset in characters.
    static func character(in text: Substring, atByte byteOffset: Int) -> (Character, Int) {
        var consumed = 0
        var characterOffset = 0
        for character in text {
            consumed += character.utf8.count
            if consumed > byteOffset { return (character, characterOffset) }
            characterOffset += 1
        }
        return ("\u{FFFD}", characterOffset)
    }

    /// Encodes the first `bitCount` bits of `bytes` as base64url without padding (zero bits fill the last character).
    package static func encode(_ bytes: [UInt8], bitCount: Int) -> String {
        let characters = (bitCount + 5) / 6
        return String(unsafeUninitializedCapacity: characters) { buffer in
            for index in 0..<characters {
                let bit = index * 6
                let byteIndex = bit >> 3
                let high = UInt16(bytes[byteIndex]) << 8
                let low = byteIndex + 1 < bytes.count ? UInt16(bytes[byteIndex + 1]) : 0
                let word = high | low
                let value = (word >> UInt16(10 - (bit & 7))) & 0x3F
                buffer[index] = encodeTable[Int(value)]
            }
            return characters
        }
    }
}
