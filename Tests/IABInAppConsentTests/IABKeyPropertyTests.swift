import Testing
@testable import IABInAppConsent

/// Properties of the mapping over random TC strings (models from the codec tests' seeded generator, encoded, then
/// mapped through the public API): every value is checked character by character against the model, and every key
/// set is accepted by the store as it is.
@Suite struct IABKeyPropertyTests {
    /// Checks a binary string against the ids it must encode: `'1'` exactly at the ids, as long as the highest id.
    static func check(_ value: IABValue?, encodes ids: IDSet, _ name: String) {
        guard case .string(let string)? = value else {
            Issue.record("\(name) is \(String(describing: value)), not a string")
            return
        }
        let bytes = Array(string.utf8)
        #expect(bytes.count == (ids.max ?? 0), "\(name) length")
        for (index, byte) in bytes.enumerated() where (byte == UInt8(ascii: "1")) != ids.contains(index + 1) {
            Issue.record("\(name): position \(index) is \(UnicodeScalar(byte))")
            return
        }
    }

    /// The expected restriction character for `vendor` under `purpose`: the lowest type of the entries (types 0–2)
    /// that cover it, `_` when none does.
    static func expectedRestriction(_ model: TCString, purpose: Int, vendor: Int) -> UInt8 {
        let types = model.publisherRestrictions
            .filter { $0.purposeID == purpose && $0.restrictionType != .undefined && $0.vendors.contains(vendor) }
            .map(\.restrictionType.rawValue)
        guard let lowest = types.min() else { return UInt8(ascii: "_") }
        return UInt8(ascii: "0") + UInt8(lowest)
    }

    @Test func randomStringsMapCorrectlyAndStore() throws {
        var generator = StringCodecTests.Generator(state: 2026)
        for round in 0..<150 {
            let model = StringCodecTests.randomModel(&generator)
            let string = try model.encoded()
            let gdprApplies: Bool? = round % 3 == 0 ? nil : round % 3 == 1
            let keys = try IABKeySet(mapping: ConsentStrings(tcString: string), gdprApplies: gdprApplies)

            #expect(keys[.tcString] == .string(string))
            #expect(keys[.cmpSDKID] == .int(model.cmpID))
            #expect(keys[.policyVersion] == .int(model.policyVersion))
            #expect(keys[.gdprApplies] == gdprApplies.map { .int($0 ? 1 : 0) })
            #expect(keys[.useNonStandardTexts] == .int(model.useNonStandardTexts ? 1 : 0))
            #expect(keys[.useNonStandardStacks] == keys[.useNonStandardTexts])
            #expect(keys[.purposeOneTreatment] == .int(model.purposeOneTreatment ? 1 : 0))
            #expect(keys[.publisherCC] == .string(model.publisherCountryCode))
            Self.check(keys[.vendorConsents], encodes: model.vendorConsents, "VendorConsents")
            Self.check(keys[.vendorLegitimateInterests], encodes: model.vendorLegitimateInterests, "VendorLI")
            Self.check(keys[.purposeConsents], encodes: model.purposeConsents, "PurposeConsents")
            Self.check(keys[.purposeLegitimateInterests], encodes: model.purposeLegitimateInterests, "PurposeLI")
            Self.check(keys[.specialFeatureOptIns], encodes: model.specialFeatureOptIns, "SpecialFeatures")
            if let disclosed = model.disclosedVendors {
                Self.check(keys[.disclosedVendors], encodes: disclosed, "DisclosedVendors")
            } else {
                #expect(keys[.disclosedVendors] == nil)
            }
            let publisher = model.publisherTC ?? PublisherTC()
            Self.check(keys[.publisherConsent], encodes: publisher.purposeConsents, "PublisherConsent")
            Self.check(keys[.publisherLegitimateInterests], encodes: publisher.purposeLegitimateInterests, "PublisherLI")
            Self.check(keys[.publisherCustomPurposesConsents], encodes: publisher.customPurposeConsents, "CustomConsents")
            Self.check(
                keys[.publisherCustomPurposesLegitimateInterests], encodes: publisher.customPurposeLegitimateInterests,
                "CustomLI")

            // Publisher restrictions: one key per purpose 1...63 that restricts a vendor, all of one length.
            let effective = model.publisherRestrictions.filter {
                $0.purposeID >= 1 && $0.restrictionType != .undefined && !$0.vendors.isEmpty
            }
            let length = effective.compactMap(\.vendors.max).max() ?? 0
            let restricted = Set(effective.map(\.purposeID))
            let restrictionKeys = keys.values.keys.filter { $0.rawValue.hasPrefix("IABTCF_PublisherRestrictions") }
            #expect(Set(restrictionKeys) == Set(restricted.map { IABKey.publisherRestrictions(purpose: $0) }))
            for purpose in restricted {
                guard case .string(let value)? = keys[.publisherRestrictions(purpose: purpose)] else { continue }
                let bytes = Array(value.utf8)
                #expect(bytes.count == length)
                for (index, byte) in bytes.enumerated()
                where byte != Self.expectedRestriction(model, purpose: purpose, vendor: index + 1) {
                    Issue.record("purpose \(purpose), vendor \(index + 1): \(UnicodeScalar(byte))")
                    break
                }
            }

            // Only spec types, and the store accepts the set as it is.
            for (key, value) in keys.values { #expect(key.expectedKind == value.kind, "\(key)") }
            let store = ConsentStore.inMemory()
            try store.apply(keys, record: nil)
            #expect(store.iabKeys() == keys)
        }
    }

    /// Mutated strings (characters replaced, cut, segments spliced) either fail with a typed error or map to a key set
    /// the store accepts (or refuses as too large); nothing traps.
    @Test func mutatedStringsNeverTrap() throws {
        var generator = StringCodecTests.Generator(state: 99)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ~")
        var seeds: [String] = []
        for _ in 0..<20 { seeds.append(try StringCodecTests.randomModel(&generator).encoded()) }
        var mapped = 0
        for round in 0..<1_500 {
            var characters = Array(seeds[round % seeds.count])
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !characters.isEmpty {
                    characters[Int.random(in: 0..<characters.count, using: &generator)] =
                        alphabet.randomElement(using: &generator) ?? "A"
                }
            case 1:
                characters = Array(characters.prefix(Int.random(in: 0...characters.count, using: &generator)))
            default:
                let other = Array(seeds.randomElement(using: &generator) ?? "")
                characters += ["."] + other.suffix(Int.random(in: 0...other.count, using: &generator))
            }
            let strings = ConsentStrings(
                tcString: String(characters), gppString: round % 5 == 0 ? "DBABM~" + String(characters) : nil)
            let keys: IABKeySet
            do {
                keys = try IABKeySet(mapping: strings)
            } catch {
                // A typed refusal (the mapping throws only IABMappingError) is the expected outcome for most mutants.
                continue
            }
            mapped += 1
            do {
                try ConsentStore.inMemory().apply(keys, record: nil)
            } catch {
                let tooLarge = if case .tooLarge = error { true } else { false }
                #expect(tooLarge, "the store refused a mapped key set: \(error)")
            }
        }
        #expect(mapped > 0)
    }
}
