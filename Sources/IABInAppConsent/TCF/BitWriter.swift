/// Writes big-endian bit fields for the TC string encoder.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func write(_ value: UInt64, _ width: Int) {
        var left = width
        while left > 0 {
            if count & 7 == 0 { bytes.append(0) }
            let free = 8 - (count & 7)
            let take = Swift.min(free, left)
            let bits = UInt8(truncatingIfNeeded: (value >> UInt64(left - take)) & ((1 << UInt64(take)) - 1))
            bytes[bytes.count - 1] |= bits << UInt8(free - take)
            count += take
            left -= take
        }
    }

    mutating func write(_ value: Int, _ width: Int) { write(UInt64(value), width) }

    mutating func write(_ flag: Bool) { write(UInt64(flag ? 1 : 0), 1) }

    /// Writes `width` bits where bit *i* is set when id *i + 1* is in `set`.
    mutating func bitfield(_ set: IDSet, width: Int) {
        var id = 1
        while id <= width {
            let take = Swift.min(64, width - id + 1)
            var value: UInt64 = 0
            for offset in 0..<take where set.contains(id + offset) {
                value |= 1 << UInt64(take - 1 - offset)
            }
            write(value, take)
            id += take
        }
    }

    /// Writes range entries (`NumEntries` 12 bits, then IsARange / Start / [End]) for `set`.
    mutating func ranges(_ runs: [ClosedRange<Int>]) {
        write(runs.count, 12)
        for run in runs {
            write(run.count > 1)
            write(run.lowerBound, 16)
            if run.count > 1 { write(run.upperBound, 16) }
        }
    }

    var string: String { Base64URL.encode(bytes, bitCount: count) }
}
