import Testing
@testable import IABInAppConsent

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

    /// The binary string of every set of ids 1–16 (those up to 15 take the small-string path, `smallBinaryString`;
    /// with id 16 the words' path), against one character per id.
    @Test func binaryStringOfEverySetOfIDs1To16() {
        for word in UInt64(0)..<(1 << 16) {
            let max = 64 - word.leadingZeroBitCount
            let expected = String((0..<max).map { word >> UInt64($0) & 1 == 1 ? "1" as Character : "0" })
            let string = IDSet(word: word).binaryString
            guard string == expected, string.utf8.count == max else {
                Issue.record("binaryString of \(String(word, radix: 2)): \(string), expected \(expected)")
                return
            }
        }
    }

    @Test func equalityIgnoresRemovedHighIDs() {
        var a: IDSet = [2, 500]
        a.remove(500)
        #expect(a == [2])
        #expect(a.hashValue == IDSet([2]).hashValue)
    }

    /// The checker reports each kind of broken storage (so that the asserts after every mutation can fail).
    @Test func invariantCheckerCatchesBrokenStorage() {
        #expect(IDSet(_uncheckedWords: [])._invariantViolations() == [])
        #expect(IDSet(_uncheckedWords: [1, 1 << 63])._invariantViolations() == [])
        #expect(IDSet(_uncheckedWords: [1, 0])._invariantViolations().contains("trailing zero word"))
        #expect(IDSet(_uncheckedWords: [0])._invariantViolations().contains("trailing zero word"))
        let tooMany = [UInt64](repeating: 1, count: IDSet.maximumWordCount + 1)
        #expect(IDSet(_uncheckedWords: tooMany)._invariantViolations().contains { $0.contains("more than 1024") })
        var full = [UInt64](repeating: ~0, count: IDSet.maximumWordCount)
        #expect(IDSet(_uncheckedWords: full)._invariantViolations().contains("an id above 65535"))
        full[full.count - 1] = ~0 >> 1
        #expect(IDSet(_uncheckedWords: full)._invariantViolations() == [])
        #expect(IDSet(_uncheckedWords: full).max == IDSet.maximumID)
    }

    /// Random inserts, range inserts, removals and decoder-built sets keep the invariants and agree with a plain
    /// `Set<Int>` on every observable: members, order, count, max, binary string and runs.
    @Test(arguments: [UInt64(1), 2, 3, 0xC0FFEE])
    func randomOperationsKeepTheInvariants(seed: UInt64) {
        var generator = SplitMix64(state: seed)
        // Ids cluster around the word and range edges, with some outside `1...maximumID`.
        let edges = [-1, 0, 1, 2, 63, 64, 65, 128, 129, 1_000, 65_472, 65_473, 65_534, 65_535, 65_536, 70_000]
        func randomID() -> Int {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return edges.randomElement(using: &generator)! + Int.random(in: -1...1, using: &generator)
            case 1: return Int.random(in: -2...70_000, using: &generator)
            default: return Int.random(in: -2...300, using: &generator)
            }
        }
        var set = IDSet()
        var reference = Set<Int>()
        for step in 0..<800 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let id = randomID()
                set.insert(id)
                if (1...IDSet.maximumID).contains(id) { reference.insert(id) }
            case 4..<6:
                let lower = randomID()
                let upper = lower + Int.random(in: 0...200, using: &generator)
                set.insert(contentsOf: lower...upper)
                let (low, high) = (max(lower, 1), min(upper, IDSet.maximumID))
                if low <= high { reference.formUnion(low...high) }
            case 6..<9:
                // Mostly ids that are present, so that removals empty words and shrink the storage.
                let id = reference.randomElement(using: &generator).flatMap { Bool.random(using: &generator) ? $0 : nil }
                    ?? randomID()
                set.remove(id)
                reference.remove(id)
            default:
                // A decoder's view: the same ids rebuilt from raw words, with trailing zero words to normalise.
                set = IDSet(words: set.words + [UInt64](repeating: 0, count: Int.random(in: 0...3, using: &generator)))
            }
            #expect(set._invariantViolations() == [], "seed \(seed) step \(step)")
            #expect(set.count == reference.count, "seed \(seed) step \(step)")
            let referenceMax = reference.max()
            #expect(set.max == referenceMax, "seed \(seed) step \(step)")
            #expect(set.isEmpty == reference.isEmpty)
            if step % 100 == 0 || step == 799 {
                let sorted = reference.sorted()
                #expect(set.sorted == sorted, "seed \(seed) step \(step)")
                #expect(set == IDSet(sorted))
                #expect(set.runs.flatMap { Array($0) } == sorted)
                #expect(zip(set.runs, set.runs.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
                let binary = Array(set.binaryString.utf8)
                #expect(binary.count == (referenceMax ?? 0))
                #expect(binary.indices.allSatisfy { (binary[$0] == UInt8(ascii: "1")) == reference.contains($0 + 1) })
            }
        }
    }

    /// Ids 1–64 are kept inline, whatever built the set: a set that grew past 64 and shrank back equals, and hashes
    /// like, one built small, and decoding a TC string's purposes and special features allocates no array.
    @Test func setsWithinIDs1To64AreInlineAndCompareByIDs() throws {
        var grown: IDSet = [3, 64, 65, 900]
        grown.remove(900)
        grown.remove(65)
        var inserted = IDSet()
        inserted.insert(contentsOf: 3...3)
        inserted.insert(64)
        #expect(grown == inserted)
        #expect(grown.hashValue == inserted.hashValue)
        #expect(grown == IDSet(words: [1 << 2 | 1 << 63, 0, 0]))
        for set in [grown, inserted, IDSet(words: [1 << 2 | 1 << 63, 0])] {
            guard case .small = set.storage else {
                Issue.record("\(set) is stored out of line")
                continue
            }
            #expect(set._invariantViolations().isEmpty)
        }
        var large: IDSet = [1, 200]
        #expect(large._invariantViolations().isEmpty)
        large.insert(contentsOf: 60...70)
        #expect(large.sorted == [1] + Array(60...70) + [200])
        let decoded = try TCString(decoding: TestStrings.acceptAll)
        for set in [decoded.purposeConsents, decoded.specialFeatureOptIns, decoded.purposeLegitimateInterests] {
            guard case .small = set.storage else {
                Issue.record("a decoded set within ids 1–64 is stored out of line: \(set)")
                continue
            }
        }
        #expect(decoded.purposeConsents == IDSet(1...11))
        #expect(IDSet(_uncheckedWords: [5])._invariantViolations() == ["one word stored out of line"])
    }

    /// `forEachID` (the restriction strings' walk over the words) visits the ids the iterator gives, in order, in
    /// every storage: inline, words, and a decoded bitfield's bits.
    @Test func forEachIDVisitsTheIteratorsIDsInEveryStorage() {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 40)
        for index in bytes.indices { bytes[index] = .random(in: 0...255, using: &generator) }
        let sets: [IDSet] = [
            IDSet(), [1], [64], [1, 5, 64], [65], [1, 64, 65, 128, 129, 1000], IDSet(1...700),
            IDSet(bitfield: bytes, offset: 3, count: 300), IDSet(bitfield: bytes, offset: 0, count: 40),
        ]
        #expect(sets.contains { if case .bits = $0.storage { true } else { false } })
        for set in sets {
            var visited: [Int] = []
            set.forEachID { visited.append($0) }
            #expect(visited == Array(set), "\(set)")
        }
    }
}
