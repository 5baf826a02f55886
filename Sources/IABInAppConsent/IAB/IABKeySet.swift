/// A complete set of IAB in-app keys and values, as the consent store writes it in one call.
///
/// The keys are kept in a small array in the order they were added, not in a hash table: a set holds a few dozen keys,
/// and what the kit does with it — write every key to storage, compare it with what is stored — walks all of them.
/// Looking one key up (``subscript(_:)``) compares the keys' cached hash values, then names. Iterating the set
/// yields each key once; ``values`` gives the same pairs as a dictionary (built on each call).
public struct IABKeySet: Sendable, Hashable, Sequence {
    /// The entries, in the order they were added. No key appears twice (checked by ``_checkInvariants()``).
    private var entries: [Entry]

    /// One key and its value.
    public typealias Element = (key: IABKey, value: IABValue)

    /// A stored entry (a struct, not the `Element` tuple: the array's copies and destruction are then specialised
    /// code rather than the runtime's generic tuple handling).
    fileprivate struct Entry: Sendable {
        var key: IABKey
        var value: IABValue
    }


    /// Creates a key set.
    public init(_ values: [IABKey: IABValue] = [:]) {
        entries = []
        entries.reserveCapacity(values.count)
        for (key, value) in values { entries.append(Entry(key: key, value: value)) }
    }

    /// An empty key set with room for `capacity` keys.
    init(minimumCapacity capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// The keys and their values, as a dictionary (built from the entries on each call: to read one key, use
    /// ``subscript(_:)``; to visit all, iterate the set).
    public var values: [IABKey: IABValue] {
        get {
            var values = [IABKey: IABValue](minimumCapacity: entries.count)
            for entry in entries { values[entry.key] = entry.value }
            return values
        }
        set { self = IABKeySet(newValue) }
    }

    /// How many keys the set holds.
    public var count: Int { entries.count }

    /// Whether the set holds no key.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value of `key`, if present. Setting `nil` removes the key.
    public subscript(key: IABKey) -> IABValue? {
        get { index(of: key).map { entries[$0].value } }
        set {
            switch (index(of: key), newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append(Entry(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// Adds `key`, which the set must not hold yet: the mapping's way to fill a set it builds from distinct keys
    /// without looking each one up first.
    mutating func appendNew(_ key: IABKey, _ value: IABValue) {
        assert(index(of: key) == nil, "IABKeySet.appendNew: \(key.rawValue) is already in the set")
        entries.append(Entry(key: key, value: value))
    }

    /// Visits each key and its value once, in the order they were added.
    public func makeIterator() -> some IteratorProtocol<(key: IABKey, value: IABValue)> {
        entries.lazy.map { ($0.key, $0.value) }.makeIterator()
    }

    public var underestimatedCount: Int { entries.count }

    private func index(of key: IABKey) -> Int? { entries.firstIndex { $0.key == key } }

    /// Traps when a key appears twice (the one invariant ``appendNew(_:_:)`` relies on its callers for).
    func _checkInvariants() {
        var seen = Set<IABKey>(minimumCapacity: entries.count)
        for entry in entries {
            precondition(seen.insert(entry.key).inserted, "IABKeySet: \(entry.key.rawValue) appears twice")
        }
    }

    /// Two sets are equal when they hold the same keys with the same values, in any order (compared as ``values``:
    /// linear in the number of keys).
    public static func == (lhs: IABKeySet, rhs: IABKeySet) -> Bool {
        lhs.count == rhs.count && lhs.values == rhs.values
    }

    /// Hashes the keys and values independently of their order (as ``values``).
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
}
