/// Builds GPP headers bit by bit from the "Header Encoding" rules of the GPP Consent String Specification,
/// independently of the reader under test.
enum GPPHeaderEncoding {
    /// The Fibonacci code of `value` (≥ 1): one bit per Fibonacci number 1, 2, 3, 5 … (least first), then `1`.
    static func fibonacci(_ value: Int) -> String {
        var terms = [1, 2]
        while terms[terms.count - 1] <= value { terms.append(terms[terms.count - 1] + terms[terms.count - 2]) }
        var code = [Character](repeating: "0", count: terms.count)
        var rest = value
        for index in stride(from: terms.count - 1, through: 0, by: -1) where terms[index] <= rest {
            code[index] = "1"
            rest -= terms[index]
        }
        while code.last == "0" { code.removeLast() }
        return String(code) + "1"
    }

    /// `bits` (a multiple of 6 long) as base64url characters.
    static func base64URL(_ bits: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        precondition(bits.count % 6 == 0)
        return String(stride(from: 0, to: bits.count, by: 6).map { offset in
            alphabet[Int(String(bits.dropFirst(offset).prefix(6)), radix: 2)!]
        })
    }
}
