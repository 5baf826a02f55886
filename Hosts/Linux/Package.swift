// swift-tools-version: 6.0
// The WebKitGTK host: runs hosted CMP pages in real WebKit on Linux through the WebCMPBridge core.
// A separate package so that the library products never need GTK.
import PackageDescription

let package = Package(
    name: "WebCMPHostLinux",
    products: [
        .executable(name: "webcmp-host", targets: ["webcmp-host"]),
    ],
    dependencies: [
        .package(name: "WebCMPBridge", path: "../.."),
    ],
    targets: [
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev"])]
        ),
        .target(
            name: "WebCMPHostGTK",
            dependencies: ["CWebKitGTK", .product(name: "WebCMPBridge", package: "WebCMPBridge")]
        ),
        .executableTarget(
            name: "webcmp-host",
            dependencies: ["WebCMPHostGTK", .product(name: "WebCMPBridge", package: "WebCMPBridge")]
        ),
        .testTarget(
            name: "WebCMPHostTests",
            dependencies: [.product(name: "WebCMPBridge", package: "WebCMPBridge")],
            exclude: ["Pages", "Support"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
