import Foundation

/// Builds JavaScript source that carries data. Every value goes through a JSON encoder, never string interpolation.
///
/// JSON text is a valid JavaScript expression (ES2019 made U+2028/U+2029 legal in string literals); on top of that
/// `<`, `>`, `&`, U+2028 and U+2029 are written as `\u` escapes so that the output is also safe inside an HTML
/// `<script>` element and in engines older than ES2019.
package enum JavaScriptLiteral {
    /// The JavaScript expression for `value` (``IABInAppConsent/JSONValue/scriptSafeJSONText``: a non-finite number is
    /// `null`).
    package static func expression(_ value: JSONValue) -> String {
        value.scriptSafeJSONText
    }

    /// The JavaScript string literal for `string`.
    package static func string(_ string: String) -> String {
        JSONValue.scriptSafeStringLiteral(string)
    }
}
