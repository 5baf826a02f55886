extension TCString {
    /// The TC string for this model, base64url without padding. (Skeleton: implemented by the codec work.)
    public func encoded() throws(TCStringError) -> String {
        fatalError("TCString encoding is not implemented yet")
    }
}
