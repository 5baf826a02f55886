import Foundation

extension KeyValueStorage {
    /// Storage in a private dictionary, for tests and previews. Each call returns a new storage holding `initial`,
    /// with an ``identity`` of its own.
    static func inMemory(_ initial: [String: Value] = [:]) -> KeyValueStorage {
        let box = InMemoryBox(initial)
        return KeyValueStorage(
            identity: Identity("in-memory storage"),
            load: { keys in
                box.withLock { values in
                    var result: [String: Value] = [:]
                    for key in keys { result[key] = values[key] }
                    return result
                }
            },
            keys: { prefixes in
                box.withLock { values in
                    values.keys.filter { key in prefixes.contains { key.hasPrefix($0) } }
                }
            },
            write: { set, remove in
                box.withLock { values in
                    values.merge(set) { _, new in new }
                    for key in remove { values[key] = nil }
                }
            }
        )
    }
}

/// The dictionary behind `KeyValueStorage.inMemory(_:)`. `@unchecked Sendable`: every access holds `lock`.
private final class InMemoryBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: KeyValueStorage.Value]

    init(_ values: [String: KeyValueStorage.Value]) { self.values = values }

    func withLock<Result>(_ body: (inout [String: KeyValueStorage.Value]) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&values)
    }
}
