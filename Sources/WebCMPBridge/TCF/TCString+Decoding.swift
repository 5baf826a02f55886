extension TCString {
    /// The longest input accepted, in characters. A TC string with every vendor id in bitfields in all sections is
    /// far shorter; anything longer is rejected before any work.
    public static let maximumLength = 256 * 1024

    /// Decodes a TC string.
    ///
    /// Accepts base64url with or without trailing `=` padding and ignores the zero bits that pad each segment. The
    /// core segment must come first; DisclosedVendors (1), AllowedVendors (2) and PublisherTC (3) segments may follow
    /// in any order, each at most once.
    ///
    /// Spec: TC string format v2, "TC String Format" (core string, vendor sections, publisher restrictions,
    /// disclosed vendors, publisher purposes); AllowedVendors from the 2020 revision.
    /// - Throws: ``TCStringError`` describing the first problem found. Never traps, whatever the input.
    public init(decoding string: String) throws(TCStringError) {
        guard !string.isEmpty else { throw .empty }
        let length = string.utf8.count
        guard length <= TCString.maximumLength else { throw .tooLong(length: length, limit: TCString.maximumLength) }

        var model = TCString()
        var seen: Set<Int> = []
        var bytes: [UInt8] = []
        var segmentIndex = 0
        var characterOffset = 0
        for segment in TCString.segments(of: string) {
            defer {
                segmentIndex += 1
                // A segment that decoded is base64url, i.e. ASCII: its UTF-8 count is its character count (counting
                // Characters would cost more than the decode). A segment that did not decode ends the loop.
                characterOffset += segment.utf8.count + 1
            }
            guard !segment.isEmpty else { throw .emptySegment(index: segmentIndex) }
            try Base64URL.decode(segment.utf8, into: &bytes, offsetBase: characterOffset)
            let significant = segment.utf8.count - segment.utf8.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            var reader = BitReader(bytes: bytes, limit: significant * 6, segment: segmentIndex)
            if segmentIndex == 0 {
                try model.decodeCore(&reader)
                continue
            }
            let type = try reader.int(3, "SegmentType")
            guard type != 0, !seen.contains(type) else { throw .duplicateSegment(type: type, segment: segmentIndex) }
            seen.insert(type)
            switch type {
            case 1: model.disclosedVendors = try reader.vendorSection("DisclosedVendors")
            case 2: model.allowedVendors = try reader.vendorSection("AllowedVendors")
            case 3: model.publisherTC = try PublisherTC(reading: &reader)
            default: throw .unknownSegmentType(type, segment: segmentIndex)
            }
        }
        self = model
    }

    /// The `.`-separated segments of `string`, empty ones included. The separators are found in one pass over the
    /// contiguous UTF-8 bytes: splitting on Characters, the generic `split` or `firstIndex(of:)` on the UTF-8 view
    /// each cost more than decoding a segment.
    static func segments(of string: String) -> [Substring] {
        let utf8 = string.utf8
        let dot = UInt8(ascii: ".")
        var ends: [Int] = utf8.withContiguousStorageIfAvailable { bytes in
            var offsets: [Int] = []
            for offset in bytes.indices where bytes[offset] == dot { offsets.append(offset) }
            return offsets
        } ?? utf8.enumerated().compactMap { $0.element == dot ? $0.offset : nil }
        ends.append(utf8.count)
        var segments: [Substring] = []
        segments.reserveCapacity(ends.count)
        var start = utf8.startIndex
        var startOffset = 0
        for endOffset in ends {
            let end = utf8.index(start, offsetBy: endOffset - startOffset)
            segments.append(Substring(utf8[start..<end]))
            guard endOffset < utf8.count else { break }
            start = utf8.index(after: end)
            startOffset = endOffset + 1
        }
        return segments
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
        for _ in 0..<count {
            let purpose = try reader.int(6, "PubRestriction PurposeId")
            let rawType = try reader.int(2, "PubRestriction RestrictionType")
            let vendors = try reader.ranges("Publisher Restrictions Section", maximum: nil)
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
