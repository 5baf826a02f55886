import Foundation
@testable import IABInAppConsent
@testable import WebCMPBridge
@_exported import WebCMPBridgeTesting

extension FakeWebView {
    /// Posts a JSON value body.
    func post(_ handler: String, _ value: JSONValue, isMainFrame: Bool = true, origin: String? = "https://cmp.example.com") {
        post(handler, json: JavaScriptLiteral.expression(value), isMainFrame: isMainFrame, origin: origin)
    }
}
