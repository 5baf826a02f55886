/// How much consent history a ``ConsentStore`` keeps (`ConsentStore.historyMaximumEntries` and `historyMaximumBytes`): the newest entries that fit
/// both bounds. The newest entry is always kept, whatever its size: a change is never stored without its entry.
package struct ConsentHistoryLimits: Sendable, Hashable {
    /// The most entries kept (at least 1; smaller values count as 1). Default 20.
    package var maximumEntries: Int
    /// The most bytes of JSON the entries take together. Default 64 KiB (a TC string with a long vendor list takes a
    /// few KiB).
    package var maximumBytes: Int

    /// Creates limits.
    package init(maximumEntries: Int = 20, maximumBytes: Int = 64 * 1024) {
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }
}
