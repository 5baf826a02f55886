/// A complete set of IAB in-app keys and values, as the consent store writes it in one call.
///
/// The keys are kept in a small array in the order they were added, not in a hash table: a set holds a few dozen keys,
/// and what the kit does with it — write every key to storage, compare it with what is stored — walks all of them.
/// Looking one key up (``subscript(_:)``) compares the keys' cached hash values, then names. Iterating the set
/// yields each key once; ``values`` gives the same pairs as a dictionary (built on each call).
public struct IABKeySet: Sendable, Hashable, Sequence {
    /// The entries, in the order they were added. No key appears twice (checked by ``_checkInvariants()``).
    private var entries: Entries

    /// One key and its value.
    public typealias Element = (key: IABKey, value: IABValue)

    /// A stored entry (a struct, not the `Element` tuple: the array's copies and destruction are then specialised
    /// code rather than the runtime's generic tuple handling).
    ///
    /// A key the mapping writes is kept as its index in ``knownKeys``: appending it copies no string (no retain, and
    /// no lazy `static let` to reach) and destroying the entry releases no key — the 19 TCF keys and the restriction
    /// keys of a save were ~1,000 instructions of a 334-character string's decode + map (callgrind). Any other key is
    /// kept as itself. (An enum, not an optional key beside the index: destroying a `nil` key still called the
    /// runtime's release.)
    struct Entry: Sendable {
        enum Name: Sendable {
            case known(UInt16)
            case custom(IABKey)
        }

        var name: Name
        var value: IABValue

        init(_ key: IABKey, _ value: IABValue) {
            name = .custom(key)
            self.value = value
        }

        init(_ known: Known, _ value: IABValue) {
            name = .known(known.rawValue)
            self.value = value
        }

        var key: IABKey {
            switch name {
            case .known(let index): IABKeySet.knownKeys[Int(index)]
            case .custom(let key): key
            }
        }
    }

    /// A key the mapping writes, by its index in ``knownKeys``: the TCF keys of
    /// `addTCFKeys(for:rawValue:gdprApplies:cmpSDKID:cmpSDKVersion:into:)`, then `IABTCF_PublisherRestrictions{ID}`
    /// for the 6-bit purpose ids (``restriction(purpose:)``).
    struct Known: Sendable {
        let rawValue: UInt16

        static let cmpSDKID = Known(rawValue: 0)
        static let cmpSDKVersion = Known(rawValue: 1)
        static let policyVersion = Known(rawValue: 2)
        static let gdprApplies = Known(rawValue: 3)
        static let publisherCC = Known(rawValue: 4)
        static let purposeOneTreatment = Known(rawValue: 5)
        static let useNonStandardTexts = Known(rawValue: 6)
        static let useNonStandardStacks = Known(rawValue: 7)
        static let tcString = Known(rawValue: 8)
        static let vendorConsents = Known(rawValue: 9)
        static let vendorLegitimateInterests = Known(rawValue: 10)
        static let disclosedVendors = Known(rawValue: 11)
        static let purposeConsents = Known(rawValue: 12)
        static let purposeLegitimateInterests = Known(rawValue: 13)
        static let specialFeatureOptIns = Known(rawValue: 14)
        static let publisherConsent = Known(rawValue: 15)
        static let publisherLegitimateInterests = Known(rawValue: 16)
        static let publisherCustomPurposesConsents = Known(rawValue: 17)
        static let publisherCustomPurposesLegitimateInterests = Known(rawValue: 18)
        /// The first restriction key: `IABTCF_PublisherRestrictions0` (purpose 0, never written).
        private static let firstRestriction: UInt16 = 19

        /// `IABTCF_PublisherRestrictions{purpose}`, for a purpose id below 64 (a 6-bit `PurposeId`).
        static func restriction(purpose: Int) -> Known? {
            guard purpose >= 0, purpose < 64 else { return nil }
            return Known(rawValue: firstRestriction + UInt16(purpose))
        }
    }

    /// The keys of ``Known``, in its order.
    static let knownKeys: [IABKey] = [
        .cmpSDKID, .cmpSDKVersion, .policyVersion, .gdprApplies, .publisherCC, .purposeOneTreatment,
        .useNonStandardTexts, .useNonStandardStacks, .tcString, .vendorConsents, .vendorLegitimateInterests,
        .disclosedVendors, .purposeConsents, .purposeLegitimateInterests, .specialFeatureOptIns, .publisherConsent,
        .publisherLegitimateInterests, .publisherCustomPurposesConsents, .publisherCustomPurposesLegitimateInterests,
    ] + (0..<64).map { IABKey.publisherRestrictions(purpose: $0) }


    /// Creates a key set.
    public init(_ values: [IABKey: IABValue] = [:]) {
        entries = Entries(capacity: values.count)
        for (key, value) in values { entries.append(Entry(key, value)) }
    }

    /// An empty key set with room for `capacity` keys.
    init(minimumCapacity capacity: Int) {
        entries = Entries(capacity: capacity)
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
            case (nil, let value?): entries.append(Entry(key, value))
            case (nil, nil): break
            }
        }
    }

    /// Adds `key`, which the set must not hold yet: the mapping's way to fill a set it builds from distinct keys
    /// without looking each one up first.
    mutating func appendNew(_ key: IABKey, _ value: IABValue) {
        appending(room: 1) { $0.appendNew(key, value) }
    }

    /// Adds a key the mapping writes (``Known``), which the set must not hold yet (as ``appendNew(_:_:)``).
    mutating func appendKnown(_ key: Known, _ value: IABValue) {
        appending(room: 1) { $0.appendKnown(key, value) }
    }

    /// Appends keys the set must not hold yet through `body`, with room for `extra` of them made once
    /// (``Entries/appending(room:_:)``): the mapping's way to write the TCF keys.
    mutating func appending<R>(room extra: Int, _ body: (inout Appender) -> R) -> R {
        entries.appending(room: extra) { entries in
            var appender = Appender(entries: entries)
            defer { entries = appender.entries }
            return body(&appender)
        }
    }

    /// Appends keys to a set (``appending(room:_:)``); each key must not be in the set yet (checked in debug builds).
    struct Appender {
        fileprivate var entries: Entries.Appender

        /// Adds `key` (as ``IABKeySet/appendNew(_:_:)``).
        mutating func appendNew(_ key: IABKey, _ value: IABValue) {
            assert(!entries.contains { $0.key == key }, "IABKeySet.appendNew: \(key.rawValue) is already in the set")
            entries.append(Entry(key, value))
        }

        /// Adds a key the mapping writes (as ``IABKeySet/appendKnown(_:_:)``).
        mutating func appendKnown(_ key: Known, _ value: IABValue) {
            assert(
                !entries.contains { $0.key == IABKeySet.knownKeys[Int(key.rawValue)] },
                "IABKeySet.appendKnown: the key is already in the set")
            entries.append(Entry(key, value))
        }
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
