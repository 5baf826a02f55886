import Foundation

/// Whether a consent UI is in progress over one storage (`KeyValueStorage.Identity.consentUIHolds`): what a reader
/// that must not act while the user is still choosing (an app's "start the ad SDKs" gate) waits on.
///
/// Whoever shows a consent UI over the storage takes a ``ConsentUIHold`` (``makeHold()``) and sets it held while its
/// UI, or a prompt that belongs to it, may be on screen. The storage is held while any of its holds is held; a hold
/// released with its owner (its `deinit`) lets go at once, so a UI dropped without ending its run does not hold the
/// storage for good. The module knows nothing of what the UI is: a hold is only "a consent UI is in progress here".
///
/// `@unchecked Sendable`: every access holds `lock`; streams are told after it is released.
package final class ConsentUIHolds: @unchecked Sendable {
    private let lock = NSLock()
    /// The holds held now, by id.
    private var held: Set<Int> = []
    private var nextID = 0
    private var listeners: [Int: AsyncStream<Void>.Continuation] = [:]

    /// Creates the holds of a new storage: none held.
    init() {}

    /// Whether any hold is held: a consent UI may be on screen over the storage.
    package var isHeld: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !held.isEmpty
    }

    /// A new hold over this storage, not held.
    package func makeHold() -> ConsentUIHold {
        lock.lock()
        defer { lock.unlock() }
        nextID += 1
        return ConsentUIHold(holds: self, id: nextID)
    }

    /// A stream that gets a value whenever a hold over this storage is taken or let go (it keeps only the newest: a
    /// reader decides again from ``isHeld``), until its task is cancelled or the stream is released.
    package func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        lock.lock()
        nextID += 1
        let id = nextID
        listeners[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.removeListener(id) }
        return stream
    }

    /// Whether hold `id` is held.
    func isHeld(_ id: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return held.contains(id)
    }

    /// Sets hold `id` held or not, and tells the streams when that changed.
    func set(_ id: Int, held isHeld: Bool) {
        lock.lock()
        let changed = isHeld ? held.insert(id).inserted : held.remove(id) != nil
        let current = changed ? Array(listeners.values) : []
        lock.unlock()
        for listener in current { listener.yield() }
    }

    private func removeListener(_ id: Int) {
        lock.lock()
        listeners[id] = nil
        lock.unlock()
    }
}

/// One owner's hold over a storage's consent UI (``ConsentUIHolds``): held while the owner's UI may be on screen;
/// let go when the owner says so or is released.
package final class ConsentUIHold: Sendable {
    private let holds: ConsentUIHolds
    private let id: Int

    init(holds: ConsentUIHolds, id: Int) {
        self.holds = holds
        self.id = id
    }

    /// Whether the hold is held. Setting it tells the storage's ``ConsentUIHolds/changes()`` streams when it changes.
    package var isHeld: Bool {
        get { holds.isHeld(id) }
        set { holds.set(id, held: newValue) }
    }

    /// Lets go: an owner released with its UI in progress no longer holds the storage.
    deinit {
        holds.set(id, held: false)
    }
}
