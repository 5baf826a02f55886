/// A complete set of IAB in-app keys and values, as the consent store writes it in one call.
public struct IABKeySet: Sendable, Hashable {
    /// The keys and their values.
    public var values: [IABKey: IABValue]

    /// Creates a key set.
    public init(_ values: [IABKey: IABValue] = [:]) { self.values = values }

    /// The value of `key`, if present.
    public subscript(key: IABKey) -> IABValue? {
        get { values[key] }
        set { values[key] = newValue }
    }
}
