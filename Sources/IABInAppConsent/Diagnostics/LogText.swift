/// Makes text that may carry what a page sent safe for a log line or an on-screen error message.
///
/// Error messages quote page input (an unknown message type, an invalid character, a US Privacy string). A hostile
/// page could otherwise start a new log line with a newline, reorder what a reader sees with bidirectional overrides
/// (U+202E …), hide text behind zero-width characters, or fill a log with a 64 KiB string.
package enum LogText {
    /// The most Unicode scalars a sanitized text keeps; the rest is counted, not shown.
    package static let maximumScalars = 1_000

    /// `text` with every control (`Cc`), format (`Cf`: bidirectional controls, zero-width characters) and line or
    /// paragraph separator scalar written as `\u{XXXX}`, cut after ``maximumScalars`` scalars.
    package static func sanitized(_ text: String) -> String { UntrustedText.sanitized(text, maximumScalars: maximumScalars) }
}
