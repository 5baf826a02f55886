extension ConsentSummary {
    /// The US opt-out signals (sale, sharing, targeted advertising, GPC) of the GPP string's US sections, restricted
    /// to the CMP's applicable sections when it reported them; `nil` when there is no GPP string or it cannot be
    /// read (a string the key mapping accepted can always be read).
    public var usPrivacySignals: USPrivacySignals? {
        guard let gpp = strings.gppString else { return nil }
        return try? USPrivacySignals(gppString: gpp, applicableSections: strings.gppApplicableSections)
    }
}
