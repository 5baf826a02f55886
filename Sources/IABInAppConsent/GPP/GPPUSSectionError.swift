/// Why a GPP US section (ids 7–27: MSPA US National and the US states) could not be decoded.
///
/// Every case names the section id; ``description`` is one sentence for people.
///
/// Spec: GPP "Consent String Specification" ("Section Encoding", sub-sections joined by `.`) and the section's
/// technical specification.
package enum GPPUSSectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The section's `Version` is not one this package knows for that section.
    case unsupportedVersion(section: Int, version: Int)
    /// A character outside the base64url alphabet, at a character offset of the section string.
    case invalidCharacter(section: Int, offset: Int)
    /// A field needs more bits than its sub-section has.
    case truncated(section: Int, field: String)
    /// A 2-bit field (or list entry) holds `3`, which no US section defines.
    case invalidValue(section: Int, field: String, value: Int)
    /// A sub-section between dots is empty (index 0 is the core).
    case emptySubsection(section: Int, index: Int)
    /// The section has more sub-sections than it defines (index 1 is the first after the core).
    case unexpectedSubsection(section: Int, index: Int)
    /// The GPC sub-section's `SubsectionType` is not 1 (GPC).
    case unknownSubsectionType(section: Int, type: Int)

    public var description: String {
        switch self {
        case let .unsupportedVersion(section, version):
            return "GPP section \(section) has version \(version), which this package does not know"
        case let .invalidCharacter(section, offset):
            return "GPP section \(section) has an invalid base64url character at offset \(offset)"
        case let .truncated(section, field):
            return "GPP section \(section) is truncated: \(field) needs more bits than the string has"
        case let .invalidValue(section, field, value):
            return "GPP section \(section) field \(field) has the undefined value \(value)"
        case let .emptySubsection(section, index):
            return "GPP section \(section) has an empty sub-section at index \(index)"
        case let .unexpectedSubsection(section, index):
            return "GPP section \(section) has an undefined sub-section at index \(index)"
        case let .unknownSubsectionType(section, type):
            return "GPP section \(section) has a sub-section of unknown type \(type) (1 = GPC)"
        }
    }
}
