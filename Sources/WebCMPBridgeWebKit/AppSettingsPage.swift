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
    /// extensions too). Without a scene nothing opens.
    @MainActor static func open(from scene: UIWindowScene?) {
        guard let url, let scene else { return }
        scene.open(url, options: nil, completionHandler: nil)
    }
    #endif
}
#endif
