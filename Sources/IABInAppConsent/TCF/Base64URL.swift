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

    /// The decoding loop over contiguous UTF-8: returns the offset of the first byte outside the alphabet, if any.
    ///
    /// Four characters (three bytes) at a time while whole groups remain: one test per group finds any byte
    /// outside the alphabet (the table marks them 0xFF, every valid value is below 64). The rest of the input — the
    /// last partial group, or everything from a group holding an invalid byte — goes through the bit accumulator,
    /// which stops at the exact byte.
    private static func decodeBytes(_ input: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) -> Int? {
        var count = input.count
        while count > 0, input[count - 1] == UInt8(ascii: "=") { count -= 1 }
        var badByte: Int?
        decodeTable.withUnsafeBufferPointer { table in
            // `count * 6 / 8` rounded up: whole groups write exactly 3 bytes per 4 characters, so every write below
            // stays within it.
            // (Zero-filled storage rather than `Array(unsafeUninitializedCapacity:)`, whose generic storage metadata
            // lookup at run time costs more than zeroing a segment's bytes. The caller's buffer is reused when it is
            // large enough: one allocation for all the segments of a TC string.)
            // Bytes the caller's buffer already holds are overwritten in place, not cleared and refilled first: the
            // loops below write every byte up to `written`, and the buffer is trimmed to it. (`TCString`'s decode
            // hands in a buffer zero-filled once for the whole string; the element-wise refill cost ~390
            // instructions of a 334-character string's decode + map, callgrind.)
            let needed = (count * 6 + 7) / 8
            if bytes.count < needed {
                if bytes.capacity >= needed {
                    bytes.append(contentsOf: repeatElement(0, count: needed - bytes.count))
                } else {
                    bytes = [UInt8](repeating: 0, count: needed)
                }
            }
            let written = bytes.withUnsafeMutableBufferPointer { output in
                var index = 0
                var written = 0
                let wholeGroups = count & ~3
                while index < wholeGroups {
                    let a = table[Int(input[index])], b = table[Int(input[index + 1])]
                    let c = table[Int(input[index + 2])], d = table[Int(input[index + 3])]
                    if (a | b | c | d) & 0xC0 != 0 { break }
                    let group = UInt32(a) &<< 18 | UInt32(b) &<< 12 | UInt32(c) &<< 6 | UInt32(d)
                    output[written] = UInt8(truncatingIfNeeded: group &>> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: group &>> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: group)
                    index += 4
                    written += 3
                }
                // A group boundary is a byte boundary: the accumulator starts empty.
                var accumulator: UInt32 = 0
                var bits = 0
                while index < count {
                    let value = table[Int(input[index])]
                    if value == 0xFF {
                        badByte = index
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
                if badByte == nil, bits > 0 {
                    output[written] = UInt8(truncatingIfNeeded: accumulator << UInt32(8 - bits))
                    written += 1
                }
                return written
            }
            // Every byte is written unless an invalid one stopped the loop (the bytes are then unused).
            if written < bytes.count { bytes.removeLast(bytes.count - written) }
        }
        return badByte
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
