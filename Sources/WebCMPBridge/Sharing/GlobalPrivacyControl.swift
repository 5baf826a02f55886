import Foundation

/// Whether the app's content web views send the Global Privacy Control signal (`navigator.globalPrivacyControl` and
/// `Sec-GPC: 1`), a setting of ``SharingConfiguration/globalPrivacyControl``.
///
/// WebKit has no GPC of its own. With ``automatic`` (the default) the kit turns it on when the stored consent says
/// the user opted out of the sale or sharing of personal data (``userOptedOutOfSaleOrSharing(_:)``), and leaves it
/// off otherwise; ``always`` and ``never`` are the app's override (an app setting "Do not sell or share my data", or
/// an app that must not send it). The platform adapters only apply ``isEnabled(record:keys:)``: the script
/// (``ConsentSharing/globalPrivacyControlScript()``) in every frame, the header on the document requests they start
/// and on main-frame navigations they may re-issue (`GPCNavigationGuard`).
///
/// Spec: W3C "Global Privacy Control (GPC)" (<https://w3c.github.io/gpc/>), "The `Sec-GPC` Header Field for HTTP
/// Requests" and "The `globalPrivacyControl` Property on Navigator"; California Code of Regulations, title 11,
/// §7025 ("Opt-Out Preference Signals").
///
/// Bound by the kit's promises over a session: <doc:SessionPromises> (promise 7).
public enum GlobalPrivacyControl: String, Sendable, Hashable, CaseIterable {
    /// On when the stored consent says the user opted out of sale or sharing, off otherwise (the default).
    case automatic
    /// Always on: the app itself decided the user does not want their data sold or shared.
    case always
    /// Never on, whatever the stored consent says.
    case never

    /// The request header field: `Sec-GPC`.
    public static let headerName = "Sec-GPC"
    /// Its only value: `1` ("exactly the numeric character '1'"; without a preference the field is not sent).
    public static let headerValue = "1"

    /// Whether the signal is on for the stored consent: the record's strings, or, when there is no record, the
    /// US strings among the stored IAB keys (`IABUSPrivacy_String`, `IABGPP_HDR_GppString`, `IABGPP_GppSID`).
    public func isEnabled(record: ConsentRecord?, keys: IABKeySet) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .automatic:
            return Self.userOptedOutOfSaleOrSharing(record?.strings ?? Self.strings(from: keys))
        }
    }

    /// Whether `strings` say the user opted out of the sale or sharing of personal data:
    /// - a US Privacy string (`1YYN`) whose third character, "Opt-Out Sale", is `Y`;
    /// - or a GPP US section in force (the CMP's applicable sections when it reported them, else every US section of
    ///   the string: usnat or a state) whose `SaleOptOut` or `SharingOptOut` is `1`, "Opted Out" (`0` is not
    ///   applicable, `2` did not opt out).
    ///
    /// Any one of them is enough. `TargetedAdvertisingOptOut` alone does not turn it on (the brief of the signal is
    /// "do not sell or share"), nor does a GPP `Gpc` sub-section (it records a signal the CMP received, not a choice).
    /// A string that cannot be read counts as no opt-out; nothing here throws or traps.
    ///
    /// Spec: IAB "US Privacy String" v1.0 (character 3, "Opt-Out Sale"); GPP "IAB Privacy's MSPA US National
    /// Technical Specification" and the US state sections (`SaleOptOut`, `SharingOptOut`).
    public static func userOptedOutOfSaleOrSharing(_ strings: ConsentStrings) -> Bool {
        if let usPrivacy = strings.usPrivacy, usPrivacyOptsOutOfSale(usPrivacy) { return true }
        guard let gpp = strings.gppString,
            let signals = try? USPrivacySignals(gppString: gpp, applicableSections: strings.gppApplicableSections)
        else { return false }
        return signals.isSaleOptedOut || signals.isSharingOptedOut
    }

    /// Whether `string` is a well-formed US Privacy v1 string (`1`, then three of `Y`, `N`, `-`) whose "Opt-Out Sale"
    /// character is `Y`.
    static func usPrivacyOptsOutOfSale(_ string: String) -> Bool {
        let characters = Array(string.utf8)
        guard characters.count == 4, characters[0] == UInt8(ascii: "1"),
            characters.dropFirst().allSatisfy({ $0 == UInt8(ascii: "Y") || $0 == UInt8(ascii: "N") || $0 == UInt8(ascii: "-") })
        else { return false }
        return characters[2] == UInt8(ascii: "Y")
    }

    /// The US strings among the IAB keys.
    static func strings(from keys: IABKeySet) -> ConsentStrings {
        func string(_ key: IABKey) -> String? {
            if case .string(let value)? = keys[key] { return value }
            return nil
        }
        var sections: [Int]?
        if let ids = string("IABGPP_GppSID") {
            let parsed = ids.split(separator: "_").compactMap { Int($0) }
            sections = parsed.isEmpty ? nil : parsed
        } else if case .int(let id)? = keys["IABGPP_GppSID"] {
            sections = [id]
        }
        return ConsentStrings(gppString: string("IABGPP_HDR_GppString"), gppApplicableSections: sections,
                              usPrivacy: string("IABUSPrivacy_String"))
    }
}
