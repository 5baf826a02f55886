/// Base64url (RFC 4648 §5) as TC strings use it: no padding on output; trailing `=` accepted on input.
///
/// Spec: TC string format v2, "How should the TC String be encoded?" ("URL-safe base64-encoded"); TCF v1.1:
/// "Padding '=' characters should be omitted".
public enum Base64URL {
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
    public static func decode(_ string: Substring) throws(TCStringError) -> [UInt8] {
        var bytes: [UInt8] = []
        try decode(string.utf8, into: &bytes, offsetBase: 0)
        return bytes
    }

    /// Decodes `string` into bytes. See ``decode(_:)-(Substring)``.
    public static func decode(_ string: String) throws(TCStringError) -> [UInt8] {
        try decode(Substring(string))
    }

    /// Decodes into `bytes`; on an invalid byte throws with the character offset counted from `offsetBase`.
    static func decode(_ utf8: Substring.UTF8View, into bytes: inout [UInt8], offsetBase: Int) throws(TCStringError) {
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "=") {
            end = utf8.index(before: end)
        }
        let characters = utf8[utf8.startIndex..<end]
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity((characters.count * 6 + 7) / 8)
        var accumulator: UInt32 = 0
        var bits = 0
        var offset = offsetBase
        let table = decodeTable
        for byte in characters {
            let value = table[Int(byte)]
            if value == 0xFF {
                let (bad, characterOffset) = character(in: Substring(utf8), atByte: offset - offsetBase)
                throw .invalidCharacter(bad, offset: offsetBase + characterOffset)
            }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
            offset += 1
        }
        if bits > 0 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator << UInt32(8 - bits)))
        }
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
    public static func encode(_ bytes: [UInt8], bitCount: Int) -> String {
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
