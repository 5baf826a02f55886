import WebCMPBridge
import WebCMPToolSupport
import Testing

/// What `scripts/demo` and `webcmp-host run|check` print for a long bit field or restriction string instead of the
/// string itself (`--raw` prints the exact value).
@Suite struct BitStringSummaryTests {
    static func positions(_ length: Int, _ values: [Int: Character]) -> String {
        String((1...length).map { values[$0] ?? "0" })
    }

    @Test func aVendorBitFieldShowsItsLengthHowManyAreSetAndTheirIDs() throws {
        let summary = try #require(BitStringSummary(Self.positions(1000, [1: "1", 4: "1", 755: "1"])))
        #expect(summary.length == 1000)
        #expect(summary.setCount == 3)
        #expect(summary.firstIDs == [1, 4, 755])
        #expect(summary.restrictionTypes == nil)
        #expect(summary.description == "1000 bits, 3 set: ids 1, 4, 755")
    }

    @Test func onlyTheFirstTenIDsAreListed() throws {
        let text = Self.positions(40, Dictionary(uniqueKeysWithValues: (1...25).map { ($0, "1") }))
        let summary = try #require(BitStringSummary(text))
        #expect(summary.setCount == 25)
        #expect(summary.firstIDs == Array(1...10))
        #expect(summary.description == "40 bits, 25 set: ids 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (first 10 of 25)")
    }

    @Test func aRestrictionStringShowsEachIDsType() throws {
        let summary = try #require(BitStringSummary(Self.positions(800, [12: "1", 755: "2"])))
        #expect(summary.restrictionTypes == ["1", "2"])
        #expect(summary.description == "800 positions, 2 set: ids 12 (type 1), 755 (type 2)")
    }

    @Test func aFieldWithNothingSetSaysSo() throws {
        #expect(try #require(BitStringSummary(Self.positions(50, [:]))).description == "50 bits, 0 set")
    }

    @Test(arguments: [
        "111100000000000000000000",                           // a purpose field: short enough to read as it is
        "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA",       // a TC string
        String(repeating: "01", count: 20) + "4",             // a character that is no restriction type
        "",
    ])
    func otherValuesArePrintedAsTheyAre(text: String) {
        #expect(BitStringSummary(text) == nil)
    }
}
