/// The US opt-out signals of a GPP string: per US section (MSPA US National, US states), the sale, sharing and
/// targeted-advertising opt-outs and Global Privacy Control.
///
/// Opt-out values are the sections' `Int(2)` codes: `0` not applicable, `1` opted out, `2` did not opt out. A field
/// the section does not define (sharing outside usnat and usca, targeted advertising in usca) is `nil`.
///
/// ```swift
/// let signals = try USPrivacySignals(gppString: gpp)
/// if signals.isSaleOptedOut || signals.isGPCSet { /* do not sell */ }
/// ```
///
/// Spec: GPP "Section Information" (ids 7–27) and the US sections' technical specifications (`SaleOptOut`,
/// `SharingOptOut`, `TargetedAdvertisingOptOut`, GPC sub-section)
/// (<https://github.com/InteractiveAdvertisingBureau/Global-Privacy-Platform/tree/main/Sections>).
public struct USPrivacySignals: Sendable, Hashable {
    /// The signals of one US section.
    package struct Section: Sendable, Hashable {
        /// The GPP section id (7 = usnat, 8 = usca, …).
        package var id: Int
        /// The client-side API prefix ("usnat", "usca", …).
        package var apiName: String
        /// `SaleOptOut`: 0 not applicable, 1 opted out, 2 did not opt out.
        package var saleOptOut: Int?
        /// `SharingOptOut` (usnat, usca only): 0 not applicable, 1 opted out, 2 did not opt out.
        package var sharingOptOut: Int?
        /// `TargetedAdvertisingOptOut` (not in usca): 0 not applicable, 1 opted out, 2 did not opt out.
        package var targetedAdvertisingOptOut: Int?
        /// `Gpc` of the GPC sub-section; `nil` when the sub-section is absent (or the section defines none).
        package var gpc: Bool?

        /// Creates the signals of one section.
        package init(
            id: Int, apiName: String, saleOptOut: Int? = nil, sharingOptOut: Int? = nil,
            targetedAdvertisingOptOut: Int? = nil, gpc: Bool? = nil
        ) {
            self.id = id
            self.apiName = apiName
            self.saleOptOut = saleOptOut
            self.sharingOptOut = sharingOptOut
            self.targetedAdvertisingOptOut = targetedAdvertisingOptOut
            self.gpc = gpc
        }
    }

    /// The applicable US sections present in the string, in header order.
    package var sections: [Section]

    /// Creates the value from sections.
    package init(sections: [Section]) { self.sections = sections }

    /// Reads the US sections of a GPP string.
    ///
    /// - Parameters:
    ///   - gppString: the GPP string.
    ///   - applicableSections: the CMP's `applicableSections`; when given, only those US sections count (`nil`: every
    ///     US section of the string).
    /// - Throws: ``IABConsentError``, exactly as the in-app key mapping rejects the same GPP string (the code
    ///   ``IABConsentError/Code/invalidGPPString``); never traps.
    public init(gppString: String, applicableSections: [Int]? = nil) throws(IABConsentError) {
        do {
            try self.init(gppStringPrecisely: gppString, applicableSections: applicableSections)
        } catch {
            throw IABConsentError(error)
        }
    }

    /// ``init(gppString:applicableSections:)`` with the mapping's precise error.
    package init(gppStringPrecisely gppString: String, applicableSections: [Int]? = nil) throws(IABMappingError) {
        let input = try GPPString(validatingForMapping: gppString)
        var sections: [Section] = []
        for data in try input.usSections() where applicableSections?.contains(data.section.id) ?? true {
            sections.append(
                Section(
                    id: data.section.id, apiName: data.section.apiName, saleOptOut: data.int("SaleOptOut"),
                    sharingOptOut: data.int("SharingOptOut"),
                    targetedAdvertisingOptOut: data.int("TargetedAdvertisingOptOut"), gpc: data.gpc))
        }
        self.sections = sections
    }

    /// Whether any section says the user opted out of the sale of personal data (`SaleOptOut` = 1).
    public var isSaleOptedOut: Bool { sections.contains { $0.saleOptOut == 1 } }

    /// Whether any section says the user opted out of sharing (`SharingOptOut` = 1).
    public var isSharingOptedOut: Bool { sections.contains { $0.sharingOptOut == 1 } }

    /// Whether any section says the user opted out of targeted advertising (`TargetedAdvertisingOptOut` = 1).
    public var isTargetedAdvertisingOptedOut: Bool { sections.contains { $0.targetedAdvertisingOptOut == 1 } }

    /// Whether any section carries `Gpc` = true.
    public var isGPCSet: Bool { sections.contains { $0.gpc == true } }
}
