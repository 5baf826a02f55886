extension TCString {
    /// Decodes a TC string. (Skeleton: implemented by the codec work.)
    public init(decoding string: String) throws(TCStringError) {
        fatalError("TCString decoding is not implemented yet")
    }
}
