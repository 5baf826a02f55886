/// A set of positive integer identifiers (purpose, special feature or vendor ids), stored as a bit vector.
///
/// TCF identifiers start at 1 and are dense and small (purposes 1–24, vendors up to 65,535), so a bit vector is both the
/// smallest and the fastest representation: membership is one shift, and the IAB in-app binary strings
/// (`'1'` at index *n* for id *n + 1*) are produced straight from the words.
///
/// Two sets are equal when they contain the same ids, and hash alike then, whatever their storage; the storage is
/// kept normalised (no trailing zero words).
///
/// Invariants (`_checkInvariants()` asserts them after every initializer and mutation in debug builds):
/// - no trailing zero word, so ``isEmpty``, ``max`` and equality can read the last word;
/// - at most `maximumWordCount` words, and no bit above `maximumID` (65,535: every id is in `1...65535`, and
///   ``max`` is at most `words.count * 64`);
/// - a set decoded from a TC string bitfield of more than 64 ids keeps the decoded bits (`BitSpan`, with its own
///   invariants) until it is changed.
///
/// Ids ≥ 1 hold by construction (bit 0 of word 0 is id 1). Unchecked writes rely on these: `binaryString` stores
/// whole words into a buffer of ``max`` bytes, and `IABKeySet.publisherRestrictionStrings` writes position
/// `vendor - 1` of a buffer as long as the highest ``max``.
public struct IDSet: Sendable, Hashable {
    /// The bit vector: bit *i* of word *w* represents id `w * 64 + i + 1`.
    ///
    /// A set whose ids are all in 1–64 (purposes, special features, most publisher purposes) keeps its one word
    /// inline, so that decoding a TC string does not allocate for each of them; larger sets keep an array, or, when
    /// decoded from a bitfield, the decoded bits. ``small(_:)`` is used exactly when the set needs at most one word,
    /// so a small set never equals another form; a large and a bits set are compared by their words.
    @usableFromInline
    enum Storage: Sendable {
        /// Ids 1–64; `0` is the empty set.
        case small(UInt64)
        /// Two words or more, the last one not zero.
        case large([UInt64])
        /// Highest id above 64, kept as the bits of a decoded TC string bitfield (see ``BitSpan``).
        case bits(BitSpan)
    }

    @usableFromInline
    internal private(set) var storage: Storage

    /// The largest id a TCF field can carry (16-bit vendor ids).
    package static let maximumID = 65_535

    /// An empty set.
    public init() {
        storage = .small(0)
        _checkInvariants()
    }

    /// A set holding the given ids. Ids outside `1...IDSet.maximumID` are ignored.
    public init<S: Sequence>(_ ids: S) where S.Element == Int {
        storage = .small(0)
        for id in ids { insert(id) }
        _checkInvariants()
    }

    /// A set from raw words (bit *i* of word *w* is id `w * 64 + i + 1`), for decoders.
    init(words: [UInt64]) {
        storage = IDSet.normalized(words)
        _checkInvariants()
    }

    /// A set from two raw words or more whose last is not zero (already normalised), for decoders that build them so:
    /// no pass over them (``BitReader/scanIntoWords(_:at:limit:left:maximum:small:end:)``).
    init(normalizedWords words: [UInt64]) {
        precondition(words.count >= 2 && words[words.count &- 1] != 0, "IDSet: words not normalised")
        storage = .large(words)
        _checkInvariants()
    }

    /// A set of ids 1–64 from one word (bit *i* is id `i + 1`), for decoders: no allocation.
    init(word: UInt64) {
        storage = .small(word)
        _checkInvariants()
    }

