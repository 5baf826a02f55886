/// The strings as flat JSON members by their names (`tcString`, `additionalConsent`, `gppString`,
/// `gppApplicableSections`, `usPrivacy`), each absent when `nil`: how the stored record and the history entries have
/// always written them, beside their own members in the same object. The one place these names are spelled.
extension ConsentStrings {
    /// The members' names.
    private enum FlatKey: String, CodingKey {
        case tcString, additionalConsent, gppString, gppApplicableSections, usPrivacy
    }

    /// Reads the strings from the members of `decoder`'s object (missing members are `nil`).
    init(flatFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FlatKey.self)
        self.init(
            tcString: try container.decodeIfPresent(String.self, forKey: .tcString),
            additionalConsent: try container.decodeIfPresent(String.self, forKey: .additionalConsent),
            gppString: try container.decodeIfPresent(String.self, forKey: .gppString),
            gppApplicableSections: try container.decodeIfPresent([Int].self, forKey: .gppApplicableSections),
            usPrivacy: try container.decodeIfPresent(String.self, forKey: .usPrivacy))
    }

    /// Writes the strings as members of `encoder`'s object (beside the members the caller writes).
    func encodeFlat(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FlatKey.self)
        try container.encodeIfPresent(tcString, forKey: .tcString)
        try container.encodeIfPresent(additionalConsent, forKey: .additionalConsent)
        try container.encodeIfPresent(gppString, forKey: .gppString)
        try container.encodeIfPresent(gppApplicableSections, forKey: .gppApplicableSections)
        try container.encodeIfPresent(usPrivacy, forKey: .usPrivacy)
    }
}
