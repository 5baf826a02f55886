#if canImport(AppTrackingTransparency)
import AppTrackingTransparency
import Foundation

extension TrackingAuthorizer {
    /// App Tracking Transparency through `ATTrackingManager`. Before requesting it checks that
    /// `NSUserTrackingUsageDescription` is in the main bundle's Info.plist and throws
    /// ``TrackingAuthorizationError/missingUsageDescription`` instead of letting iOS terminate the app.
    public static let appTrackingTransparency = TrackingAuthorizer(
        status: { TrackingAuthorizationStatus(ATTrackingManager.trackingAuthorizationStatus) },
        request: { () async throws(TrackingAuthorizationError) -> TrackingAuthorizationStatus in
            try TrackingUsageDescription.validate(Bundle.main.infoDictionary)
            let status = await ATTrackingManager.requestTrackingAuthorization()
            return TrackingAuthorizationStatus(status)
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
