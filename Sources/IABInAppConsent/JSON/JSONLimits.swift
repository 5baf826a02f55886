/// Caps applied to everything a web page posts, before any of it is interpreted.
///
/// A hostile page can post a body of any size and shape; these limits turn "too big" and "too deep" into a typed
/// `JSONInputError` instead of memory pressure or a stack overflow.
package struct JSONLimits: Sendable, Hashable {
    /// The largest accepted body, in UTF-8 bytes of its JSON text. Default 256 KiB.
    package var maximumBytes: Int
    /// The deepest accepted nesting of arrays and objects. Default 32.
    package var maximumDepth: Int
    /// The longest accepted string (keys included), in UTF-8 bytes. Default 64 KiB.
    package var maximumStringBytes: Int
    /// The most elements or members accepted in one array or object. Default 10,000.
    package var maximumElements: Int

    /// Creates limits.
    package init(
        maximumBytes: Int = 256 * 1024,
        maximumDepth: Int = 32,
        maximumStringBytes: Int = 64 * 1024,
        maximumElements: Int = 10_000
    ) {
        self.maximumBytes = maximumBytes
        self.maximumDepth = maximumDepth
        self.maximumStringBytes = maximumStringBytes
        self.maximumElements = maximumElements
    }

    /// The defaults used by the bridge.
    package static let `default` = JSONLimits()
}
