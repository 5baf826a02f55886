import Foundation

// Fuzz target "ac": the Google Additional Consent parser returns a typed error or a value whose ids are positive.
func fuzzAdditionalConsent(_ bytes: UnsafeRawBufferPointer) {
    guard let input = fuzzString(bytes), let parsed = try? AdditionalConsent(parsing: input) else { return }
    fuzzCheck(parsed.rawValue == input, "AC raw value changed")
    fuzzCheck((parsed.consentedProviders + parsed.disclosedProviders).allSatisfy { $0 > 0 }, "AC id <= 0 accepted")
    fuzzCheck(parsed.version == 1 || parsed.version == 2, "AC version \(parsed.version) accepted")
}

// Fuzz target "gpp": the GPP reader returns a typed error or a value whose sections match its header; each US
// section (ids 7–27) decodes or throws its typed error, and a decoded one has exactly the core fields of the version
// it reports, each list as long as that version defines and at least as long as the string carries.
func fuzzGPP(_ bytes: UnsafeRawBufferPointer) {
    guard let input = fuzzString(bytes), let parsed = try? GPPString(parsing: input) else { return }
    fuzzCheck(parsed.sections.map(\.id) == parsed.sectionIDs, "GPP sections do not follow the header")
    fuzzCheck(parsed.sections.count == input.split(separator: "~", omittingEmptySubsequences: false).count - 1,
              "GPP section count differs from the string")
    _ = try? parsed.tcfEUSection()
    for section in parsed.sections {
        guard let description = GPPUSSection.catalog[section.id],
            let data = try? description.decode(section.string)
        else { continue }
        // The core's bits: 6 per character before the first `.`, trailing `=` (ignored by the decoder) not counted.
        let core = section.string.utf8.prefix { $0 != UInt8(ascii: ".") }
        let characters = core.count - core.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        fuzzCheckUSSection(data, core: characters)
    }
}

private func fuzzCheckUSSection(_ data: GPPUSSectionData, core characters: Int) {
    let section = data.section
    guard let layout = section.layout(version: data.version) else {
        return fuzzCheck(false, "GPP section \(section.id) reports version \(data.version), which it does not define")
    }
    let core = Array(data.fields.prefix(layout.fields.count))
    fuzzCheck(core.map(\.name) == layout.fields.map(\.name), "GPP section \(section.id) fields differ from its layout")
    for (field, value) in zip(layout.fields, core) {
        switch (field.kind, value.value) {
        case let (.intList(count, _), .list(list)):
            fuzzCheck(list.count == count, "GPP section \(section.id) \(field.name) has \(list.count) entries, not \(count)")
        case (.int, .int), (.bool, .bool): break
        default: fuzzCheck(false, "GPP section \(section.id) \(field.name) has the wrong kind")
        }
    }
    if section.hasVersionField {
        fuzzCheck(data.int(GPPUSSection.versionField) == data.version, "GPP section \(section.id) Version key differs")
        // Every layout the core had room for was read: none longer than the reported one fits in its bits.
        let longest = section.layouts.filter { $0.bitCount <= characters * 6 }.map(\.bitCount).max() ?? 0
        fuzzCheck(layout.bitCount >= longest, "GPP section \(section.id) dropped bits of a longer layout")
    }
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
