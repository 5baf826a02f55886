import Testing
@testable import IABInAppConsent

/// `BitReader.ranges` reads the entries of a padded segment (every segment the decoder reads) through its scan and
/// one-load reads, and those of any other bytes through the checked loop alone: both must give the same set, the same
/// reader position and the same error, for well-formed and broken entries alike.
@Suite struct RangeEntryScanTests {
    /// One range entry as written: a single id, or a range (`start...end`, written as given even when `end < start`).
    enum Entry {
        case single(Int)
        case range(Int, Int)
    }

    /// The bits of `NumEntries` and `entries`, then `tail` bits of `0b1010…` (so that an entry cut short is cut in
    /// the middle of a field), with the limit at `cut` bits before the end when given.
    static func segment(_ entries: [Entry], count: Int? = nil, tail: Int = 0) -> BitWriter {
        var writer = BitWriter()
        writer.write(count ?? entries.count, 12)
        for entry in entries {
            switch entry {
            case .single(let id):
                writer.write(false); writer.write(id, 16)
            case .range(let start, let end):
                writer.write(true); writer.write(start, 16); writer.write(end, 16)
            }
        }
        for index in 0..<tail { writer.write(index % 2 == 0) }
        return writer
    }

    /// The set (or error) and end position of `ranges` over `writer`'s bits, with and without the padding.
    static func read(_ writer: BitWriter, limit: Int? = nil, maximum: Int?) -> (padded: Outcome, plain: Outcome) {
        let limit = limit ?? writer.count
        func outcome(_ bytes: [UInt8]) -> Outcome {
            var reader = BitReader(bytes: bytes, limit: limit, segment: 0)
            do {
                let set = try reader.ranges("Field", maximum: maximum)
                #expect(set._invariantViolations().isEmpty)
                return .set(set, position: reader.position)
            } catch {
                return .error(error)
            }
        }
        let padded = writer.bytes + [UInt8](repeating: 0xA5, count: BitReader.padding)
        return (outcome(padded), outcome(writer.bytes))
    }

    enum Outcome: Equatable {
        case set(IDSet, position: Int)
        case error(TCStringError)
    }

    /// The ids of `entries` inserted one by one.
    static func ids(_ entries: [Entry]) -> IDSet {
        var set = IDSet()
        for entry in entries {
            switch entry {
            case .single(let id): set.insert(id)
            case .range(let start, let end): set.insert(contentsOf: start...end)
            }
        }
        return set
    }

    @Test func wellFormedEntriesReadTheSameEitherWay() {
        var random = SplitMix64(state: 0x5EED_0038)
        for round in 0..<400 {
            var entries: [Entry] = []
            let count = Int(random.next() % 40) + 1
            let top = [64, 70, 200, 1_000, 65_535][round % 5]
            for _ in 0..<count {
                let start = Int(random.next() % UInt64(top)) + 1
                if random.next() % 3 == 0 {
                    entries.append(.range(start, Swift.min(top, start + Int(random.next() % 90))))
                } else {
                    entries.append(.single(start))
                }
            }
            let writer = Self.segment(entries, tail: Int(random.next() % 9))
            let (padded, plain) = Self.read(writer, maximum: round % 2 == 0 ? nil : top)
            #expect(padded == plain, "\(entries)")
            #expect(padded == .set(Self.ids(entries), position: 12 + entries.reduce(0) {
                if case .range = $1 { $0 + 33 } else { $0 + 17 }
            }), "\(entries)")
        }
    }

    @Test func brokenEntriesThrowTheCheckedLoopsErrors() {
        let cases: [(entries: [Entry], maximum: Int?, expected: TCStringError)] = [
            ([.single(5), .single(0), .single(7)], nil, .zeroID(field: "Field")),
            ([.single(70), .range(0, 3)], nil, .zeroID(field: "Field")),
            ([.single(3), .range(90, 80)], nil, .rangeEndBeforeStart(field: "Field", start: 90, end: 80)),
            ([.single(3), .single(901)], 900, .idAboveMaximum(field: "Field", id: 901, maximum: 900)),
            ([.range(1, 64), .range(60, 901)], 900, .idAboveMaximum(field: "Field", id: 901, maximum: 900)),
        ]
        for (entries, maximum, expected) in cases {
            let (padded, plain) = Self.read(Self.segment(entries), maximum: maximum)
            #expect(padded == .error(expected), "\(entries)")
            #expect(plain == .error(expected), "\(entries)")
        }
    }

    /// Entries cut short at every bit: the scan leaves them to the checked loop, which names the missing field.
    @Test func entriesCutShortAtEveryBit() {
        let entries: [Entry] = [.single(3), .range(65, 130), .single(900), .range(2, 4)]
        let writer = Self.segment(entries)
        for limit in 12..<writer.count {
            let (padded, plain) = Self.read(writer, limit: limit, maximum: nil)
            #expect(padded == plain, "limit \(limit)")
            guard case .error(.truncated(_, _, _)) = padded else {
                Issue.record("limit \(limit): \(padded)")
                continue
            }
        }
        // More entries announced than written: the same truncation either way.
        let (padded, plain) = Self.read(Self.segment(entries, count: 5), maximum: nil)
        #expect(padded == plain)
    }

    /// The scan's edges: ids at the inline word's end (64, 65) and at the stack words' end (8,192, 8,193), a
    /// maximum at each of them and at 0, single ids and ranges of one id, entries ending exactly at the limit (the
    /// padding holds set bits) and one bit after it. Every combination reads the same through the scan as through
    /// the checked loop, set, position or error alike.
    @Test func entriesAtTheScansEdgesReadTheSameEitherWay() {
        let ids = [1, 2, 63, 64, 65, 66, 127, 128, 129, 8_191, 8_192, 8_193, 65_535]
        let maximums: [Int?] = [nil, 0, 1, 64, 65, 8_192, 8_193]
        var random = SplitMix64(state: 0x0009_0038)
        for maximum in maximums {
            for id in ids {
                let lower = ids[Int(random.next() % UInt64(ids.count))]
                let shapes: [[Entry]] = [
                    [.single(id)], [.range(id, id)], [.single(3), .single(id)], [.single(70), .single(id), .single(2)],
                    [.range(1, 64), .single(id)], [.range(Swift.min(lower, id), id)], [.range(id, lower)],
                    [.single(id), .range(2, 5), .single(64)],
                ]
                for entries in shapes {
                    let writer = Self.segment(entries)
                    for limit in [writer.count, writer.count - 1] {
                        let (padded, plain) = Self.read(writer, limit: limit, maximum: maximum)
                        #expect(padded == plain, "\(entries), maximum \(String(describing: maximum)), limit \(limit)")
                    }
                }
            }
        }
    }

    /// A decoded segment is followed by `BitReader.padding` zero bytes, the condition of the one-load reads.
    @Test func decodedSegmentsArePadded() {
        for length in [1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 60] {
            let text = Array(String(repeating: "_", count: length).utf8) + Array(".AA".utf8)
            var bytes: [UInt8] = [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]
            let (end, dataEnd, bad) = text.withUnsafeBufferPointer {
                Base64URL.decodeSegment($0, from: 0, into: &bytes)
            }
            #expect(end == length && dataEnd == length && bad == nil)
            let decoded = (length * 6 + 7) / 8
            #expect(bytes.count == decoded + BitReader.padding, "length \(length)")
            #expect(bytes.suffix(BitReader.padding).allSatisfy { $0 == 0 }, "length \(length)")
            #expect(bytes.prefix(length * 6 / 8).allSatisfy { $0 == 0xFF }, "length \(length)")
        }
    }
}
