// swift-tools-version: 6.0
import PackageDescription

#if os(Linux)
import Foundation
#endif

let package = Package(
    name: "WebCMPBridge",
    defaultLocalization: "en",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
        .visionOS(.v1),
    ],
    products: [
        // IAB consent in apps without the bridge: TC string, GPP, AC and US Privacy codecs, the IAB in-app keys, the
        // consent transaction and the store (native apps, app extensions, ad-SDK teams).
        .library(name: "IABInAppConsent", targets: ["IABInAppConsent"]),
        .library(name: "WebCMPBridge", targets: ["WebCMPBridge"]),
        .library(name: "WebCMPBridgeWebKit", targets: ["WebCMPBridgeWebKit"]),
        .library(name: "WebCMPBridgeUI", targets: ["WebCMPBridgeUI"]),
        .library(name: "WebCMPBridgeTesting", targets: ["WebCMPBridgeTesting"]),
        .executable(name: "webcmp", targets: ["webcmp"]),
    ],
    targets: [
        // The lower half: knows nothing of web views, pages or dialects. Its privacy manifest declares the
        // UserDefaults use of the store.
        .target(
            name: "IABInAppConsent",
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // The bridge: messages, dialects, the machine, JavaScript, sharing; re-exports IABInAppConsent.
        .target(
            name: "WebCMPBridge",
            dependencies: ["IABInAppConsent"],
            resources: [
                // One entry per script (they land at the bundle's top level): a copied folder named Resources
                // would make Foundation treat the bundle as an old-style bundle with that folder as its resources.
                .copy("JavaScript/Resources/tcf-forwarder.js"),
                .copy("JavaScript/Resources/consent-sharing.js"),
                .copy("JavaScript/Resources/consent-seeding.js"),
                .copy("JavaScript/Resources/open-settings.js"),
                .copy("JavaScript/Resources/app-context.js"),
                .copy("JavaScript/Resources/global-privacy-control.js"),
            ]
        ),
        // Apple platforms: the WKWebView adapter, content web view sharing and the App Tracking Transparency client.
        // Thin glue behind `#if canImport(WebKit)`; it builds empty elsewhere.
        .target(
            name: "WebCMPBridgeWebKit",
            dependencies: ["WebCMPBridge", "IABInAppConsent"]
        ),
        // UIKit and SwiftUI presentation; re-exports the two targets below it. Its chrome texts are a String Catalog
        // (13 languages; Xcode compiles it, SwiftPM on Linux copies it and the core's tests check it).
        .target(
            name: "WebCMPBridgeUI",
            dependencies: ["WebCMPBridge", "WebCMPBridgeWebKit", "IABInAppConsent"],
            resources: [.process("Resources")]
        ),
        // Test doubles for integrators: a web view that reports events in WKWebView's order, a manual clock, an App
        // Tracking Transparency client. Foundation only; link it from test targets.
        .target(
            name: "WebCMPBridgeTesting",
            dependencies: ["WebCMPBridge", "IABInAppConsent"]
        ),
        // Command-line parsing shared by `webcmp` and `webcmp-host`; no library product links it.
        .target(name: "WebCMPToolSupport", dependencies: ["IABInAppConsent"]),
        // The rows of `webcmp-host check` (ConformanceReport): used only by the WebKitGTK host, a target of its own
        // that no library product links, so that its unit tests run on every machine (with or without WebKitGTK).
        .target(name: "WebCMPConformance", dependencies: ["WebCMPBridge", "IABInAppConsent"]),
        .executableTarget(
            name: "webcmp",
            dependencies: ["WebCMPBridge", "IABInAppConsent", "WebCMPToolSupport"]
        ),
        // The consent module alone: its codecs, keys, transaction and store, tested with nothing of the bridge linked
        // (an app or ad SDK that adds only IABInAppConsent is served by exactly these tests).
        .testTarget(
            name: "IABInAppConsentTests",
            dependencies: ["IABInAppConsent"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "WebCMPBridgeTests",
            dependencies: [
                "WebCMPBridge", "IABInAppConsent", "WebCMPBridgeTesting", "WebCMPToolSupport", "WebCMPConformance",
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

#if os(Linux)
// The WebKitGTK host (Hosts/Linux): runs hosted CMP pages in real WebKit through the core, with the end-to-end suite.
// Part of this package, so that it reaches the core's `package` declarations, but only on Linux where WebKitGTK is
// installed: no library product depends on it, and on Apple platforms (and Linux without WebKitGTK) the package has
// exactly the targets above. `webcmp-host` is an executable target without a declared product (only this package
// builds and runs it). `WEBCMP_HOST=1` or `0` decides explicitly; the scripts set it, because SwiftPM caches the
// evaluated manifest by its text and the environment, so a WebKitGTK installed later would otherwise go unseen.
if includesWebKitGTKHost() {
    package.targets += [
        .systemLibrary(
            name: "CWebKitGTK",
            path: "Hosts/Linux/Sources/CWebKitGTK",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]
        ),
        .target(
            name: "WebCMPHostGTK",
            dependencies: ["CWebKitGTK", "WebCMPBridge", "IABInAppConsent", "WebCMPConformance"],
            path: "Hosts/Linux/Sources/WebCMPHostGTK"
        ),
        .executableTarget(
            name: "webcmp-host",
            dependencies: [
                "WebCMPHostGTK", "WebCMPBridge", "IABInAppConsent", "WebCMPToolSupport", "WebCMPConformance",
            ],
            path: "Hosts/Linux/Sources/webcmp-host"
        ),
        // Real WebKit under a display: scripts/test-e2e runs it under Xvfb; without a display `swift test` skips its
        // suites with one line each naming scripts/test-e2e (DisplayCondition.swift).
        .testTarget(
            name: "WebCMPHostTests",
            dependencies: ["WebCMPBridge", "IABInAppConsent"],
            path: "Hosts/Linux/Tests/WebCMPHostTests",
            exclude: ["Pages", "Support"]
        ),
    ]
}

/// Whether to add the WebKitGTK host: `WEBCMP_HOST` when it is `1` or `0`, otherwise whether WebKitGTK's pkg-config
/// file (`webkit2gtk-4.1.pc`, from libwebkit2gtk-4.1-dev) is in `PKG_CONFIG_PATH` or a system pkg-config directory.
func includesWebKitGTKHost() -> Bool {
    switch Context.environment["WEBCMP_HOST"] {
    case "1": return true
    case "0": return false
    default: break
    }
    let files = FileManager.default
    let multiarch = ((try? files.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
        .filter { $0.hasSuffix("-linux-gnu") }
        .flatMap { ["/usr/lib/\($0)/pkgconfig", "/usr/local/lib/\($0)/pkgconfig"] }
    let directories = (Context.environment["PKG_CONFIG_PATH"] ?? "").split(separator: ":").map(String.init)
        + multiarch + ["/usr/lib/pkgconfig", "/usr/share/pkgconfig", "/usr/local/lib/pkgconfig", "/usr/lib64/pkgconfig"]
    return directories.contains { files.fileExists(atPath: $0 + "/webkit2gtk-4.1.pc") }
}
#endif
