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
        self = try TCString.decodedPrecisely(string)
    }

    /// ``init(decodingPrecisely:)`` as a function: the model is returned in place. (Assigning `self` in the
    /// initializer copied the model and destroyed the original, twice: callgrind, ~650 instructions a decode of a
    /// 334-character string; the mapping and `ConsentCommit` decode through this.)
    package static func decodedPrecisely(_ string: String) throws(TCStringError) -> TCString {
        guard !string.isEmpty else { throw .empty }
        let length = string.utf8.count
        guard length <= TCString.maximumLength else { throw .tooLong(length: length, limit: TCString.maximumLength) }
        return try TCString.decoded(string, length: length)
    }

    /// The decoding of ``init(decodingPrecisely:)``: every segment of `string` (`length` UTF-8 bytes, checked by the
    /// caller), each field read into a local and the model made once, at the end, by the memberwise init, and
    /// returned (moved) to the initializer. (A model decoded field by field — `TCString()`, then each field, or a
    /// model made by the core segment's reading and then given the optional segments — was copied and destroyed
    /// through its value witnesses one to three times a decode: callgrind, ~300 instructions each, of a
    /// 334-character string's decode + map; into `self` after `self.init()` it was copied twice.)
    @inline(__always)
    private static func decoded(_ string: String, length: Int) throws(TCStringError) -> TCString {
        var string = string
        string.makeContiguousUTF8()  // a no-op for native strings; the decode reads the bytes in place
        let utf8 = string.utf8
        // One buffer for the core and the segment after it (DisclosedVendors, usually): both are decoded into it, one
        // after the other, before any set keeps it (a vendor bitfield: `BitSpan`), so that the second needs no buffer
        // of its own (the sets then keep the buffer as it stays; writing into it afterwards would copy it). Sized for
        // the whole string and the padding of up to four segments. Later segments reuse it from its start unless a
        // set read so far keeps it; they then get a new one. The second segment's errors are thrown when it is read,
        // after the core's fields: the same errors in the same order as decoding each segment as it is reached.
        var bytes: [UInt8] = []
        bytes.reserveCapacity((length * 6 + 7) / 8 + 4 * (BitReader.padding + 1))
        let core = decodeSegment(utf8, from: 0, into: &bytes, at: 0)
        try core.check(in: utf8, index: 0)
        let second = core.end < length ? decodeSegment(utf8, from: core.end + 1, into: &bytes, at: bytes.count) : nil

        // The core segment, every field in string order.
        var reader = core.reader(bytes, index: 0)
        var end = core.end
        let version = try reader.int(6, "Version")
        guard version == 2 else { throw .unsupportedVersion(version) }
        let created = Int64(try reader.read(36, "Created"))
        let lastUpdated = Int64(try reader.read(36, "LastUpdated"))
        let cmpID = try reader.int(12, "CmpId")
        let cmpVersion = try reader.int(12, "CmpVersion")
        let consentScreen = try reader.int(6, "ConsentScreen")
        let consentLanguage = try reader.letters("ConsentLanguage")
        let vendorListVersion = try reader.int(12, "VendorListVersion")
        let policyVersion = try reader.int(6, "TcfPolicyVersion")
        let isServiceSpecific = try reader.bool("IsServiceSpecific")
        let useNonStandardTexts = try reader.bool("UseNonStandardTexts")
        let specialFeatureOptIns = try reader.bitfield(12, "SpecialFeatureOptIns")
        let purposeConsents = try reader.bitfield(24, "PurposesConsent")
        let purposeLegitimateInterests = try reader.bitfield(24, "PurposesLITransparency")
        let purposeOneTreatment = try reader.bool("PurposeOneTreatment")
        let publisherCountryCode = try reader.letters("PublisherCC")
        let vendorConsents = try reader.vendorSection("Vendor Consent Section")
        let vendorLegitimateInterests = try reader.vendorSection("Vendor Legitimate Interest Section")
        let restrictions = try publisherRestrictions(&reader)

        // The optional segments, in any order, each at most once.
        var disclosedVendors: IDSet?
        var allowedVendors: IDSet?
        var publisherTC: PublisherTC?
        var seenTypes: UInt8 = 0  // bit n: a segment of type n was read
        var segmentIndex = 0
        var shared = false  // a set read so far keeps `bytes`
        while end < length {
            shared = shared || reader.sharesBytes
            segmentIndex += 1
            let segment: DecodedSegment
            if segmentIndex == 1, let second {
                segment = second
            } else {
                if shared { bytes = [] }
                reader = BitReader(bytes: [], limit: 0, segment: 0)  // lets go of the bytes before they are reused
                segment = decodeSegment(utf8, from: end + 1, into: &bytes, at: 0)
            }
            try segment.check(in: utf8, index: segmentIndex)
            reader = segment.reader(bytes, index: segmentIndex)
            end = segment.end
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
        return TCString(
            version: version, createdDeciseconds: created, lastUpdatedDeciseconds: lastUpdated, cmpID: cmpID,
            cmpVersion: cmpVersion, consentScreen: consentScreen, consentLanguage: consentLanguage,
            vendorListVersion: vendorListVersion, policyVersion: policyVersion, isServiceSpecific: isServiceSpecific,
            useNonStandardTexts: useNonStandardTexts, specialFeatureOptIns: specialFeatureOptIns,
            purposeConsents: purposeConsents, purposeLegitimateInterests: purposeLegitimateInterests,
            purposeOneTreatment: purposeOneTreatment, publisherCountryCode: publisherCountryCode,
            vendorConsents: vendorConsents, vendorLegitimateInterests: vendorLegitimateInterests,
            publisherRestrictions: restrictions, disclosedVendors: disclosedVendors, allowedVendors: allowedVendors,
            publisherTC: publisherTC)
    }

    /// A segment decoded into the decode buffer from byte `base`, by ``decodeSegment(_:from:into:at:)``: where it
    /// starts and ends in the string (its `.` or the string's end), where its data ends (before any trailing `=`),
    /// and the first byte that is outside the alphabet and not trailing padding, if any (the bytes are then unusable).
    struct DecodedSegment {
        let start: Int
        let end: Int
        let dataEnd: Int
        let badByte: Int?
        let base: Int

        /// Throws the segment's error, if it has one (its `index` in the string): the first character outside the
        /// alphabet that is not trailing `=` padding, at its character offset; then an empty segment.
        @inline(__always)
        func check(in utf8: String.UTF8View, index: Int) throws(TCStringError) {
            if let badByte {
                // The error path: the segment as the former split gave it (up to its `.`), for the character and its
                // offset. A decoded segment is ASCII up to the bad byte, so `start` is also its character offset.
                let segmentEnd = TCString.segmentEnd(in: utf8, from: start)
                let first = utf8.index(utf8.startIndex, offsetBy: start)
                let segment = Substring(utf8[first..<utf8.index(first, offsetBy: segmentEnd - start)])
                let (bad, characterOffset) = Base64URL.character(in: segment, atByte: badByte - start)
                throw .invalidCharacter(bad, offset: start + characterOffset)
            }
            // (A bad byte is inside the segment, so a segment with one is never empty: the former order of the checks.)
            guard end > start else { throw .emptySegment(index: index) }
        }

        /// A reader over the segment's bits in `bytes` (the buffer it was decoded into, as it is now).
        @inline(__always)
        func reader(_ bytes: [UInt8], index: Int) -> BitReader {
            BitReader(bytes: bytes, startingAt: base, limit: (dataEnd - start) * 6, segment: index)
        }
    }

    /// Decodes the segment that starts at byte `start` of `utf8` into `bytes` from byte `base` (at most
    /// `bytes.count`). The segment's end is found by the decode itself (``Base64URL/decodeSegment(_:from:into:at:)``);
    /// its errors (``DecodedSegment/check(in:index:)``) are those of finding the `.` first, then decoding the
    /// segment.
    @inline(__always)
    private static func decodeSegment(
        _ utf8: String.UTF8View, from start: Int, into bytes: inout [UInt8], at base: Int
    ) -> DecodedSegment {
        // Contiguous for a native string (the caller made it so); a copy otherwise.
        let (end, dataEnd, badByte) = utf8.withContiguousStorageIfAvailable {
            Base64URL.decodeSegment($0, from: start, into: &bytes, at: base)
        } ?? Array(utf8).withUnsafeBufferPointer { Base64URL.decodeSegment($0, from: start, into: &bytes, at: base) }
        return DecodedSegment(start: start, end: end, dataEnd: dataEnd, badByte: badByte, base: base)
    }

    /// The byte offset of the first `.` at or after byte `offset` of `utf8`, or its end. One pass over the contiguous
    /// UTF-8 bytes: splitting on Characters, the generic `split` or `firstIndex(of:)` on the UTF-8 view each cost
    /// more than decoding a segment. Only the error path looks for the `.` this way: a valid segment's end is found
    /// by its decode (``Base64URL/decodeSegment(_:from:into:at:)``).
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

    /// Reads the Publisher Restrictions Section (NumPubRestrictions, then each entry).
    @inline(__always)
    private static func publisherRestrictions(_ reader: inout BitReader) throws(TCStringError) -> [PublisherRestriction] {
        let count = try reader.int(12, "NumPubRestrictions")
        var restrictions: [PublisherRestriction] = []
        if count > 1 { restrictions.reserveCapacity(count) }
        for _ in 0..<count {
            let purpose = try reader.int(6, "PubRestriction PurposeId")
            let rawType = try reader.int(2, "PubRestriction RestrictionType")
            let vendors = try reader.ranges("Publisher Restrictions Section", maximum: nil)
            // A 2-bit value always names a case.
            let type = RestrictionType(rawValue: rawType) ?? .undefined
            let restriction = PublisherRestriction(purposeID: purpose, restrictionType: type, vendors: vendors)
            // One restriction, the usual count, as an array literal: its allocation is cheaper than reserving
            // capacity (the array's growth path: ~120 instructions, callgrind).
            if count == 1 { return [restriction] }
            restrictions.append(restriction)
        }
        return restrictions
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
