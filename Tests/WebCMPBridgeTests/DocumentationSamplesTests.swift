import Foundation
import Testing

/// Checks that every ```swift block of README.md, of the guides in docs/ and of the DocC articles appears verbatim
/// (imports and indentation aside) in one of the sample files, which compile: DocumentationSamples.swift (the public
/// API, as an app imports it) and AddingADialectTests.swift (the contributors' article, whose samples use internal
/// names) with the tests, and the ExampleApp's QuickStartSamples.swift (the UIKit and SwiftUI quick start, which
/// needs UIKit: scripts/check-apple type-checks it against the iOS SDK).
@Suite struct DocumentationSamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sampleFiles = [
        "Tests/WebCMPBridgeTests/DocumentationSamples.swift", "Tests/WebCMPBridgeTests/AddingADialectTests.swift",
        "ExampleApp/WebCMPExample.swiftpm/Sources/QuickStartSamples.swift",
    ]

    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everySampleCompiles() throws {
        let samples = try Self.sampleFiles.map { name in
            Self.normalized(try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8))
        }
        let docc = Self.root.appendingPathComponent("Sources/WebCMPBridge/WebCMPBridge.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: docc.path).filter { $0.hasSuffix(".md") }
        let guides = Self.root.appendingPathComponent("docs")
        let guideFiles = try FileManager.default.contentsOfDirectory(atPath: guides.path).filter { $0.hasSuffix(".md") }
        let documents = [Self.root.appendingPathComponent("README.md")]
            + guideFiles.map { guides.appendingPathComponent($0) } + articles.map { docc.appendingPathComponent($0) }
        var count = 0
        for document in documents {
            for block in Self.swiftBlocks(in: try String(contentsOf: document, encoding: .utf8)) {
                count += 1
                let lines = Self.normalized(block)
                let found = samples.contains { sample in
                    sample.indices.contains { start in
                        start + lines.count <= sample.count && Array(sample[start..<(start + lines.count)]) == lines
                    }
                }
                let files = Self.sampleFiles.map { ($0 as NSString).lastPathComponent }.joined(separator: " or ")
                #expect(found, "\(document.lastPathComponent): sample not in \(files):\n\(block)")
            }
        }
        #expect(count >= 5)
    }

    /// The testing article's sample does what it says.
    @MainActor @Test func theTestingSampleStoresTheChoiceMadeOnTheFallback() throws {
        let keys = try DocumentationSamples.testingYourConsentFlow()
        #expect(keys["IABTCF_TCString"] == .string("COwAdDhOwAdDhN4ABAENAPCgAAQAAv___wAAAFP_AAp_4AI6ACACAA"))
    }

    /// The testing article's background sample ends with the banner ready, not timed out.
    @MainActor @Test func theBackgroundSampleKeepsTheBannerAfterTheReturn() {
        #expect(DocumentationSamples.testingTheBackground() == .ready)
    }
}
