extension TCString {
    /// The longest input accepted, in characters. A TC string with every vendor id in bitfields in all sections is
    /// far shorter; anything longer is rejected before any work.
    static let maximumLength = 256 * 1024

    /// Decodes a TC string.
    ///
    /// Accepts base64url with or without trailing `=` padding and ignores the zero bits that pad each segment. The
    /// core segment must come first; DisclosedVendors (1), AllowedVendors (2) and PublisherTC (3) segments may follow
    /// in any order, each at most once.
    ///
    /// Spec: TC string format v2, "TC String Format" (core string, vendor sections, publisher restrictions,
    /// disclosed vendors, publisher purposes); AllowedVendors from the 2020 revision.
    /// - Throws: ``IABConsentError`` with the code ``IABConsentError/Code/invalidTCString`` describing the first
    ///   problem found. Never traps, whatever the input.
    public init(decoding string: String) throws(IABConsentError) {
        do {
            try self.init(decodingPrecisely: string)
        } catch {
            throw IABConsentError(error)
        }
    }

    /// ``init(decoding:)`` with the decoder's precise error.
    package init(decodingPrecisely string: String) throws(TCStringError) {
        guard !string.isEmpty else { throw .empty }
        let length = string.utf8.count
        guard length <= TCString.maximumLength else { throw .tooLong(length: length, limit: TCString.maximumLength) }

        self = try TCString.decoded(string, length: length)
    }

    /// The decoding of ``init(decodingPrecisely:)`` into a local model, returned (moved) to the initializer.
    /// (Decoding into `self` after `self.init()` copied the whole model twice through its value witnesses, with a
    /// retain and a release of each of its arrays: callgrind, ~10 % of a 334-character string's decode + map.)
    @inline(__always)
    private static func decoded(_ string: String, length: Int) throws(TCStringError) -> TCString {
        var model = TCString()
        try model.decodeSegments(of: string, length: length)
        return model
    }

    /// Reads every segment of `string` (`length` UTF-8 bytes, checked by the caller) into `self`.
    private mutating func decodeSegments(of string: String, length: Int) throws(TCStringError) {
        var string = string
        string.makeContiguousUTF8()  // a no-op for native strings; segmentEnd reads the bytes in place
        let utf8 = string.utf8
        var seenTypes: UInt8 = 0  // bit n: a segment of type n was read
        // One buffer for every segment: sized for the whole string, reused by each segment's decode.
        var bytes: [UInt8] = []
        bytes.reserveCapacity((length * 6 + 7) / 8)
        var segmentIndex = 0
        var start = 0  // byte offset of the segment; a decoded segment is ASCII, so also its character offset
        while true {
            let end = TCString.segmentEnd(in: utf8, from: start)
            guard end > start else { throw .emptySegment(index: segmentIndex) }
            let first = utf8.index(utf8.startIndex, offsetBy: start)
            let segment = utf8[first..<utf8.index(first, offsetBy: end - start)]
            try Base64URL.decode(segment, into: &bytes, offsetBase: start)
            var significant = end - start
            while significant > 0, segment[utf8.index(first, offsetBy: significant - 1)] == UInt8(ascii: "=") {
                significant -= 1
            }
            var reader = BitReader(bytes: bytes, limit: significant * 6, segment: segmentIndex)
            if segmentIndex == 0 {
                try decodeCore(&reader)
            } else {
                let type = try reader.int(3, "SegmentType")
                guard type != 0, seenTypes & (1 << type) == 0 else {
                    throw .duplicateSegment(type: type, segment: segmentIndex)
                }
                seenTypes |= 1 << type
                switch type {
                case 1: disclosedVendors = try reader.vendorSection("DisclosedVendors")
                case 2: allowedVendors = try reader.vendorSection("AllowedVendors")
                case 3: publisherTC = try PublisherTC(reading: &reader)
                default: throw .unknownSegmentType(type, segment: segmentIndex)
                }
            }
            guard end < length else { break }
            segmentIndex += 1
            start = end + 1
        }
    }

