/// Decoding of a GPP US section string with its ``GPPUSSection`` description.
///
/// Spec: GPP "Consent String Specification", "Creating a GPP String" (each sub-section is bits padded with `0` to a
/// multiple of 6, written with the base64url alphabet, sub-sections joined by `.`) and "Section Encoding"; the GPC
/// sub-section of each US section's technical specification (`SubsectionType` Int(2) = 1, `Gpc` Boolean).
extension GPPUSSection {
    /// Decodes the section string (core, then the optional sub-section after a `.`).
    ///
    /// - The `Version` field names the declared layout; the layout actually read is chosen by the core's length
    ///   (``readLayout(declared:availableBits:)``), and no field the string carries is ever dropped: see
    ///   ``resultLayout(declared:read:)`` for the rule and the IAB reference decoders it follows (usnat is the only
    ///   section with more than one layout).
    /// - Padding bits after the last field are ignored; a field beyond the end is an error.
    /// - `3` in a 2-bit field or list entry is an error: no US section defines it.
    ///
    /// - Throws: ``GPPUSSectionError``; never traps, and nothing is returned for a string that does not decode.
    func decode(_ string: String) throws(GPPUSSectionError) -> GPPUSSectionData {
        let parts = string.split(separator: ".", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() where part.isEmpty {
            throw .emptySubsection(section: id, index: index)
        }
        let allowed = optionalSubsection == nil ? 1 : 2
        guard parts.count <= allowed else { throw .unexpectedSubsection(section: id, index: allowed) }

        var reader = try bitReader(parts[0], offset: 0)
        var declared = layouts[0]
        if hasVersionField {
            var probe = reader
            let version = try read(&probe, bits: 6, field: GPPUSSection.versionField)
            guard let layout = layout(version: version) else {
                throw .unsupportedVersion(section: id, version: version)
            }
            declared = layout
        }
        let carried = readLayout(declared: declared, availableBits: reader.remaining)
        let result = GPPUSSection.resultLayout(declared: declared, read: carried)
        var fields = try readFields(carried.fields, from: &reader)
        if result != carried { fields = GPPUSSection.fields(fields, paddedTo: result) }
        if hasVersionField, let index = fields.firstIndex(where: { $0.name == GPPUSSection.versionField }) {
            fields[index].value = .int(result.version)
        }

        var gpc: Bool?
        if parts.count == 2 {
            var sub = try bitReader(parts[1], offset: parts[0].utf8.count + 1)
            switch optionalSubsection {
            case .gpc?:
                let type = try read(&sub, bits: 2, field: "SubsectionType")
                guard type == 1 else { throw .unknownSubsectionType(section: id, type: type) }
                gpc = try read(&sub, bits: 1, field: GPPUSSection.gpcField) == 1
            case .fields(let extra)?:
                fields += try readFields(extra, from: &sub)
            case nil:
                throw .unexpectedSubsection(section: id, index: 1)
            }
        }
        let version = hasVersionField ? result.version : 1
        return GPPUSSectionData(section: self, version: version, fields: fields, gpc: gpc)
    }

    /// A bit reader over one base64url sub-section; `offset` is its character offset in the section string.
    private func bitReader(_ part: Substring, offset: Int) throws(GPPUSSectionError) -> BitReader {
        var bytes: [UInt8] = []
        do {
            try Base64URL.decode(part.utf8, into: &bytes, offsetBase: offset)
        } catch {
            if case .invalidCharacter(_, let at) = error { throw .invalidCharacter(section: id, offset: at) }
            throw .invalidCharacter(section: id, offset: offset)
        }
        // Trailing `=` is dropped by the decoder: count only the bits that came out of it.
        let limit = Swift.min(part.utf8.count * 6, bytes.count * 8)
        return BitReader(bytes: bytes, limit: limit, segment: 0)
    }

    private func read(_ reader: inout BitReader, bits: Int, field: String) throws(GPPUSSectionError) -> Int {
        do {
            return try reader.int(bits, field)
        } catch {
            throw .truncated(section: id, field: field)
        }
    }

    private func readFields(
        _ fields: [GPPUSField], from reader: inout BitReader
    ) throws(GPPUSSectionError) -> [GPPUSSectionData.Field] {
        var values: [GPPUSSectionData.Field] = []
        values.reserveCapacity(fields.count)
        for field in fields {
            switch field.kind {
            case .int(let bits):
                values.append(.init(name: field.name, value: .int(try readChecked(&reader, bits: bits, field: field.name))))
            case let .intList(count, bits):
                var list: [Int] = []
                list.reserveCapacity(count)
                for index in 0..<count {
                    list.append(try readChecked(&reader, bits: bits, field: "\(field.name)[\(index + 1)]"))
                }
                values.append(.init(name: field.name, value: .list(list)))
            case .bool:
                values.append(.init(name: field.name, value: .bool(try read(&reader, bits: 1, field: field.name) == 1)))
            }
        }
        return values
    }

    /// Reads a field; a 2-bit value of 3 is rejected (US sections define 0, 1 and 2 only).
    private func readChecked(_ reader: inout BitReader, bits: Int, field: String) throws(GPPUSSectionError) -> Int {
        let value = try read(&reader, bits: bits, field: field)
        if bits == 2, value == 3 { throw .invalidValue(section: id, field: field, value: value) }
        return value
    }

    /// `fields`, read with a shorter layout than `layout`, in `layout`'s order, with each list zero-filled to
    /// `layout`'s length (`0` is "not applicable" in every US list) and any field the shorter layout lacks set to 0.
    /// A list is never cut: the catalog's later layouts are at least as long in every field (tested).
    private static func fields(_ fields: [GPPUSSectionData.Field], paddedTo layout: Layout) -> [GPPUSSectionData.Field] {
        layout.fields.map { target in
            let value = fields.first { $0.name == target.name }?.value
            switch (target.kind, value) {
            case let (.intList(count, _), .list(list)?):
                let added = Array(repeating: 0, count: Swift.max(0, count - list.count))
                return .init(name: target.name, value: .list(list + added))
            case (_, let value?):
                return .init(name: target.name, value: value)
            case (.intList(let count, _), nil):
                return .init(name: target.name, value: .list(Array(repeating: 0, count: count)))
            case (.bool, nil):
                return .init(name: target.name, value: .bool(false))
            case (.int, nil):
                return .init(name: target.name, value: .int(0))
            }
        }
    }
}

// MARK: - The length rule

extension GPPUSSection {
    /// The name of the field that selects the layout.
    static let versionField = "Version"

