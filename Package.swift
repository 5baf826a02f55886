// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "WebCMPBridge",
    defaultLocalization: "en",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "WebCMPBridge", targets: ["WebCMPBridge"]),
        .library(name: "WebCMPBridgeWebKit", targets: ["WebCMPBridgeWebKit"]),
        .library(name: "WebCMPBridgeUI", targets: ["WebCMPBridgeUI"]),
        .library(name: "WebCMPBridgeTesting", targets: ["WebCMPBridgeTesting"]),
        .executable(name: "webcmp", targets: ["webcmp"]),
    ],
    targets: [
        .target(
            name: "WebCMPBridge",
            resources: [
                .copy("PrivacyInfo.xcprivacy"),
                // One entry per script (they land at the bundle's top level): a copied folder named Resources
                // would make Foundation treat the bundle as an old-style bundle with that folder as its resources.
                .copy("JavaScript/Resources/tcf-forwarder.js"),
                .copy("JavaScript/Resources/consent-sharing.js"),
                .copy("JavaScript/Resources/consent-seeding.js"),
                .copy("JavaScript/Resources/open-settings.js"),
            ]
        ),
        // Apple platforms: the WKWebView adapter, content web view sharing and the App Tracking Transparency client.
        // Thin glue behind `#if canImport(WebKit)`; it builds empty elsewhere.
        .target(
            name: "WebCMPBridgeWebKit",
            dependencies: ["WebCMPBridge"]
        ),
        // UIKit and SwiftUI presentation; re-exports the two targets below it. Its chrome texts are a String Catalog
        // (13 languages; Xcode compiles it, SwiftPM on Linux copies it and the core's tests check it).
        .target(
            name: "WebCMPBridgeUI",
            dependencies: ["WebCMPBridge", "WebCMPBridgeWebKit"],
            resources: [.process("Resources")]
        ),
        // Test doubles for integrators: a web view that reports events in WKWebView's order, a manual clock, an App
        // Tracking Transparency client. Foundation only; link it from test targets.
        .target(
            name: "WebCMPBridgeTesting",
            dependencies: ["WebCMPBridge"]
        ),
        .executableTarget(
            name: "webcmp",
            dependencies: ["WebCMPBridge"]
        ),
        .testTarget(
            name: "WebCMPBridgeTests",
            dependencies: ["WebCMPBridge", "WebCMPBridgeTesting"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
