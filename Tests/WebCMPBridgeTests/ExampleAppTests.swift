import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The ExampleApp's bundled files (issue 20, item 15).
@Suite struct ExampleAppTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The app ships a real copy of SampleHost as its fallback page (Xcode copies a symbolic link out of the package
    /// as a dangling link, and the app then silently runs without a fallback); the copy must stay identical.
    @Test func item15_theFallbackPageIsARealFileIdenticalToSampleHost() throws {
        let fallback = Self.root.appendingPathComponent("ExampleApp/WebCMPExample.swiftpm/Sources/Resources/fallback.html")
        let attributes = try FileManager.default.attributesOfItem(atPath: fallback.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        let sample = try Data(contentsOf: Self.root.appendingPathComponent("SampleHost/index.html"))
        #expect(try Data(contentsOf: fallback) == sample, "copy SampleHost/index.html to the ExampleApp's fallback.html")
        // And it is a page the core serves as a fallback.
        let page = try FallbackPage(files: ["index.html": FallbackPage.File(contents: sample)])
        #expect(page.entryURL.scheme == "webcmp-fallback")
    }

    /// The ExampleApp does not add `_sp_pass_consent=true`, which the library no longer adds either.
    @Test func item15_theExampleAppAddsNoSourcepointPassConsent() throws {
        let sources = Self.root.appendingPathComponent("ExampleApp/WebCMPExample.swiftpm/Sources")
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("passingConsent("), "\(name)")
            #expect(!text.contains("_sp_pass_consent=true\""), "\(name)")
        }
    }

    /// Issue 20, item 1: the registry decision behind `WKCMPWebView.addMessageHandler(named:)`.
    @Test func item1_aHandlerNameIsRegisteredReplacedWhenStaleAndNeverTakenFromALiveOwner() {
        #expect(MessageHandlerClaim(previousOwnerAlive: nil) == .register)
        #expect(MessageHandlerClaim(previousOwnerAlive: false) == .replaceStale)
        #expect(MessageHandlerClaim(previousOwnerAlive: true) == .refuse)
    }

    /// Issue 20, item 14: a person never sees diagnostic text; every code has its own short message and key.
    @Test func item14_everyErrorCodeHasAUserFacingMessageWithoutPageText() {
        let hostile = "<script>alert(1)</script>"
        let errors: [ConsentBridgeError] = [
            .timeout(seconds: 30), .invalidMessage(handler: hostile, .notAnObject),
            .forbiddenOrigin(handler: hostile, origin: hostile), .notMainFrame(handler: hostile),
            .unexpectedDialect(handler: hostile, expected: .gravito),
            .invalidConsent(.invalidMapping(.invalidTCString(.empty))), .invalidConsent(.noConsent), .storageFailed(.recordNotEncodable(reason: hostile)),
            .loadFailed(WebViewLoadError(url: nil, reason: hostile)), .webContentTerminated,
            .trackingAuthorizationFailed(.missingUsageDescription),
            .webViewSetupFailed(.messageHandlerNameInUse(hostile)), .privacySettingsNotOpened(hostile),
            .missingDisclosedVendors(created: Date(timeIntervalSince1970: 1_772_236_800)),
        ]
        #expect(Set(errors.map(\.code)) == Set(ConsentBridgeError.Code.allCases))
        for error in errors {
            #expect(!error.userFacingMessage.isEmpty)
            #expect(!error.userFacingMessage.contains(hostile))
            #expect(error.userFacingMessageKey == error.userFacingText.key)
            #expect(ConsentChromeText.allCases.contains(error.userFacingText))
        }
    }
}
