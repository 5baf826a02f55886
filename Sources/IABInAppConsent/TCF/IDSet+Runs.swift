extension IDSet {
    /// Maximal runs of consecutive ids, ascending: disjoint, and never adjacent (a gap of at least one id between
    /// two runs). The TC string encoder writes them as range entries.
    package var runs: [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        var previous = 0
        for id in self {
            if start != nil, id == previous + 1 {
                previous = id
                continue
            }
            if let current = start { runs.append(current...previous) }
            start = id
            previous = id
        }
        if let current = start { runs.append(current...previous) }
        return runs
    }
}