    /// The byte offset of the first `.` at or after byte `offset` of `utf8`, or its end. One pass over the contiguous
    /// UTF-8 bytes: splitting on Characters, the generic `split` or `firstIndex(of:)` on the UTF-8 view each cost
    /// more than decoding a segment.
    static func segmentEnd(in utf8: String.UTF8View, from offset: Int) -> Int {
        let dot = UInt8(ascii: ".")
        return utf8.withContiguousStorageIfAvailable { bytes in
            var end = offset
            // Eight bytes at a time: `word ^ dots` has a zero byte where a `.` is; the lowest flagged byte of the
            // zero-byte test is exact (a false flag can only follow a true one).
            let raw = UnsafeRawBufferPointer(bytes)
            while end + 8 <= raw.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)) ^ 0x2E2E_2E2E_2E2E_2E2E
                let zero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                if zero != 0 { return end + zero.trailingZeroBitCount / 8 }
                end += 8
            }
            while end < bytes.count, bytes[end] != dot { end += 1 }
            return end
        } ?? (utf8.dropFirst(offset).firstIndex(of: dot).map { utf8.distance(from: utf8.startIndex, to: $0) } ?? utf8.count)
    }

    private mutating func decodeCore(_ reader: inout BitReader) throws(TCStringError) {
        version = try reader.int(6, "Version")
        guard version == 2 else { throw .unsupportedVersion(version) }
        createdDeciseconds = Int64(try reader.read(36, "Created"))
        lastUpdatedDeciseconds = Int64(try reader.read(36, "LastUpdated"))
        cmpID = try reader.int(12, "CmpId")
        cmpVersion = try reader.int(12, "CmpVersion")
        consentScreen = try reader.int(6, "ConsentScreen")
        consentLanguage = try reader.letters("ConsentLanguage")
        vendorListVersion = try reader.int(12, "VendorListVersion")
        policyVersion = try reader.int(6, "TcfPolicyVersion")
        isServiceSpecific = try reader.bool("IsServiceSpecific")
        useNonStandardTexts = try reader.bool("UseNonStandardTexts")
        specialFeatureOptIns = try reader.bitfield(12, "SpecialFeatureOptIns")
        purposeConsents = try reader.bitfield(24, "PurposesConsent")
        purposeLegitimateInterests = try reader.bitfield(24, "PurposesLITransparency")
        purposeOneTreatment = try reader.bool("PurposeOneTreatment")
        publisherCountryCode = try reader.letters("PublisherCC")
        vendorConsents = try reader.vendorSection("Vendor Consent Section")
        vendorLegitimateInterests = try reader.vendorSection("Vendor Legitimate Interest Section")
        let count = try reader.int(12, "NumPubRestrictions")
        var restrictions: [PublisherRestriction] = []
        restrictions.reserveCapacity(count)
        // Restrictions name vendors of the vendor sections, as a rule: their words are sized for those first.
        let expected = Swift.max(vendorConsents.max ?? 0, vendorLegitimateInterests.max ?? 0)
        for _ in 0..<count {
            let purpose = try reader.int(6, "PubRestriction PurposeId")
            let rawType = try reader.int(2, "PubRestriction RestrictionType")
            let vendors = try reader.ranges("Publisher Restrictions Section", maximum: nil, expected: expected)
            // A 2-bit value always names a case.
            let type = RestrictionType(rawValue: rawType) ?? .undefined
            restrictions.append(PublisherRestriction(purposeID: purpose, restrictionType: type, vendors: vendors))
        }
        publisherRestrictions = restrictions
    }
}

extension PublisherTC {
    /// Reads the PublisherTC segment after its SegmentType.
    init(reading reader: inout BitReader) throws(TCStringError) {
        let consents = try reader.bitfield(24, "PubPurposesConsent")
        let legitimateInterests = try reader.bitfield(24, "PubPurposesLITransparency")
        let custom = try reader.int(6, "NumCustomPurposes")
        self.init(
            purposeConsents: consents,
            purposeLegitimateInterests: legitimateInterests,
            numberOfCustomPurposes: custom,
            customPurposeConsents: try reader.bitfield(custom, "CustomPurposesConsent"),
            customPurposeLegitimateInterests: try reader.bitfield(custom, "CustomPurposesLITransparency")
        )
    }
}
