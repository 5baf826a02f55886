/// A decoded GPP US section: its field values in encoding order and the optional GPC flag.
///
/// Produced by ``GPPUSSection/decode(_:)``; ``keys`` turns it into the per-field in-app keys.
struct GPPUSSectionData: Sendable, Hashable {
    /// The section's description.
    var section: GPPUSSection
    /// The section version whose layout the fields follow, also the value of the `Version` field; 1 for sections
    /// without one (24–27). For usnat it can differ from the string's own `Version` (a version 1 string with version
    /// 2's lengths is version 2 here): see ``GPPUSSection/resultLayout(declared:read:)``.
    var version: Int
    /// The core and optional sub-section fields, in encoding order.
    var fields: [Field]
    /// The `Gpc` flag; `nil` when the GPC sub-section is absent.
    var gpc: Bool?

    /// One decoded field.
    struct Field: Sendable, Hashable {
        /// The field name (the key suffix).
        var name: String
        /// The value.
        var value: GPPUSValue
    }

    /// The value of field `name`, if the section has it.
    subscript(name: String) -> GPPUSValue? {
        fields.first { $0.name == name }?.value
    }

    /// The integer value of field `name` when it is an `Int(n)` field.
    func int(_ name: String) -> Int? {
        if case .int(let value)? = self[name] { return value }
        return nil
    }

    /// The per-field in-app keys, `IABGPP_{PREFIX}_{FieldName}` (GPP CMP API "In-App Details": prefix, `_`, the
    /// field name of the section's specification, with the data-type conversion table).
    ///
    /// - The prefix is the API name upper-cased (`USNAT`, `USCA`, …), as US ad SDKs read these keys.
    /// - Every core field is written, `Version` (or `MspaVersion`) included; lists as values joined by `_`.
    /// - `IABGPP_{PREFIX}_Gpc` (0/1) only when the GPC sub-section is present. Its `SubsectionType` is framing, not a
    ///   field value, so it has no key; neither have the reference encoder's bookkeeping flags `GpcSegmentType`,
    ///   `GpcSegmentIncluded` or `SensitiveDataConsentSegmentIncluded`, which no spec table lists.
    var keys: [IABKey: IABValue] {
        var keys: [IABKey: IABValue] = [:]
        for field in fields { keys[section.key(field.name)] = field.value.iabValue }
        if let gpc { keys[section.key(GPPUSSection.gpcField)] = .int(gpc ? 1 : 0) }
        return keys
    }
}

extension GPPUSSection {
    /// The name of the GPC sub-section's flag (and the suffix of its key).
    static let gpcField = "Gpc"

    /// The in-app value type of every per-field key the catalog can produce (every version and sub-section).
    static let keyKinds: [IABKey: IABValue.Kind] = {
        var kinds: [IABKey: IABValue.Kind] = [:]
        for section in all {
            var fields = section.layouts.flatMap(\.fields)
            switch section.optionalSubsection {
            case .gpc?: kinds[section.key(gpcField)] = .int
            case .fields(let extra)?: fields += extra
            case nil: break
            }
            for field in fields { kinds[section.key(field.name)] = field.keyKind }
        }
        return kinds
    }()
}
