// swift-tools-version: 6.0
// An iOS app package (Xcode "App Playground" format): open this folder in Xcode 16 or later, pick an iOS simulator,
// and run. It uses the WebCMPBridge package from this repository by local path.
import AppleProductTypes
import PackageDescription

let package = Package(
    name: "WebCMPExample",
    platforms: [.iOS("16.0")],
    products: [
        .iOSApplication(
            name: "WebCMPExample",
            targets: ["AppModule"],
            bundleIdentifier: "com.example.webcmpbridge.example",
            teamIdentifier: "",
            displayVersion: "1.0",
            bundleVersion: "1",
            appIcon: .placeholder(icon: .checkmark),
            accentColor: .presetColor(.blue),
            supportedDeviceFamilies: [.pad, .phone],
            supportedInterfaceOrientations: [.portrait, .landscapeRight, .landscapeLeft]
        ),
    ],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "AppModule",
            dependencies: [.product(name: "WebCMPBridgeUI", package: "WebCMPBridge")],
            path: "Sources",
            // The app's fallback CMP page: a copy of SampleHost/index.html (a real file: Xcode copies a symbolic link
            // out of the package as a dangling link; the root package's tests keep the copy identical), shown when
            // the hosted page cannot be loaded.
            resources: [.copy("Resources/fallback.html")]
        ),
    ]
)
