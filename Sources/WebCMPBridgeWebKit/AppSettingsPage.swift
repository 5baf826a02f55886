#if canImport(WebKit)
import Foundation
#if canImport(UIKit)
import UIKit
#endif

/// The app's page in the Settings app, which both web view adapters open when the CMP page asks
/// (`openAppSettings()`): `UIApplication.openSettingsURLString` ("the URL string you use to deep link to your app's
/// custom settings in the Settings app") on iOS, visionOS and Mac Catalyst; macOS has no such page.
enum AppSettingsPage {
    /// The URL, or `nil` where there is none.
    static var url: URL? {
        #if canImport(UIKit)
        return URL(string: UIApplication.openSettingsURLString)
        #else
        return nil
        #endif
    }
}
#endif
