/// Decoding of a GPP US section string with its ``GPPUSSection`` description.
///
/// Spec: GPP "Consent String Specification", "Creating a GPP String" (each sub-section is bits padded with `0` to a
/// multiple of 6, written with the base64url alphabet, sub-sections joined by `.`) and "Section Encoding"; the GPC
/// sub-section of each US section's technical specification (`SubsectionType` Int(2) = 1, `Gpc` Boolean).
extension GPPUSSection {
    /// Decodes the section string (core, then the optional sub-section after a `.`).
    ///
    /// - The `Version` field selects the layout. usnat strings whose core length is that of the other version's
    ///   layout (encoders released while the layout changed without a version bump wrote version 1 with the version 2
    ///   lengths and the reverse; the IAB reference encoder accepts both) are read with the layout that fits the
    ///   length, and their lists are cut or zero-filled to the declared version's lengths.
    /// - Padding bits after the last field are ignored; a field beyond the end is an error.
    /// - `3` in a 2-bit field or list entry is an error: no US section defines it.
    ///
    /// - Throws: ``GPPUSSectionError``; never traps.
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
            let version = try read(&probe, bits: 6, field: "Version")
            guard let layout = layout(version: version) else {
                throw .unsupportedVersion(section: id, version: version)
            }
            declared = layout
        }
        let length = parts[0].utf8.count
        var encoded = declared
        if !declared.encodedLengths.contains(length),
            let fitting = layouts.first(where: { $0.encodedLengths.contains(length) })
        {
            encoded = fitting
        }
        var fields = try readFields(encoded.fields, from: &reader)
        if encoded != declared { fields = GPPUSSection.fields(fields, resizedTo: declared) }

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
        let version = hasVersionField ? declared.version : 1
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

    /// `fields`, read with another version's layout, with each list cut or zero-filled to `layout`'s length.
    private static func fields(_ fields: [GPPUSSectionData.Field], resizedTo layout: Layout) -> [GPPUSSectionData.Field] {
        layout.fields.map { target in
            let value = fields.first { $0.name == target.name }?.value
            switch (target.kind, value) {
            case let (.intList(count, _), .list(list)?):
                let kept = Array(list.prefix(count))
                return .init(name: target.name, value: .list(kept + Array(repeating: 0, count: count - kept.count)))
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
