#if canImport(AppTrackingTransparency)
import AppTrackingTransparency
import Foundation
import WebCMPBridge
#if canImport(UIKit)
import UIKit
#endif

extension TrackingAuthorizer {
    /// App Tracking Transparency through `ATTrackingManager`.
    ///
    /// - Before requesting it checks that `NSUserTrackingUsageDescription` is in the main bundle's Info.plist and
    ///   throws a ``WebCMPBridge/ConsentBridgeError`` with the code
    ///   ``WebCMPBridge/ConsentBridgeError/Code/trackingAuthorizationFailed`` instead of letting iOS terminate the app.
    /// - `waitUntilActive` returns once `UIApplication.shared.applicationState` is `.active` (waiting for
    ///   `didBecomeActiveNotification`): the system shows the prompt only to an active app, and a request made while
    ///   the app is inactive — e.g. while a sheet is still being dismissed or the app is in the app switcher — returns
    ///   `.notDetermined` without asking.
    ///
    /// Apps only: the prompt belongs to the app, and an app extension has no `UIApplication.shared` to wait for. An
    /// extension reads `ATTrackingManager.trackingAuthorizationStatus` itself; the consent it reads from
    /// ``ConsentStore`` does not need this authorizer.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    @available(visionOSApplicationExtension, unavailable)
    public static let appTrackingTransparency = TrackingAuthorizer(
        status: { TrackingAuthorizationStatus(ATTrackingManager.trackingAuthorizationStatus) },
        request: { () async throws(ConsentBridgeError) -> TrackingAuthorizationStatus in
            do throws(TrackingAuthorizationError) {
                try TrackingUsageDescription.validate(Bundle.main.infoDictionary)
            } catch {
                throw .trackingAuthorizationFailed(error)
            }
            let status = await ATTrackingManager.requestTrackingAuthorization()
            return TrackingAuthorizationStatus(status)
        },
        waitUntilActive: {
            #if canImport(UIKit)
            guard UIApplication.shared.applicationState != .active else { return }
            for await _ in NotificationCenter.default.notifications(named: UIApplication.didBecomeActiveNotification) {
                return
            }
            #endif
        }
    )
}

extension TrackingAuthorizationStatus {
    init(_ status: ATTrackingManager.AuthorizationStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .restricted: self = .restricted
        case .denied: self = .denied
        case .authorized: self = .authorized
        @unknown default: self = .unavailable
        }
    }
}
#endif