    /// The layout the core is read with: the longest of the section's layouts whose bits fit in the `availableBits`
    /// the core carries, the declared one among equals; the declared one when none fits (reading it then reports
    /// the first truncated field as a typed error).
    ///
    /// Only usnat (id 7) has more than one layout: version 1 (`SensitiveDataProcessing` 12 entries,
    /// `KnownChildSensitiveDataConsents` 2; 60 bits, 10 or 11 characters) and version 2 (16 and 3; 70 bits,
    /// 12 characters). So a usnat core of 12 or more characters is read with version 2's widths whatever its
    /// `Version` says, and one of 10 or 11 characters with version 1's, which is the length test of both reference
    /// decoders (below).
    func readLayout(declared: Layout, availableBits: Int) -> Layout {
        var best: Layout?
        for layout in layouts where layout.bitCount <= availableBits {
            if let current = best, current.bitCount > layout.bitCount { continue }
            if let current = best, current.bitCount == layout.bitCount, current == declared { continue }
            best = layout
        }
        return best ?? declared
    }

    /// The layout a decoded section reports (its version, and the length of each list): the longer of the
    /// declared layout and the layout read, so that no field the string carries is dropped and no list is shorter
    /// than its declared version defines.
    ///
    /// What this gives for usnat, and what the IAB reference decoders give for the same strings:
    /// - **`Version` 1 with version 2's lengths** (written by iabgpp-java 3.2.3–3.2.5 and iabgpp-es 3.1.5–3.1.9,
    ///   whose encoders kept `VERSION = 1` after the lists grew to 16 and 3 entries): read as version 2, every entry
    ///   kept, `IABGPP_USNAT_Version` = 2. This is iabgpp-java 4.0.0-RC1,
    ///   `iabgpp-encoder/src/main/java/com/iab/gpp/encoder/segment/UsNatCoreSegment.java`, `decodeBitString`
    ///   (branch `4.X`, commit `1fc490e`): a version-1 core of at least 72 bits is rewritten to version 2 before the
    ///   fields are read ("Upgrade to version 2"), and `UsNatField.java`'s `VersionedLengthProvider(12, 16)` /
    ///   `(2, 3)` size the lists by that version; its `UsNatTest.java:217` decodes `BVVVkkkkkpFY` as version 2 with
    ///   16 and 3 entries. (iabgpp-es 3.2.0, `modules/cmpapi/src/encoder/segment/UsNatCoreSegment.ts`,
    ///   `getFieldValue`, commit `fd0546e`, instead cuts a version-1 section's lists to 12 and 2 entries, which drops
    ///   the user's last choices; iabgpp-java 3.2.5, `UsNatCoreSegment.java` on `master`, commit `63ee596`, keeps the
    ///   16 and 3 entries under version 1.)
    /// - **`Version` 2 with version 1's lengths** (10 or 11 characters): read with version 1's widths, the lists
    ///   zero-filled to 16 and 3 entries, `IABGPP_USNAT_Version` = 2. This is iabgpp-es 3.2.0,
    ///   `UsNatCoreSegment.ts`, `decodeSegment` (commit `fd0546e`), which inserts `0` entries into a 60- or 66-bit
    ///   core ("backwards compatibility when sensitive data processing changed from a length of 12 to 16"); its
    ///   `modules/cmpapi/test/GppModel.test.ts:826` and `:846` decode `CAAAAAAAAQA.QA` and `CAAAAAABEQA.QA` to 16 and
    ///   3 entries. iabgpp-java 3.2.5's `UsNatCoreSegment.java` `decodeSegment` pads the same way. (iabgpp-java
    ///   4.0.0-RC1 has no rule for it: it reads version 2's widths, which run past the end of such a core, and its
    ///   `BitString` then throws "Bit string access out of range".)
    /// - Version 1 with version 1's lengths, version 2 with version 2's: as declared (12 and 2, 16 and 3 entries), as
    ///   iabgpp-es 3.2.0 and iabgpp-java 4.0.0-RC1 give (iabgpp-java 3.2.5 zero-fills version 1 to 16 and 3 entries).
    ///
    /// No state section (ids 8–27) has a second layout: each state's specification in
    /// InteractiveAdvertisingBureau/Global-Privacy-Platform (`b27beb4`) is at version 1.0 and its field widths never
    /// changed (the 2024 edits only rewrote `Bitfield(2n)` as `N-Bitfield(2, n)`), and no released iabgpp-java or
    /// iabgpp-es encoder wrote a state list with other lengths.
    static func resultLayout(declared: Layout, read: Layout) -> Layout {
        read.bitCount >= declared.bitCount ? read : declared
    }
}
