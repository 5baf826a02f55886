extension IABKeySet {
    /// The entries of a key set, in the order they were added: the parts of `Array`'s interface the set uses, over a
    /// buffer of its own (copied on write) whose deinit destroys the entries in specialised code. An `[Entry]` was
    /// destroyed by the runtime's generic `swift_arrayDestroy`, through the entry's value witnesses one entry at a
    /// time (callgrind: ~600 instructions of a 334-character string's decode + map, besides the strings' releases).
    ///
    /// `@unchecked Sendable`: the buffer (a `ManagedBuffer`, which is not `Sendable`) is shared between copies of a
    /// set only while none of them writes; a write copies it first (`isKnownUniquelyReferenced`), as `Array` does.
    struct Entries: RandomAccessCollection, MutableCollection, @unchecked Sendable {
        private var storage: Storage

        /// No entries, room for `capacity`.
        init(capacity: Int = 0) { storage = Storage.make(capacity: capacity) }

        var startIndex: Int { 0 }
        var endIndex: Int { storage.count }

        subscript(index: Int) -> Entry {
            get {
                precondition(index >= 0 && index < endIndex, "IABKeySet.Entries: index out of range")
                return storage.withUnsafeMutablePointerToElements { $0[index] }
            }
            set {
                precondition(index >= 0 && index < endIndex, "IABKeySet.Entries: index out of range")
                makeUnique(capacity: endIndex)
                storage.withUnsafeMutablePointerToElements { $0[index] = newValue }
            }
        }

        /// Room for `capacity` entries without another allocation.
        mutating func reserveCapacity(_ capacity: Int) { makeUnique(capacity: capacity) }

        mutating func append(_ entry: Entry) {
            let count = endIndex
            if count == storage.room || !isKnownUniquelyReferenced(&storage) {
                makeUnique(capacity: count + 1)
            }
            storage.withUnsafeMutablePointers { header, entries in
                (entries + count).initialize(to: entry)
                header.pointee.count = count + 1
            }
        }

        /// Appends the entries `body` gives its ``Appender`` after one check that the buffer is this value's own and
        /// has room for `extra` more entries: the mapping's ~20 appends then skip `append(_:)`'s uniqueness check
        /// each (one `isKnownUniquelyReferenced` call and the header's capacity read per entry: 287 and 332
        /// instructions of the 334- and 457-character strings' decode + map, callgrind). The appender must not
        /// outlive `body`.
        mutating func appending<R>(room extra: Int, _ body: (inout Appender) -> R) -> R {
            let count = endIndex
            makeUnique(capacity: count + extra)
            return storage.withUnsafeMutablePointers { header, entries in
                var appender = Appender(entries: entries, count: count, capacity: header.pointee.capacity)
                // The count is stored whatever `body` does: entries `0..<appender.count` are initialised.
                defer { header.pointee.count = appender.count }
                return body(&appender)
            }
        }

        /// Writes entries after the initialised ones of a buffer this value owns (``appending(room:_:)``).
        struct Appender {
            fileprivate let entries: UnsafeMutablePointer<Entry>
            fileprivate private(set) var count: Int
            fileprivate let capacity: Int

            fileprivate init(entries: UnsafeMutablePointer<Entry>, count: Int, capacity: Int) {
                self.entries = entries
                self.count = count
                self.capacity = capacity
            }

            /// Appends `entry`; traps when the room asked for is used up (a caller's count is wrong).
            mutating func append(_ entry: Entry) {
                precondition(count < capacity, "IABKeySet.Entries.Appender: no room left")
                (entries + count).initialize(to: entry)
                count &+= 1
            }

            /// The entries appended so far and before (for the debug checks of the key set).
            func contains(where predicate: (Entry) -> Bool) -> Bool {
                for index in 0..<count where predicate(entries[index]) { return true }
                return false
            }
        }

        mutating func remove(at index: Int) {
            precondition(index >= 0 && index < endIndex, "IABKeySet.Entries: index out of range")
            makeUnique(capacity: endIndex)
            storage.withUnsafeMutablePointers { header, entries in
                let count = header.pointee.count
                _ = (entries + index).move()
                (entries + index).moveInitialize(from: entries + index + 1, count: count - index - 1)
                header.pointee.count = count - 1
            }
        }

        /// Makes the storage this value's own, with room for at least `capacity` entries: copied when shared, moved
        /// into a larger buffer (at least twice as large) when too small.
        private mutating func makeUnique(capacity: Int) {
            let unique = isKnownUniquelyReferenced(&storage)
            guard !unique || capacity > storage.room else { return }
            let old = storage
            let newCapacity = Swift.max(capacity, unique ? old.room * 2 : 0)
            storage = Storage.make(capacity: newCapacity)
            old.withUnsafeMutablePointers { oldHeader, oldEntries in
                storage.withUnsafeMutablePointers { header, entries in
                    let count = oldHeader.pointee.count
                    if unique {
                        entries.moveInitialize(from: oldEntries, count: count)
                        oldHeader.pointee.count = 0
                    } else {
                        entries.initialize(from: oldEntries, count: count)
                    }
                    header.pointee.count = count
                }
            }
        }
    }

    /// The buffer of ``Entries``: a count and a capacity, then the entries. Entries `0..<count` are initialised.
    final class Storage: ManagedBuffer<Storage.Header, Entry> {
        struct Header {
            var count: Int
            let capacity: Int
        }

        /// The header's fields, read through its pointer: `ManagedBuffer.header` is a class's stored property, whose
        /// every access is checked for exclusivity at run time (`swift_beginAccess`).
        var count: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
        var room: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

        static func make(capacity: Int) -> Storage {
            let buffer = Storage.create(minimumCapacity: capacity) { _ in Header(count: 0, capacity: capacity) }
            return unsafeDowncast(buffer, to: Storage.self)
        }

        deinit {
            withUnsafeMutablePointers { header, entries in
                // One entry at a time, each field in place: the value moved out of its address, the name only when
                // it holds a key (a known key's index is nothing to destroy). Moving the whole entry out copied both
                // fields and called the name's outlined destruction for every entry (238 and 262 instructions of the
                // 334- and 457-character strings' decode + map, callgrind). `move()`, not `deinitialize(count:)`,
                // which is the runtime's generic array destruction. The offsets are of stored properties: never
                // `nil`, and folded to constants (static lets cost their `swift_once` per entry and lost the gain).
                let valueOffset = MemoryLayout<Entry>.offset(of: \Entry.value)!
                let nameOffset = MemoryLayout<Entry>.offset(of: \Entry.name)!
                for index in 0..<header.pointee.count {
                    let entry = UnsafeMutableRawPointer(entries + index)
                    _ = entry.advanced(by: valueOffset).assumingMemoryBound(to: IABValue.self).move()
                    let name = entry.advanced(by: nameOffset).assumingMemoryBound(to: Entry.Name.self)
                    if case .custom = name.pointee { _ = name.move() }
                }
            }
        }
    }
}