    /// The set of a TC string bitfield of `count` bits from bit `offset` of `bytes` (the first bit is id 1), for
    /// decoders: requires `offset + count <= bytes.count * 8`. Above 64 ids the set keeps `bytes` and reads its ids
    /// from them (``BitSpan``): no allocation, and only the bits after the highest id are looked at. `bytes` must not
    /// change afterwards (the decoder gives the next segment a buffer of its own).
    init(bitfield bytes: [UInt8], offset: Int, count: Int) {
        // Ids above `maximumID` are not kept (as `insert` ignores them); a TC string's fields are 16-bit, so never.
        let count = Swift.min(count, IDSet.maximumID)
        let highest = bytes.withUnsafeBytes { raw in
            precondition(offset >= 0 && count >= 0 && offset + count <= raw.count * 8, "IDSet: bitfield out of bounds")
            return BitSpan.highestID(in: raw, offset: offset, count: count)
        }
        if highest <= 64 {
            let bits = bytes.withUnsafeBytes { BitReader.bits(highest, at: offset, in: $0) }
            storage = .small(highest == 0 ? 0 : (bits &<< UInt64(64 - highest)).bitReversed)
        } else {
            storage = .bits(BitSpan(bytes: bytes, offset: offset, max: highest))
        }
        _checkInvariants()
    }

    /// The words of the set, without trailing zero words (an array: for tests and the invariant checks; the set's own
    /// reads use ``withWords(_:)``, which does not allocate).
    var words: [UInt64] {
        switch storage {
        case .small(let word): return word == 0 ? [] : [word]
        case .large(let words): return words
        case .bits(let span): return span.words
        }
    }

