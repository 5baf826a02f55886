#if canImport(WebKit)
import Foundation
#if canImport(UIKit)
import UIKit
#endif

/// The app's page in the Settings app, which both web view adapters open when the CMP page asks
/// (`openAppSettings()`; the core decides when, at most once per foreground period): `UIApplication.openSettingsURLString`
/// ("the URL string you use to deep link to your app's custom settings in the Settings app") on iOS, visionOS and Mac
/// Catalyst; macOS has no such page.
///
/// It opens through its own path, **never through the app's external-link opener** (`openExternally`): an app whose
/// link opener presents `SFSafariViewController` would raise for this `app-settings:` URL (Apple: "The URL must use
/// the `http` or `https` scheme",
/// [SFSafariViewController.init(url:)](https://developer.apple.com/documentation/safariservices/sfsafariviewcontroller/init(url:)-5kpkn)),
/// and ``WebCMPBridge/ExternalLinkPolicy/block`` must not be bypassed by a page that asks for Settings.
enum AppSettingsPage {
    /// The URL, or `nil` where there is none.
    static var url: URL? {
        #if canImport(UIKit)
        return URL(string: UIApplication.openSettingsURLString)
        #else
        return nil
        #endif
    }

    #if canImport(UIKit)
    /// Opens the app's page in Settings from `scene` (`UIScene.open(_:options:completionHandler:)`, which opens a URL
    /// as `UIApplication.open` does, for that scene, and needs no application object: the opener the kit uses in app
    /// extensions too); without a scene (a `WebPage` has no window), with the app's `UIApplication`
    /// (`open(_:options:completionHandler:)`). In an app extension without a scene nothing opens.
    @MainActor static func open(from scene: UIWindowScene?) {
        guard let url else { return }
        if let scene { return scene.open(url, options: nil, completionHandler: nil) }
        application?.open(url, options: [:], completionHandler: nil)
    }

    /// The app's `UIApplication`, `nil` in an app extension. `UIApplication.shared` is unavailable to code that may
    /// link into an app extension (every library target here: `scripts/check-apple` checks them as extension code),
    /// so it is read at run time, only in an app (the main bundle is not an `.appex`); the class's
    /// `sharedApplication` is the object `UIApplication.shared` returns.
    @MainActor private static var application: UIApplication? {
        guard Bundle.main.bundleURL.pathExtension != "appex" else { return nil }
        let type: AnyObject = UIApplication.self
        return type.value(forKey: "sharedApplication") as? UIApplication
    }
    #endif
}
#endif
