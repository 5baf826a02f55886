import Foundation
import Testing
import WebCMPBridge
import WebCMPToolSupport

/// `webcmp-host check --screenshot DIR [--size WxH]` on SampleHost (EU/Gravito and US/GPP mode) in real WebKit: four
/// PNG files of the requested size (read from their IHDR header), light and dark different, the page itself saw the
/// dark color scheme (the check's row says so), and the report lists the files.
@Suite(.serialized, .needsDisplay) struct ScreenshotEndToEndTests {
    typealias E2E = EndToEndTests
    static let names = ["first-layer-light.png", "first-layer-dark.png", "settings-light.png", "settings-dark.png"]

    /// The width and height in a PNG file's IHDR chunk, or `nil` when `data` does not start like a PNG file.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, Array(bytes[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            Array(bytes[8..<12]) == [0, 0, 0, 13], Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        func big(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (big(16), big(20))
    }

    /// Runs `check … --screenshot DIR` and checks the files, their size, light ≠ dark and the report's listing.
    static func checkScreenshots(_ arguments: [String], size: (width: Int, height: Int)?) async throws {
        let directory = URL(fileURLWithPath: E2E.newState()).appendingPathComponent("shots/nested")  // created by check
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent().deletingLastPathComponent()) }
        let sizeArguments = size.map { ["--size", "\($0.width)x\($0.height)"] } ?? []
        let (status, report) = try await E2E.host(["check"] + arguments + ["--timeout", "5", "--screenshot", directory.path] + sizeArguments)
        #expect(status == 0, "\(report)")
        let expected = size ?? (390, 844)
        var images: [String: Data] = [:]
        for name in names {
            let file = directory.appendingPathComponent(name)
            let data = try #require(FileManager.default.contents(atPath: file.path), "\(name) missing\n\(report)")
            let png = try #require(pngSize(data), "\(name) is not a PNG file")
            #expect(png.width == expected.width && png.height == expected.height, "\(name): \(png.width)×\(png.height)")
            images[name] = data
            // Listed in the report: a PASS row naming the file, and the file in the closing list.
            let row = report.split(separator: "\n").first { $0.hasSuffix(file.path) || $0.contains(file.path + " (") }
            #expect(row?.hasPrefix("  PASS  screenshot ") == true, "\(name)\n\(report)")
            #expect(report.contains("\n  \(file.path)\n"), "\(report)")
        }
        #expect(report.contains("Screenshots (\(expected.width)×\(expected.height)) in \(directory.path):"), "\(report)")
        #expect(images["first-layer-light.png"] != images["first-layer-dark.png"])
        #expect(images["settings-light.png"] != images["settings-dark.png"])
    }

    @Test func sampleHostEUModeAtPhoneSize() async throws {
        try await Self.checkScreenshots([E2E.sample + "?dialect=gravito", "--dialect", "gravito", "--click", "accept-all"], size: nil)
    }

    @Test func sampleHostUSModeAtACustomSize() async throws {
        try await Self.checkScreenshots([E2E.sample + "?mode=us", "--click", "us-opt-out", "--click", "us-save"],
                                  size: (320, 640))
    }

    /// A directory that cannot be created is a FAIL row per picture with the reason, not a crash; bad sizes are
    /// usage errors.
    @Test func screenshotFailureIsAFailRowAndBadSizesAreUsageErrors() async throws {
        let blocker = URL(fileURLWithPath: E2E.newState())
        try Data("a file, not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let (status, report) = try await E2E.host(["check", E2E.sample + "?dialect=gravito", "--dialect", "gravito",
                                             "--timeout", "2", "--screenshot", blocker.appendingPathComponent("shots").path])
        #expect(status == 1, "\(report)")
        let rows = report.split(separator: "\n").filter { $0.hasPrefix("  FAIL  screenshot ") }
        #expect(rows.count == 4, "\(report)")
        #expect(rows.allSatisfy { $0.contains("cannot create") }, "\(report)")
        #expect(report.contains("Result: does not conform"))

        for size in ["10x10", "390", "wide x tall", "390x844x2"] {
            let (usage, _) = try await E2E.host(["check", E2E.sample, "--screenshot", blocker.path, "--size", size])
            #expect(usage == 2, "--size \(size)")
        }
    }
}
