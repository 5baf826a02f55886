import Foundation

/// Ready-made entry sets for the CMPs publishers run, each naming the public source its entries come from.
///
/// Only entries whose name and value format could be confirmed in a public source are shipped. What each CMP needs
/// beyond them (its own consent token or banner-closed cookie) is documented in the "Sharing consent" article; a CMP
/// that trusts only its server-side records cannot be seeded at all.
package struct SharingPreset: Sendable, Hashable {
    /// The preset's name (`euconsent-v2`, `didomi`, `onetrust`), as `webcmp-host share --preset` takes it.
    package var name: String
    /// The entries it writes.
    package var entries: [SharingEntry]
    /// Where the entry names and formats come from.
    package var source: String

    /// A preset.
    package init(name: String, entries: [SharingEntry], source: String) {
        self.name = name
        self.entries = entries
        self.source = source
    }

    /// The default: the TC string as the `euconsent-v2` cookie and local storage item, the name the IAB's v1
    /// `euconsent` convention became for TCF v2 and the one most TCF CMPs read.
    package static let euconsentV2 = SharingPreset(
        name: "euconsent-v2",
        entries: [SharingEntry(name: "euconsent-v2", value: .tcString, storage: [.cookie, .localStorage])],
        source: "IAB TCF v1 global cookie 'euconsent', continued as 'euconsent-v2' by TCF v2 CMPs")

    /// Didomi: the TC string as `euconsent-v2`, in the cookie and local storage item Didomi's web SDK reads.
    /// Didomi's own `didomi_token` (JSON) / `didomi_dcs` is not seeded: its format is Didomi's.
    package static let didomi = SharingPreset(
        name: "didomi",
        entries: [SharingEntry(name: "euconsent-v2", value: .tcString, storage: [.cookie, .localStorage])],
        source: "https://developers.didomi.io/cmp/web-sdk/consent-notice/cookies")

    /// OneTrust: the TC string as the `eupubconsent-v2` cookie. OneTrust's `OptanonConsent` and
    /// `OptanonAlertBoxClosed` cookies, which decide whether its banner shows, are not seeded (format unconfirmed).
    package static let oneTrust = SharingPreset(
        name: "onetrust",
        entries: [SharingEntry(name: "eupubconsent-v2", value: .tcString, storage: [.cookie])],
        source: "https://www.consentstack.io/vendors/onetrust (cookie list: eupubconsent-v2 holds the TC string)")

    /// Every preset this package ships (for the package's tools: `webcmp-host share --preset`).
    package static let all: [SharingPreset] = [.euconsentV2, .didomi, .oneTrust]

    /// The preset called `name` (case-insensitive), or `nil`.
    package static func named(_ name: String) -> SharingPreset? {
        all.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }
}
