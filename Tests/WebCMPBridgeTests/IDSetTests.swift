import Testing
@testable import WebCMPBridge

@Suite struct IDSetTests {
    @Test func insertContainsAndOrder() {
        var set: IDSet = [5, 1, 64, 65, 1000]
        #expect(set.sorted == [1, 5, 64, 65, 1000])
        #expect(set.count == 5)
        #expect(set.max == 1000)
        #expect(set.contains(64))
        #expect(!set.contains(63))
        #expect(!set.contains(0))
        set.remove(1000)
        #expect(set.max == 65)
        #expect(set == [1, 5, 64, 65])
    }

    @Test func rangesAndBounds() {
        var set = IDSet()
        set.insert(contentsOf: 60...130)
        #expect(set.sorted == Array(60...130))
        set.insert(contentsOf: 65_530...70_000)
        #expect(set.max == IDSet.maximumID)
        set.insert(0)
        set.insert(-3)
        #expect(!set.contains(0))
    }

    @Test func binaryString() {
        #expect(IDSet().binaryString == "")
        #expect(IDSet([1, 3]).binaryString == "101")
        #expect(IDSet([70]).binaryString == String(repeating: "0", count: 69) + "1")
    }

    @Test func equalityIgnoresRemovedHighIDs() {
        var a: IDSet = [2, 500]
        a.remove(500)
        #expect(a == [2])
        #expect(a.hashValue == IDSet([2]).hashValue)
    }
}
