import Foundation
import Testing
@testable import IABInAppConsent

/// `IABKeySet` keeps its keys in an array: it must still behave as the dictionary it replaced — one value per key,
/// equality and hashing independent of order.
@Suite struct IABKeySetTests {
    static let pairs: [(IABKey, IABValue)] = [
        (.cmpSDKID, .int(12)), (.tcString, .string("CQ")), (.purposeConsents, .string("101")),
        (.usPrivacyString, .string("1YNN")),
    ]

    @Test func subscriptAddsReplacesAndRemoves() {
        var keys = IABKeySet()
        #expect(keys.isEmpty)
        keys[.cmpSDKID] = .int(1)
        keys[.tcString] = .string("A")
        keys[.cmpSDKID] = .int(2)
        #expect(keys.count == 2)
        #expect(keys[.cmpSDKID] == .int(2))
        #expect(keys[IABKey(rawValue: "IABTCF_" + "CmpSdkID")] == .int(2))
        keys[.cmpSDKID] = nil
        keys[.gdprApplies] = nil
        #expect(keys.count == 1)
        #expect(keys[.cmpSDKID] == nil)
        #expect(keys.values == [.tcString: .string("A")])
        keys._checkInvariants()
    }

    @Test func equalityAndHashIgnoreOrder() {
        var forward = IABKeySet()
        for (key, value) in Self.pairs { forward[key] = value }
        var backward = IABKeySet()
        for (key, value) in Self.pairs.reversed() { backward[key] = value }
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward == IABKeySet(forward.values))
        #expect(Set([forward, backward]).count == 1)

        var changed = backward
        changed[.purposeConsents] = .string("100")
        #expect(changed != forward)
        var fewer = forward
        fewer[.usPrivacyString] = nil
        #expect(fewer != forward)
        #expect(forward != fewer)
        // Same count, one key swapped for another with the same value.
        var swapped = fewer
        swapped[.gdprApplies] = .string("1YNN")
        #expect(swapped != forward)
    }

    @Test func iterationVisitsEachKeyOnceAsValuesDoes() {
        let keys = IABKeySet(Dictionary(uniqueKeysWithValues: Self.pairs))
        var visited: [IABKey: IABValue] = [:]
        for (key, value) in keys {
            #expect(visited.updateValue(value, forKey: key) == nil)
        }
        #expect(visited == keys.values)
        #expect(keys.count == Self.pairs.count)
        var replaced = keys
        replaced.values = [.cmpSDKID: .int(3)]
        #expect(replaced.count == 1 && replaced[.cmpSDKID] == .int(3))
    }

    /// A mapping that writes the same key from two sources (a TC string, and its GPP TCF EU section and a US Privacy
    /// string) still holds every key once.
    @Test func mappingWithEverySourceHoldsEachKeyOnce() throws {
        let tc = TestStrings.acceptAll
        let strings = ConsentStrings(
            tcString: tc, additionalConsent: "1~1", gppString: "DBABMA~" + tc, gppApplicableSections: [2],
            usPrivacy: "1YNN")
        let keys = try IABKeySet(mapping: strings, gdprApplies: true, identity: CMPIdentity(id: 12, version: 3))
        keys._checkInvariants()
        #expect(keys[.tcString] == .string(tc))
        #expect(keys["IABGPP_TCFEU2_CmpSdkID"] == .int(12))
        #expect(keys[.usPrivacyString] == .string("1YNN"))
        #expect(keys.count == keys.values.count)
    }

    /// A GPP string with 973 sections (ids 28–1000, one range entry in the header) maps to one key per section plus
    /// the header keys, each once.
    @Test func gppStringWithManySectionsHoldsEachKeyOnce() throws {
        // Type 3, version 1, one entry: a range starting at offset 28, 972 ids long.
        var bits = "000011" + "000001" + "000000000001" + "1"
            + GPPHeaderEncoding.fibonacci(28) + GPPHeaderEncoding.fibonacci(972)
        while bits.count % 6 != 0 { bits += "0" }
        let gpp = GPPHeaderEncoding.base64URL(bits) + String(repeating: "~AA", count: 973)
        #expect(try GPPString(parsing: gpp).sectionIDs == Array(28...1000))

        let keys = try IABKeySet(mapping: ConsentStrings(gppString: gpp))
        keys._checkInvariants()
        #expect(keys.count == 973 + 4)
        #expect(keys["IABGPP_1000_String"] == .string("AA"))
        #expect(keys["IABGPP_GppSID"] == .string((28...1000).map(String.init).joined(separator: "_")))
    }
}
