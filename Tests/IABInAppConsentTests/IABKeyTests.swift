import Foundation
import Testing
@testable import IABInAppConsent

/// `IABKey` caches its name's hash value: equality, hashing, ordering and coding must still follow the name.
@Suite struct IABKeyTests {
    @Test func equalNamesAreEqualKeysWithEqualHashes() {
        let built = IABKey(rawValue: "IABTCF_" + "Vendor" + "Consents")
        #expect(built == .vendorConsents)
        #expect(built.hashValue == IABKey.vendorConsents.hashValue)
        #expect(IABKey(rawValue: "IABTCF_VendorConsents ") != .vendorConsents)
        var keys: Set<IABKey> = [.vendorConsents, .purposeConsents]
        #expect(keys.contains(built))
        keys.insert(built)
        #expect(keys.count == 2)
    }

    /// Names that are equal as Swift strings (canonically equivalent) are equal keys, as before the hash was cached.
    @Test func canonicallyEquivalentNamesAreEqual() {
        let composed = IABKey(rawValue: "IABTCF_Caf\u{E9}")
        let decomposed = IABKey(rawValue: "IABTCF_Cafe\u{301}")
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
        #expect([composed: 1][decomposed] == 1)
    }

    /// Changing `rawValue` changes what the key equals and where it hashes.
    @Test func changingTheNameRehashes() {
        var key = IABKey.vendorConsents
        key.rawValue = IABKey.purposeConsents.rawValue
        #expect(key == .purposeConsents)
        #expect(key != .vendorConsents)
        #expect(key.hashValue == IABKey.purposeConsents.hashValue)
        let values: [IABKey: IABValue] = [.purposeConsents: .string("1")]
        #expect(values[key] == .string("1"))
    }

    @Test func orderFollowsTheName() {
        let names = ["IABTCF_gdprApplies", "IABGPP_GppSID", "IABTCF_CmpSdkID", "IABUSPrivacy_String"]
        #expect(names.map(IABKey.init(rawValue:)).sorted().map(\.rawValue) == names.sorted())
    }

    /// A key encodes as its name alone (the cached hash is never written), in a key set as in a list.
    @Test func codesAsItsName() throws {
        let data = try JSONEncoder().encode([IABKey.tcString])
        #expect(String(decoding: data, as: UTF8.self) == #"["IABTCF_TCString"]"#)
        let decoded = try JSONDecoder().decode([IABKey].self, from: Data(#"["IABTCF_TCString"]"#.utf8))
        #expect(decoded == [.tcString])
        #expect(decoded[0].hashValue == IABKey.tcString.hashValue)
    }
}
