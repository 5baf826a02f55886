// The bridge stores consent through IABInAppConsent (codecs, the IAB in-app keys, the consent transaction and the
// store) and re-exports it, so that an app that imports WebCMPBridge has `ConsentStore`, `TCString` and `IABKeySet`
// as before the split.
@_exported import IABInAppConsent
