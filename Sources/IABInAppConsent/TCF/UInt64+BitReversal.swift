extension UInt64 {
    /// This word with its bit order reversed (bit 0 becomes bit 63): a TC string bitfield lists id 1 first, in the
    /// most significant bit, while ``IDSet`` keeps id 1 in the least significant bit of its first word.
    @inline(__always)
    var bitReversed: UInt64 {
        var v = self
        v = ((v >> 1) & 0x5555_5555_5555_5555) | ((v & 0x5555_5555_5555_5555) << 1)
        v = ((v >> 2) & 0x3333_3333_3333_3333) | ((v & 0x3333_3333_3333_3333) << 2)
        v = ((v >> 4) & 0x0F0F_0F0F_0F0F_0F0F) | ((v & 0x0F0F_0F0F_0F0F_0F0F) << 4)
        return v.byteSwapped
    }
}
