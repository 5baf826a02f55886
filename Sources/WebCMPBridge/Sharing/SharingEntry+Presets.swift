import Foundation

// The presets as entry lists, so that `SharingConfiguration(contentOrigins:presets: [.euconsentV2, .didomi])` and
// `entries: .oneTrust` read as before; the preset values with their names and sources (`SharingPreset`) are the
// package's, for `webcmp-host share --preset`.
extension Array where Element == SharingEntry {
    /// The default preset, `euconsent-v2`: the TC string as the `euconsent-v2` cookie and local storage item, the
    /// name the IAB's v1 `euconsent` convention became for TCF v2 and the one most TCF CMPs read.
    public static var euconsentV2: [SharingEntry] { SharingPreset.euconsentV2.entries }

    /// Didomi: the TC string as `euconsent-v2`, in the cookie and local storage item Didomi's web SDK reads
    /// (<https://developers.didomi.io/cmp/web-sdk/consent-notice/cookies>). Didomi's own `didomi_token` (JSON) /
    /// `didomi_dcs` is not seeded: its format is Didomi's.
    public static var didomi: [SharingEntry] { SharingPreset.didomi.entries }

    /// OneTrust: the TC string as the `eupubconsent-v2` cookie. OneTrust's `OptanonConsent` and
    /// `OptanonAlertBoxClosed` cookies, which decide whether its banner shows, are not seeded (format unconfirmed).
    public static var oneTrust: [SharingEntry] { SharingPreset.oneTrust.entries }
}
