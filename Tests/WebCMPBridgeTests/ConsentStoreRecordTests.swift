import Foundation
import Testing
@testable import WebCMPBridge

/// Records survive the stored form (`StoredRecord`: `nonTCFData` as JSON text read by the package's parser).
@Suite struct ConsentStoreRecordTests {
    static let records: [ConsentRecord] = [
        ConsentRecord(savedAt: Date(timeIntervalSinceReferenceDate: 0)),
        ConsentRecord(
            tcString: "CQSbk4AQSbk4ANwAAAENAwCgAAAAAAAAAAYgACPAAAAA", additionalConsent: "2~1~dv.", gppString: "DBABTA~1YN-",
            usPrivacy: "1YN-", expirationDate: Date(timeIntervalSince1970: 1_800_000_000.123_456),
            crossDomainUserID: "ü-\u{0}-\"quoted\"", configVersion: "", savedAt: Date(timeIntervalSince1970: 1_763_800_000.5)),
        ConsentRecord(
            nonTCFData: .object([
                "a": .array([.number(1), .number(-2.5), .number(1e300), .number(Double.leastNonzeroMagnitude), .bool(true), .bool(false), .null]),
                "nested": .object(["x": .string("y\u{2028}\u{1F600}\\/"), "empty": .object([:]), "list": .array([])]),
                "__proto__": .number(0), "": .number(1),
            ]),
            savedAt: Date(timeIntervalSince1970: -12_345.678)),
        ConsentRecord(nonTCFData: .string("text"), savedAt: Date()),
        ConsentRecord(nonTCFData: .number(42), savedAt: Date()),
        ConsentRecord(nonTCFData: .null, savedAt: Date()),
        ConsentRecord(nonTCFData: .array(Array(repeating: .object(["k": .string("v")]), count: 2_000)), savedAt: Date()),
    ]

    @Test(arguments: records)
    func recordRoundTrip(_ record: ConsentRecord) throws {
        let store = ConsentStore.inMemory()
        try store.apply(IABKeySet(), record: record)
        #expect(store.record() == record)
    }

    @Test func deeplyNestedDataStillReadsBack() throws {
        var value = JSONValue.string("leaf")
        for _ in 0..<300 { value = .array([value]) }
        let record = ConsentRecord(nonTCFData: value, savedAt: Date())
        let store = ConsentStore.inMemory()
        try store.apply(IABKeySet(), record: record)
        #expect(store.record() == record)
    }

    @Test func unreadableNonTCFDataGivesNoRecord() throws {
        let store = ConsentStore.inMemory()
        try store.storage.write([ConsentStore.recordKey: .string(#"{"savedAt": 1, "nonTCFData": "{oops"}"#)], [])
        #expect(store.record() == nil)
        try store.storage.write([ConsentStore.recordKey: .string(#"{"savedAt": 1, "nonTCFData": "[1]"}"#)], [])
        #expect(store.record()?.nonTCFData == .array([.number(1)]))
    }
}
