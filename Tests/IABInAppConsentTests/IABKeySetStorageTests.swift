import Testing
@testable import IABInAppConsent

/// `IABKeySet`'s own entry buffer (`IABKeySet.Entries`, copied on write) and its known-key entries behave as the
/// `[(IABKey, IABValue)]` they replaced: the tests compare every step with an array of pairs.
@Suite struct IABKeySetStorageTests {
    /// Custom keys and the known keys (the TCF keys the mapping writes, the restriction keys) alike.
    static func key(_ index: Int) -> IABKey {
        index % 3 == 0 ? IABKey(rawValue: "Custom_\(index)") : IABKeySet.knownKeys[index % IABKeySet.knownKeys.count]
    }

    static func pairs(_ keys: IABKeySet) -> [String] {
        keys.map { "\($0.key.rawValue)=\($0.value)" }
    }

    /// Appends, replacements, removals and copies, step by step against an array of pairs; a copy taken before a
    /// change keeps its entries.
    @Test func copiesOnWriteAndMatchesAnArray() {
        var random = SplitMix64(state: 0xC0_57_0E)
        var keys = IABKeySet(minimumCapacity: 2)
        var model: [(IABKey, IABValue)] = []
        var snapshots: [(IABKeySet, [String])] = []
        for step in 0..<600 {
            let key = Self.key(Int(random.next() % 90))
            let value: IABValue = random.next() % 2 == 0 ? .int(step) : .string(String(repeating: "x", count: step % 40))
            if step % 25 == 0 { snapshots.append((keys, Self.pairs(keys))) }
            switch random.next() % 4 {
            case 0, 1:
                keys[key] = value
                if let index = model.firstIndex(where: { $0.0 == key }) { model[index].1 = value } else {
                    model.append((key, value))
                }
            case 2:
                keys[key] = nil
                model.removeAll { $0.0 == key }
            default:
                if keys[key] == nil {
                    keys.appendNew(key, value)
                    model.append((key, value))
                }
            }
            #expect(Self.pairs(keys) == model.map { "\($0.0.rawValue)=\($0.1)" }, "step \(step)")
            #expect(keys.count == model.count)
        }
        keys._checkInvariants()
        for (snapshot, pairs) in snapshots { #expect(Self.pairs(snapshot) == pairs) }
    }

    /// The mapping's batch appends (`appending(room:_:)`, one uniqueness check for all of them) copy a buffer another
    /// set shares, grow one that is too small, and leave every copy taken before them as it was.
    @Test(arguments: [1, 64]) func batchAppendsCopyASharedBufferAndGrowASmallOne(capacity: Int) {
        var keys = IABKeySet(minimumCapacity: capacity)
        keys.appendNew(IABKey(rawValue: "First"), .int(0))
        let before = keys
        var model = Self.pairs(keys)
        for round in 1...4 {
            let copy = keys
            let copied = Self.pairs(copy)
            keys.appending(room: round * 3) { appender in
                for index in 0..<(round * 3) {
                    let key = IABKey(rawValue: "Batch_\(round)_\(index)")
                    let value: IABValue = index % 2 == 0 ? .int(index) : .string(String(repeating: "b", count: 20 + index))
                    if index % 3 == 0, let known = IABKeySet.Known.restriction(purpose: round * 10 + index) {
                        appender.appendKnown(known, value)
                        model.append("\(IABKey.publisherRestrictions(purpose: round * 10 + index).rawValue)=\(value)")
                    } else {
                        appender.appendNew(key, value)
                        model.append("\(key.rawValue)=\(value)")
                    }
                }
            }
            #expect(Self.pairs(keys) == model, "round \(round)")
            #expect(Self.pairs(copy) == copied, "round \(round): the copy changed")
        }
        keys._checkInvariants()
        #expect(Self.pairs(before) == ["First=0"])
        #expect(keys.count == 1 + 3 + 6 + 9 + 12)
    }

    /// A set's buffer destroys each entry's value and each custom key (known keys are indices: nothing to destroy),
    /// shared or not. Keys and values longer than 15 bytes are heap strings, so a destruction skipped shows as a leak
    /// under LeakSanitizer, in the AddressSanitizer stage of scripts/test (this suite is in `asan_suites`).
    @Test func destroyingASetReleasesItsCustomKeysAndValues() {
        for round in 0..<50 {
            var keys = IABKeySet(minimumCapacity: 4)
            for index in 0..<30 {
                let value = IABValue.string("a value long enough for the heap \(round) \(index)")
                if index % 2 == 0 {
                    keys.appendNew(IABKey(rawValue: "A_custom_key_long_enough_for_the_heap_\(index)"), value)
                } else {
                    keys.appendKnown(IABKeySet.Known.restriction(purpose: index)!, value)
                }
            }
            let shared = keys
            keys[IABKey(rawValue: "A_custom_key_long_enough_for_the_heap_0")] = nil
            #expect(shared.count == 30 && keys.count == 29)
            #expect(keys[IABKey.publisherRestrictions(purpose: 1)] == .string("a value long enough for the heap \(round) 1"))
        }
    }

    /// A known key appended by its index reads as the key of the same name: iteration, lookup by an `IABKey` made from
    /// the name, equality with a set of custom keys, and the restriction keys' purposes.
    @Test func knownKeysReadAsTheirNames() {
        let known: [(IABKeySet.Known, IABKey)] = [
            (.cmpSDKID, .cmpSDKID), (.cmpSDKVersion, .cmpSDKVersion), (.policyVersion, .policyVersion),
            (.gdprApplies, .gdprApplies), (.publisherCC, .publisherCC), (.purposeOneTreatment, .purposeOneTreatment),
            (.useNonStandardTexts, .useNonStandardTexts), (.useNonStandardStacks, .useNonStandardStacks),
            (.tcString, .tcString), (.vendorConsents, .vendorConsents),
            (.vendorLegitimateInterests, .vendorLegitimateInterests), (.disclosedVendors, .disclosedVendors),
            (.purposeConsents, .purposeConsents), (.purposeLegitimateInterests, .purposeLegitimateInterests),
            (.specialFeatureOptIns, .specialFeatureOptIns), (.publisherConsent, .publisherConsent),
            (.publisherLegitimateInterests, .publisherLegitimateInterests),
            (.publisherCustomPurposesConsents, .publisherCustomPurposesConsents),
            (.publisherCustomPurposesLegitimateInterests, .publisherCustomPurposesLegitimateInterests),
        ] + (0..<64).map { (IABKeySet.Known.restriction(purpose: $0)!, IABKey.publisherRestrictions(purpose: $0)) }
        #expect(IABKeySet.Known.restriction(purpose: 64) == nil && IABKeySet.Known.restriction(purpose: -1) == nil)
        var byIndex = IABKeySet(minimumCapacity: known.count)
        var byName = IABKeySet()
        for (index, (slot, key)) in known.enumerated() {
            byIndex.appendKnown(slot, .int(index))
            byName[IABKey(rawValue: String(key.rawValue))] = .int(index)
        }
        byIndex._checkInvariants()
        #expect(byIndex.map { $0.key } == known.map { $0.1 })
        #expect(byIndex == byName && byIndex.hashValue == byName.hashValue)
        for (index, (_, key)) in known.enumerated() {
            #expect(byIndex[IABKey(rawValue: String(key.rawValue))] == .int(index), "\(key)")
        }
    }

    /// The model's defaults (the former initializer's) and `TCString.model(…)`, the other modules' way to make one.
    @Test func modelDefaultsAreAnEmptyTCF22String() throws {
        let model = TCString()
        #expect(model.version == 2 && model.policyVersion == 4 && model.isServiceSpecific)
        #expect(model.consentLanguage == "EN" && model.publisherCountryCode == "AA")
        #expect(model.vendorConsents.isEmpty && model.publisherRestrictions.isEmpty && model.publisherTC == nil)
        #expect(TCString.model() == model)
        let made = TCString.model(cmpID: 7, vendorConsents: [3, 900], disclosedVendors: [1])
        #expect(made == TCString(cmpID: 7, vendorConsents: [3, 900], disclosedVendors: [1]))
        #expect(try TCString(decodingPrecisely: made.encoded()) == made)
    }

    /// `ConsentStrings` keeps its strings in one stored value: every setter and the initializer still store `""` as
    /// `nil`, and equality and hashing see the five fields.
    @Test func consentStringsStoreEmptyAsNil() {
        var strings = ConsentStrings(tcString: "", additionalConsent: "", gppString: "", usPrivacy: "")
        #expect(strings.tcString == nil && strings.additionalConsent == nil && strings.gppString == nil)
        #expect(strings.usPrivacy == nil && strings.isEmpty)
        strings.tcString = "CQ"
        strings.gppApplicableSections = [2]
        #expect(strings == ConsentStrings(tcString: "CQ", gppApplicableSections: [2]))
        #expect(strings.hashValue == ConsentStrings(tcString: "CQ", gppApplicableSections: [2]).hashValue)
        strings.tcString = ""
        strings.additionalConsent = "1~"
        strings.gppString = ""
        strings.usPrivacy = "1YNN"
        #expect(strings.tcString == nil && strings.additionalConsent == "1~" && strings.gppString == nil)
        #expect(strings != ConsentStrings(additionalConsent: "1~", usPrivacy: "1YNN"))
        strings.gppApplicableSections = nil
        #expect(strings == ConsentStrings(additionalConsent: "1~", usPrivacy: "1YNN"))
    }
}