    /// Calls `body` with the set's words, without trailing zero words.
    @inline(__always)
    func withWords<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        switch storage {
        case .small(let word):
            return withUnsafePointer(to: word) { body(UnsafeBufferPointer(start: $0, count: word == 0 ? 0 : 1)) }
        case .large(let words):
            return words.withUnsafeBufferPointer(body)
        case .bits(let span):
            return span.withWords(body)
        }
    }

    /// Calls `body` with each id in ascending order, read straight from the words (bit *i* of word *w* is id
    /// `w * 64 + i + 1`): no iterator, which copies the words and keeps its position in memory (~15 instructions an
    /// id, callgrind: the publisher restriction strings of every save walk their vendors this way).
    @inline(__always)
    func forEachID(_ body: (Int) -> Void) {
        withWords { words in
            for (index, bits) in words.enumerated() {
                var word = bits
                while word != 0 {
                    body(index &* 64 &+ word.trailingZeroBitCount &+ 1)
                    word &= word &- 1
                }
            }
        }
    }

    /// Whether the set holds no id.
    @inlinable
    public var isEmpty: Bool {
        if case .small(0) = storage { return true }
        return false
    }

    /// The number of ids in the set.
    public var count: Int {
        withWords { words in
            var total = 0
            for word in words { total &+= word.nonzeroBitCount }
            return total
        }
    }

    /// The highest id in the set, or `nil` when the set is empty.
    public var max: Int? {
        switch storage {
        case .small(let word): return word == 0 ? nil : 64 - word.leadingZeroBitCount
        case .large(let words):
            guard let last = words.last else { return nil }
            return (words.count - 1) * 64 + (64 - last.leadingZeroBitCount)
        case .bits(let span): return Int(span.max)
        }
    }

    /// Whether `id` is in the set.
    @inlinable
    public func contains(_ id: Int) -> Bool {
        guard id >= 1 else { return false }
        let index = (id - 1) >> 6
        let bit: UInt64 = 1 << UInt64((id - 1) & 63)
        switch storage {
        case .small(let word): return index == 0 && word & bit != 0
        case .large(let words): return index < words.count && words[index] & bit != 0
        case .bits(let span): return span.contains(id)
        }
    }

    /// Adds `id`. Ids outside `1...IDSet.maximumID` are ignored.
    public mutating func insert(_ id: Int) {
        guard id >= 1, id <= IDSet.maximumID else { return }
        let index = (id - 1) >> 6
        let bit: UInt64 = 1 << UInt64((id - 1) & 63)
        if index == 0, case .small(let word) = storage {
            storage = .small(word | bit)
        } else {
            mutateWords { words in
                IDSet.growWords(&words, to: index + 1)
                words[index] |= bit
            }
        }
        _checkInvariants()
    }

    /// Adds every id of `range` that lies in `1...IDSet.maximumID`.
    public mutating func insert(contentsOf range: ClosedRange<Int>) {
        let lower = Swift.max(range.lowerBound, 1)
        let upper = Swift.min(range.upperBound, IDSet.maximumID)
        guard lower <= upper else { return }
        if upper <= 64, case .small(let word) = storage {
            storage = .small(word | (~0 << UInt64(lower - 1)) & (~0 >> UInt64(64 - upper)))
        } else {
            mutateWords { IDSet.setBits(lower...upper, in: &$0) }
        }
        _checkInvariants()
    }

    /// Sets the bits of the ids `range` (within `1...maximumID`) in raw `words`, appending zero words as needed:
    /// whole words at once, a mask at each end. For ``insert(contentsOf:)`` and decoders that build words before
    /// making a set of them (`IDSet(words:)` normalises).
    static func setBits(_ range: ClosedRange<Int>, in words: inout [UInt64]) {
        guard range.lowerBound >= 1, range.upperBound <= maximumID else { return }
        growWords(&words, to: (range.upperBound - 1) >> 6 + 1)
        words.withUnsafeMutableBufferPointer { setBits(range, in: $0) }
    }

    /// ``setBits(_:in:)`` into words already large enough for `range` (`range.upperBound <= buffer.count * 64`), for
    /// decoders that sized them first: no growth or uniqueness check per range.
    static func setBits(_ range: ClosedRange<Int>, in words: UnsafeMutableBufferPointer<UInt64>) {
        let first = (range.lowerBound - 1) >> 6
        let last = (range.upperBound - 1) >> 6
        precondition(range.lowerBound >= 1 && last < words.count, "IDSet.setBits: words too small")
        let low: UInt64 = ~0 << UInt64((range.lowerBound - 1) & 63)
        let high: UInt64 = ~0 >> UInt64(63 - (range.upperBound - 1) & 63)
        if first == last {
            words[first] |= low & high
            return
        }
        words[first] |= low
        for index in first + 1..<last { words[index] = ~0 }
        words[last] |= high
    }

    /// Removes `id` if present.
    public mutating func remove(_ id: Int) {
        guard id >= 1 else { return }
        let index = (id - 1) >> 6
        let bit: UInt64 = 1 << UInt64((id - 1) & 63)
        switch storage {
        case .small(let word):
            if index == 0 { storage = .small(word & ~bit) }
        case .large(let words):
            guard index < words.count else { return }
            mutateWords { $0[index] &= ~bit }
        case .bits(let span):
            guard id <= Int(span.max) else { return }
            mutateWords { $0[index] &= ~bit }
        }
        _checkInvariants()
    }

    /// Runs `body` on the words as a uniquely referenced array (the storage lets go of it first, so that changing it
    /// does not copy), then stores the result in canonical form.
    private mutating func mutateWords(_ body: (inout [UInt64]) -> Void) {
        var words: [UInt64]
        switch storage {
        case .small(let word): words = word == 0 ? [] : [word]
        case .large(let large): words = large
        case .bits(let span): words = span.words
        }
        storage = .small(0)
        body(&words)
        storage = IDSet.normalized(words)
    }

    /// `words` in canonical form: without trailing zero words, inline when at most one is left.
    private static func normalized(_ words: [UInt64]) -> Storage {
        var words = words
        while let last = words.last, last == 0 { words.removeLast() }
        return words.count <= 1 ? .small(words.first ?? 0) : .large(words)
    }

    /// The ids in ascending order.
    public var sorted: [Int] { Array(self) }

    /// Whether two sets hold the same ids, whatever their storage.
    public static func == (lhs: IDSet, rhs: IDSet) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.small(let left), .small(let right)): return left == right
        case (.small, _), (_, .small): return false  // one word against two or more
        case (.large(let left), .large(let right)): return left == right
        default:
            return lhs.max == rhs.max && lhs.withWords { left in rhs.withWords { right in left.elementsEqual(right) } }
        }
    }

    /// Hashes the ids (their words), so that equal sets hash alike whatever their storage.
    public func hash(into hasher: inout Hasher) {
        withWords { words in
            hasher.combine(words.count)
            for word in words { hasher.combine(word) }
        }
    }

    /// The IAB in-app binary string: `'1'` at index *n* when id *n + 1* is in the set, up to the highest id in the set,
    /// and `""` for an empty set (the convention of the IAB reference implementation's `InAppTCData`).
    ///
    /// See "CMP API v2 — In-App Details", `IABTCF_VendorConsents`.
    var binaryString: String {
        if case .bits(let span) = storage { return span.binaryString }
        if case .small(let word) = storage, word & ~0x7FFF == 0 { return IDSet.smallBinaryString(word) }
        guard let max else { return "" }
        return String(unsafeUninitializedCapacity: max) { buffer in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            let wholeBytes = max / 8
            // The 8-byte stores below end at `wholeBytes * 8 <= max <= buffer.count`, and read only words that exist
            // because `max` is derived from the last (non-zero) word.
            withWords { words in
                assert(buffer.count >= max && wholeBytes <= words.count * 8, "IDSet.binaryString: buffer too small")
                IDSet.asciiBits.withUnsafeBufferPointer { table in
                    @inline(__always)
                    func store(_ byte: UInt64, at byteIndex: Int) {
                        let characters = table[Int(truncatingIfNeeded: byte & 0xFF)].littleEndian
                        raw.storeBytes(of: characters, toByteOffset: byteIndex &* 8, as: UInt64.self)
                    }
                    let wholeWords = wholeBytes / 8
                    for index in 0..<wholeWords {
                        let word = words[index]
                        let base = index &* 8
                        store(word, at: base)
                        store(word &>> 8, at: base &+ 1)
                        store(word &>> 16, at: base &+ 2)
                        store(word &>> 24, at: base &+ 3)
                        store(word &>> 32, at: base &+ 4)
                        store(word &>> 40, at: base &+ 5)
                        store(word &>> 48, at: base &+ 6)
                        store(word &>> 56, at: base &+ 7)
                    }
                    var byteIndex = wholeWords &* 8
                    while byteIndex < wholeBytes {
                        store(words[byteIndex &>> 3] &>> UInt64((byteIndex & 7) &* 8), at: byteIndex)
                        byteIndex &+= 1
                    }
                }
                var offset = wholeBytes * 8
                while offset < max {
                    let set = words[offset >> 6] & (1 << UInt64(offset & 63)) != 0
                    buffer[offset] = set ? UInt8(ascii: "1") : UInt8(ascii: "0")
                    offset += 1
                }
            }
            return max
        }
    }

    /// ``binaryString`` of the ids 1–15 in `word` (bits 0–14; a purpose or special feature field's set): at most 15
    /// characters, a small string, made from two words of characters without the words' closure or the table (whose
    /// `swift_once` and closure cost ~200 instructions for each of a decode + map's three short purpose strings,
    /// callgrind).
    @inline(__always)
    static func smallBinaryString(_ word: UInt64) -> String {
        precondition(word & ~0x7FFF == 0, "IDSet.smallBinaryString: an id above 15")
        let max = 64 &- word.leadingZeroBitCount
        guard max > 0 else { return "" }
        // Eight bits to eight characters (byte i of the result, in memory order, is `'0' + bit i`): the byte copied
        // to every byte, bit i kept in byte i, then each byte's non-zero value made 1 and `'0'` added.
        @inline(__always)
        func characters(_ bits: UInt64) -> UInt64 {
            let kept = (bits &* 0x0101_0101_0101_0101) & 0x8040_2010_0804_0201
            return (kept &+ 0x7F7F_7F7F_7F7F_7F7F) &>> 7 & 0x0101_0101_0101_0101 | 0x3030_3030_3030_3030
        }
        var text = (characters(word & 0xFF).littleEndian, characters(word &>> 8 & 0xFF).littleEndian)
        return String(unsafeUninitializedCapacity: max) { buffer in
            precondition(buffer.count >= max && max <= 16, "IDSet.smallBinaryString: buffer too small")
            withUnsafeBytes(of: &text) {
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<max]))
            }
            return max
        }
    }

    /// For each byte value, the eight ASCII characters `'0'`/`'1'` of its bits, lowest bit first in memory order.
    private static let asciiBits: [UInt64] = (0..<256).map { byte in
        var value: UInt64 = 0
        for bit in 0..<8 {
            let character = UInt64(byte >> bit & 1) + UInt64(UInt8(ascii: "0"))
            value |= character << UInt64(bit * 8)
        }
        return value
    }

    /// Appends zero words until there are at least `count`; the capacity at least doubles when it grows, so that
    /// ascending inserts (range entries) stay linear. (A plain loop: `append(contentsOf: repeatElement(…))` costs
    /// more than the decode of a range entry.)
    @inline(__always)
    private static func growWords(_ words: inout [UInt64], to count: Int) {
        guard count > words.count else { return }
        if count > words.capacity { words.reserveCapacity(Swift.max(count, 2 * words.capacity)) }
        for _ in words.count..<count { words.append(0) }
    }

}

