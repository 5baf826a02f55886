import Foundation

/// Counts keys read, from any thread. One file for both test targets: `Tests/WebCMPBridgeTests/Fakes/` links to it.
final class ReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    func add(_ n: Int) { lock.lock(); value += n; lock.unlock() }
    func reset() { lock.lock(); value = 0; lock.unlock() }
}
