import Foundation

/// The Info.plist check that must pass before App Tracking Transparency is requested: without
/// `NSUserTrackingUsageDescription` iOS terminates the app on the request.
package enum TrackingUsageDescription {
    /// The Info.plist key.
    package static let key = "NSUserTrackingUsageDescription"

    /// Throws ``TrackingAuthorizationError/missingUsageDescription`` unless `infoDictionary` has a non-empty
    /// usage description.
    package static func validate(_ infoDictionary: [String: Any]?) throws(TrackingAuthorizationError) {
        guard let text = infoDictionary?[key] as? String,
            !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else { throw .missingUsageDescription }
    }
}