extension IDSet {
    /// The most words a set can need: ids `1...maximumID`.
    static let maximumWordCount = (maximumID + 63) / 64

    /// Storage taken as is, without normalising or checking it: only for tests of ``_invariantViolations()``.
    init(_uncheckedWords words: [UInt64]) {
        storage = words.isEmpty ? .small(0) : .large(words)
    }

    /// Asserts the storage invariants (see the type's documentation). A no-op in release builds.
    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
        let violations = _invariantViolations()
        assert(violations.isEmpty, "IDSet invariants violated: \(violations.joined(separator: "; "))")
        #endif
    }

    /// The invariants this set's storage breaks, one phrase each (empty when it is valid).
    func _invariantViolations() -> [String] {
        var violations: [String] = []
        if case .large(let large) = storage, large.count < 2 { violations.append("one word stored out of line") }
        if case .bits(let span) = storage {
            let max = Int(span.max)
            if max <= 64 { violations.append("\(max) bits kept as a span, not inline") }
            if Int(span.offset) + max > span.bytes.count * 8 {
                violations.append("span of \(max) bits from bit \(span.offset) beyond \(span.bytes.count) bytes")
                return violations
            }
            if max >= 1, !span.contains(max) { violations.append("span's highest id \(max) not set") }
        }
        guard let last = words.last else { return violations }
        if last == 0 { violations.append("trailing zero word") }
        if words.count > IDSet.maximumWordCount {
            violations.append("\(words.count) words, more than \(IDSet.maximumWordCount)")
        } else if words.count == IDSet.maximumWordCount {
            // Bits of the last possible word above `maximumID` (id 65,536 is bit 63 of word 1,023).
            let usedBits = IDSet.maximumID - (IDSet.maximumWordCount - 1) * 64
            if usedBits < 64, last >> UInt64(usedBits) != 0 { violations.append("an id above \(IDSet.maximumID)") }
        }
        // What the unchecked writes read: `max` is an id in the last word, so `max <= words.count * 64`, and no
        // set holds more ids than its highest one.
        if let max {
            if !((words.count - 1) * 64 + 1...words.count * 64).contains(max) || max > IDSet.maximumID {
                violations.append("max \(max) outside the last word or above \(IDSet.maximumID)")
            }
            if count > max { violations.append("count \(count) above max \(max)") }
        } else {
            violations.append("no max for a non-empty storage")
        }
        return violations
    }
}

