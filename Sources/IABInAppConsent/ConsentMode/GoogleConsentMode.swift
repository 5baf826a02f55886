/// Google Consent Mode v2 signals derived from a TC string, for apps that pass consent to Firebase
/// (`Analytics.setConsent`).
///
/// Mapping documented by Google, "Implement TCF strings" / consent mode TCF integration
/// (<https://developers.google.com/tag-platform/security/guides/implement-TCF-strings>):
/// `ad_storage` ← Purpose 1; `ad_user_data` ← Purposes 1 and 7; `ad_personalization` ← Purposes 3 and 4.
/// Google reads these only when Google (GVL vendor 755) itself has consent or legitimate interest; when it has
/// neither, every advertising signal is denied. `analytics_storage` has no TCF mapping (Google: "To control Google
/// Analytics cookies, integrate with consent mode"); it is derived here from Purposes 1, 8 and 9 (store information,
/// measure content performance, understand audiences) — a documented choice of this package, not Google's.
public struct GoogleConsentMode: Sendable, Hashable {
    /// `ad_storage`.
    public var adStorage: Bool
    /// `ad_user_data`.
    public var adUserData: Bool
    /// `ad_personalization`.
    public var adPersonalization: Bool
    /// `analytics_storage` (see the type's documentation for how it is derived).
    public var analyticsStorage: Bool

    /// Google's GVL vendor id.
    static let googleVendorID = 755

    /// Derives the signals from `tcString` (when GDPR applies; with `gdprApplies == false` everything is granted, as
    /// Google treats TCF signals outside GDPR scope as not applicable).
    init(tcString: TCString, gdprApplies: Bool? = true) {
        if gdprApplies == false {
            self.init(adStorage: true, adUserData: true, adPersonalization: true, analyticsStorage: true)
            return
        }
        let purposes = tcString.purposeConsents
        let google = tcString.vendorConsents.contains(Self.googleVendorID)
            || tcString.vendorLegitimateInterests.contains(Self.googleVendorID)
        self.init(
            adStorage: google && purposes.contains(1),
            adUserData: google && purposes.contains(1) && purposes.contains(7),
            adPersonalization: google && purposes.contains(3) && purposes.contains(4),
            analyticsStorage: purposes.contains(1) && purposes.contains(8) && purposes.contains(9)
        )
    }

    /// Creates signals directly.
    public init(adStorage: Bool, adUserData: Bool, adPersonalization: Bool, analyticsStorage: Bool) {
        self.adStorage = adStorage
        self.adUserData = adUserData
        self.adPersonalization = adPersonalization
        self.analyticsStorage = analyticsStorage
    }

    /// The signals keyed by Google's names (`"ad_storage"` …), with `"granted"` / `"denied"` values.
    public var dictionary: [String: String] {
        func state(_ granted: Bool) -> String { granted ? "granted" : "denied" }
        return [
            "ad_storage": state(adStorage),
            "ad_user_data": state(adUserData),
            "ad_personalization": state(adPersonalization),
            "analytics_storage": state(analyticsStorage),
        ]
    }
}
