import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The ExampleApp's bundled files and sources: a real copy of SampleHost as its fallback page, no Sourcepoint
/// pass-consent parameter.
@Suite struct ExampleAppTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The app ships a real copy of SampleHost as its fallback page (Xcode copies a symbolic link out of the package
    /// as a dangling link, and the app then silently runs without a fallback); the copy must stay identical.
    @Test func theFallbackPageIsARealFileIdenticalToSampleHost() throws {
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
    @Test func theExampleAppAddsNoSourcepointPassConsent() throws {
        let sources = Self.root.appendingPathComponent("ExampleApp/WebCMPExample.swiftpm/Sources")
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("passingConsent("), "\(name)")
            #expect(!text.contains("_sp_pass_consent=true\""), "\(name)")
        }
    }
}