extension IDSet: Sequence {
    /// Iterates the ids in ascending order, a word of 64 ids at a time. Apps see it as
    /// `some IteratorProtocol<Int>` (``makeIterator()``).
    package struct WordIterator: IteratorProtocol {
        /// The words after the first of a large set; empty for a small one.
        private let words: [UInt64]
        private var index = 0
        private var current: UInt64

        init(storage: Storage) {
            switch storage {
            case .small(let word):
                words = []
                current = word
            case .large(let large):
                words = large
                current = large.first ?? 0
            case .bits(let span):
                words = span.words
                current = words.first ?? 0
            }
        }

        package mutating func next() -> Int? {
            while current == 0 {
                index += 1
                guard index < words.count else { return nil }
                current = words[index]
            }
            let bit = current.trailingZeroBitCount
            current &= current &- 1
            return index * 64 + bit + 1
        }
    }

    /// Visits the ids in ascending order.
    public func makeIterator() -> some IteratorProtocol<Int> { WordIterator(storage: storage) }

    public var underestimatedCount: Int { count }
}

extension IDSet: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Int...) {
        self.init(elements)
    }
}

extension IDSet: CustomStringConvertible {
    public var description: String { "[" + map(String.init).joined(separator: ", ") + "]" }
}

extension IDSet: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(try container.decode([Int].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(sorted)
    }
}
