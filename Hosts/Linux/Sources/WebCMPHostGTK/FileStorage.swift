import Foundation
import WebCMPBridge

extension KeyValueStorage {
    /// Storage persisted as one JSON file (`DIR/defaults.json`), so that `webcmp-host --state DIR` keeps consent
    /// between runs like an app's `UserDefaults` does. Writes replace the file atomically.
    package static func jsonFile(in directory: URL) throws -> KeyValueStorage {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = FileBackedValues(url: directory.appendingPathComponent("defaults.json"))
        return KeyValueStorage(
            load: { keys in file.withValues { values in values.filter { keys.contains($0.key) } } },
            keys: { prefixes in file.withValues { values in values.keys.filter { key in prefixes.contains { key.hasPrefix($0) } } } },
            write: { set, remove throws(ConsentStoreError) in
                try file.update { values in
                    values.merge(set) { _, new in new }
                    for key in remove { values[key] = nil }
                }
            }
        )
    }
}

/// The file's contents behind a lock.
private final class FileBackedValues: @unchecked Sendable {
    private let url: URL
    private let lock = NSLock()
    private var values: [String: KeyValueStorage.Value]

    init(url: URL) {
        self.url = url
        values = (try? Data(contentsOf: url)).flatMap(FileBackedValues.decode) ?? [:]
    }

    func withValues<T>(_ body: ([String: KeyValueStorage.Value]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(values)
    }

    func update(_ body: (inout [String: KeyValueStorage.Value]) -> Void) throws(ConsentStoreError) {
        lock.lock()
        defer { lock.unlock() }
        var next = values
        body(&next)
        do {
            try FileBackedValues.encode(next).write(to: url, options: .atomic)
        } catch {
            throw .storageUnavailable(suiteName: url.path)
        }
        values = next
    }

    private static func encode(_ values: [String: KeyValueStorage.Value]) throws -> Data {
        var object: [String: [String: JSONValue]] = [:]
        for (key, value) in values {
            switch value {
            case .int(let int): object[key] = ["int": .number(Double(int))]
            case .double(let double): object[key] = ["double": .number(double)]
            case .string(let string): object[key] = ["string": .string(string)]
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(object)
    }

    private static func decode(_ data: Data) -> [String: KeyValueStorage.Value]? {
        guard let object = try? JSONDecoder().decode([String: [String: JSONValue]].self, from: data) else { return nil }
        var values: [String: KeyValueStorage.Value] = [:]
        for (key, tagged) in object {
            if case .number(let n)? = tagged["int"] { values[key] = .int(Int(n)) }
            else if case .number(let n)? = tagged["double"] { values[key] = .double(n) }
            else if case .string(let s)? = tagged["string"] { values[key] = .string(s) }
        }
        return values
    }
}
