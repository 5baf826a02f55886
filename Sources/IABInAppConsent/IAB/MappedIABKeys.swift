/// An ``IABKeySet`` that the in-app key mapping produced for ``ConsentCommit``: valid by construction. The mapping
/// writes only keys of the owned families, with the spec's types, and only values it validated where they entered (the
/// strings it was given: the TC string decoded, the GPP string and its sections parsed, the US Privacy and Additional
/// Consent strings checked) or encoded itself (binary strings of `0`/`1`, publisher restrictions of `0`/`1`/`2`/`_`,
/// Booleans as `0`/`1`).
///
/// Only this module creates one, so the store writes it without checking each key again
/// (`ConsentStore.apply(_:record:provenance:details:now:)`); a key set from anywhere else goes through
/// `ConsentStore.validate(_:_:)` first. Debug builds (the tests, the fuzz targets' checks) check every key anyway, so
/// that a mapping that ever produced an invalid key is found rather than written.
package struct MappedIABKeys: Sendable, Hashable, Sequence {
    /// The keys.
    package let keySet: IABKeySet

    /// Wraps keys the mapping produced (and nothing else: see the type's documentation).
    init(mapped set: IABKeySet) {
        #if DEBUG
        for (key, value) in set {
            do {
                try ConsentStore.validate(key, value)
            } catch {
                preconditionFailure("the IAB key mapping produced an invalid key: \(error)")
            }
        }
        #endif
        keySet = set
    }

    /// The value of `key`, if present.
    package subscript(key: IABKey) -> IABValue? { keySet[key] }

    /// How many keys there are.
    package var count: Int { keySet.count }

    /// Visits each key and its value once.
    package func makeIterator() -> some IteratorProtocol<(key: IABKey, value: IABValue)> { keySet.makeIterator() }
}
