// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "WebCMPBridge",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
        .visionOS(.v1),
    ],
    products: [
        .library(name: "WebCMPBridge", targets: ["WebCMPBridge"]),
        .library(name: "WebCMPBridgeUI", targets: ["WebCMPBridgeUI"]),
        .executable(name: "webcmp", targets: ["webcmp"]),
    ],
    targets: [
        .target(
            name: "WebCMPBridge",
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        .target(
            name: "WebCMPBridgeUI",
            dependencies: ["WebCMPBridge"]
        ),
        .executableTarget(
            name: "webcmp",
            dependencies: ["WebCMPBridge"]
        ),
        .testTarget(
            name: "WebCMPBridgeTests",
            dependencies: ["WebCMPBridge"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
