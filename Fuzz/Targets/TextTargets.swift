import Foundation

// Fuzz target "ac": the Google Additional Consent parser returns a typed error or a value whose ids are positive.
func fuzzAdditionalConsent(_ bytes: UnsafeRawBufferPointer) {
    guard let input = fuzzString(bytes), let parsed = try? AdditionalConsent(parsing: input) else { return }
    fuzzCheck(parsed.rawValue == input, "AC raw value changed")
    fuzzCheck((parsed.consentedProviders + parsed.disclosedProviders).allSatisfy { $0 > 0 }, "AC id <= 0 accepted")
    fuzzCheck(parsed.version == 1 || parsed.version == 2, "AC version \(parsed.version) accepted")
}

// Fuzz target "gpp": the GPP reader returns a typed error or a value whose sections match its header.
func fuzzGPP(_ bytes: UnsafeRawBufferPointer) {
    guard let input = fuzzString(bytes), let parsed = try? GPPString(parsing: input) else { return }
    fuzzCheck(parsed.sections.map(\.id) == parsed.sectionIDs, "GPP sections do not follow the header")
    fuzzCheck(parsed.sections.count == input.split(separator: "~", omittingEmptySubsequences: false).count - 1,
              "GPP section count differs from the string")
    _ = try? parsed.tcfEUSection()
}

// Fuzz target "message": raw bytes as a posted JSON body on every dialect's handler: a typed message or a typed
// error, never a crash; the same bytes as a Foundation object graph give the same verdict.
func fuzzMessage(_ bytes: UnsafeRawBufferPointer) {
    guard let text = fuzzString(bytes) else { return }
    let decoder = CMPMessageDecoder()
    guard let value = try? decoder.value(of: .json(text)) else { return }
    for dialect in CMPDialect.allCases {
        _ = try? decoder.decode(handlerName: dialect.handlerName, body: value)
    }
    let script = JavaScriptLiteral.expression(value)
    let reparsed = try? JSONValue(parsing: script, limits: JSONLimits(maximumBytes: .max, maximumDepth: 64,
                                                                        maximumStringBytes: .max, maximumElements: .max))
    fuzzCheck(reparsed == value, "a JSON value does not survive the JavaScript literal builder")
}
