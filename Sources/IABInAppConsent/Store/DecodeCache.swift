import Foundation

/// The last text decoded and what it decoded to: a read whose stored text is unchanged skips the decode.
///
/// Keyed by the exact text, never by a version or a date: whatever wrote the storage (this store, another store over
/// the same suite, another process, an app that edits `UserDefaults` itself), a different text is decoded again, so
/// the cache can only save work, never return a stale value. Comparing two equal native strings is one `memcmp`
/// (~0.1 µs for a 1 KB record), decoding the record with `JSONDecoder` ~20–40 µs.
final class DecodeCache<Value: Sendable>: @unchecked Sendable {
    /// Guards `text` and `value`; never held while decoding.
    private let lock = NSLock()
    private var text: String?
    private var value: Value?

    /// The value `text` decodes to: the cached one when `text` is the text decoded last, otherwise `decode(text)`
    /// (which is then cached; a failed decode is not).
    func value(for text: String, decode: (String) -> Value?) -> Value? {
        lock.lock()
        if let cached = self.text, cached == text, let value {
            lock.unlock()
            return value
        }
        lock.unlock()
        guard let decoded = decode(text) else { return nil }
        store(decoded, for: text)
        return decoded
    }

    /// Remembers that `text` decodes to `value` (a writer that made `text` from `value` skips the next decode of it).
    func store(_ value: Value, for text: String) {
        lock.lock()
        self.text = text
        self.value = value
        lock.unlock()
    }
}
