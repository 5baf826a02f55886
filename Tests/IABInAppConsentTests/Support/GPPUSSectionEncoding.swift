/// Builds GPP US section strings bit by bit, independently of the decoder under test: each value written most
/// significant bit first in its width, the bits padded with `0` and written in base64url (GPP "Consent String
/// Specification", "Section Encoding" and "Creating a GPP String").
enum GPPUSSectionEncoding {
    /// How the bits of a sub-section are padded before base64url.
    enum Padding: CaseIterable, Sendable {
        /// To a multiple of 6 bits, as the specification says.
        case toSixBits
        /// First to whole bytes, then to a multiple of 6 bits, as the IAB reference encoders (iabgpp-es, iabgpp-java,
        /// `CompressedBase64UrlEncoder`) do: `BAAAAAAAAQA` (66 bits) for a 60-bit usnat version 1 core.
        case toBytesThenSixBits
    }

    /// `value` as `width` bits, most significant first.
    static func bits(_ value: Int, width: Int) -> String {
        precondition(value >= 0 && value < 1 << width)
        return String((0..<width).map { value >> (width - 1 - $0) & 1 == 1 ? "1" : "0" })
    }

    /// The base64url text of `bits`, padded as `padding` says.
    static func subsection(_ bits: String, padding: Padding) -> String {
        var padded = bits
        if padding == .toBytesThenSixBits { while padded.count % 8 != 0 { padded += "0" } }
        while padded.count % 6 != 0 { padded += "0" }
        return GPPHeaderEncoding.base64URL(padded)
    }

    /// A core sub-section from `(width, value)` pairs in encoding order.
    static func core(_ values: [(width: Int, value: Int)], padding: Padding) -> String {
        subsection(values.map { bits($0.value, width: $0.width) }.joined(), padding: padding)
    }

    /// The GPC sub-section: `SubsectionType` 1 in 2 bits, then the `Gpc` bit (iabgpp-es writes `YA` for true).
    static func gpc(_ value: Bool, padding: Padding) -> String {
        subsection("01" + (value ? "1" : "0"), padding: padding)
    }
}
