#if canImport(UIKit)
import Foundation
import UIKit
import WebCMPBridge
#if canImport(AppTrackingTransparency)
import AppTrackingTransparency
#endif

extension AppContext {
    /// The context read from the system, for ``BridgeConfiguration/appContext``: reads only, decides nothing.
    ///
    /// - platform: Mac Catalyst or an iOS app on a Mac (`ProcessInfo.isMacCatalystApp`), visionOS, iPadOS
    ///   (`UIDevice.userInterfaceIdiom == .pad`), else iOS;
    /// - OS version: `UIDevice.systemVersion`;
    /// - language: the app's language, the first of `Bundle.main.preferredLocalizations` (the localization the app
    ///   runs in, which the user may set per app in Settings);
    /// - App Tracking Transparency: `ATTrackingManager.trackingAuthorizationStatus` (`unavailable` without the
    ///   framework); the status before the last request is the app's to pass (the kit keeps no history of it);
    /// - color scheme: `traits.userInterfaceStyle` (`unspecified` sends none);
    /// - Dynamic Type size: `traits.preferredContentSizeCategory` (`unspecified` sends none);
    /// - Reduce Motion: `UIAccessibility.isReduceMotionEnabled`.
    ///
    /// Pass the trait collection of the window or view controller that presents the consent UI. Safe in app
    /// extensions (no `UIApplication.shared`). Set fields to `nil` afterwards to keep them from the page.
    @MainActor
    public static func current(
        traits: UITraitCollection, trackingStatusBeforeLastRequest: TrackingAuthorizationStatus? = nil
    ) -> AppContext {
        let device = UIDevice.current
        let platform: Platform
        #if os(visionOS)
        platform = .visionOS
        #else
        if ProcessInfo.processInfo.isMacCatalystApp {
            platform = .macCatalyst
        } else {
            platform = device.userInterfaceIdiom == .pad ? .iPadOS : .iOS
        }
        #endif
        #if canImport(AppTrackingTransparency)
        let tracking = TrackingAuthorizationStatus(ATTrackingManager.trackingAuthorizationStatus)
        #else
        let tracking = TrackingAuthorizationStatus.unavailable
        #endif
        return AppContext(
            platform: platform, osVersion: device.systemVersion,
            language: Bundle.main.preferredLocalizations.first, trackingStatus: tracking,
            trackingStatusBeforeLastRequest: trackingStatusBeforeLastRequest,
            colorScheme: ColorScheme(traits.userInterfaceStyle),
            dynamicTypeSize: DynamicTypeSize(traits.preferredContentSizeCategory),
            reduceMotion: UIAccessibility.isReduceMotionEnabled)
    }
}

extension AppContext.ColorScheme {
    /// The scheme of `style`; `nil` for `unspecified`.
    init?(_ style: UIUserInterfaceStyle) {
        switch style {
        case .light: self = .light
        case .dark: self = .dark
        default: return nil
        }
    }
}

extension AppContext.DynamicTypeSize {
    /// The size of `category`; `nil` for `unspecified` (or a category UIKit adds later).
    init?(_ category: UIContentSizeCategory) {
        let sizes: [UIContentSizeCategory: Self] = [
            .extraSmall: .xSmall, .small: .small, .medium: .medium, .large: .large, .extraLarge: .xLarge,
            .extraExtraLarge: .xxLarge, .extraExtraExtraLarge: .xxxLarge, .accessibilityMedium: .accessibility1,
            .accessibilityLarge: .accessibility2, .accessibilityExtraLarge: .accessibility3,
            .accessibilityExtraExtraLarge: .accessibility4, .accessibilityExtraExtraExtraLarge: .accessibility5,
        ]
        guard let size = sizes[category] else { return nil }
        self = size
    }
}
#endif
