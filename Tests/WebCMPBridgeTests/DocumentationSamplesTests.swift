import Foundation
import Testing

/// Checks that every ```swift block of README.md and the DocC articles appears verbatim (imports and indentation
/// aside) in DocumentationSamples.swift, which compiles with the tests.
@Suite struct DocumentationSamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

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
        let samples = Self.normalized(try String(contentsOf: Self.root.appendingPathComponent(
            "Tests/WebCMPBridgeTests/DocumentationSamples.swift"), encoding: .utf8))
        let docc = Self.root.appendingPathComponent("Sources/WebCMPBridge/WebCMPBridge.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: docc.path).filter { $0.hasSuffix(".md") }
        let documents = [Self.root.appendingPathComponent("README.md")] + articles.map { docc.appendingPathComponent($0) }
        var count = 0
        for document in documents {
            for block in Self.swiftBlocks(in: try String(contentsOf: document, encoding: .utf8)) {
                count += 1
                let lines = Self.normalized(block)
                let found = samples.indices.contains { start in
                    start + lines.count <= samples.count && Array(samples[start..<(start + lines.count)]) == lines
                }
                #expect(found, "\(document.lastPathComponent): sample not in DocumentationSamples.swift:\n\(block)")
            }
        }
        #expect(count >= 5)
    }

    /// The testing article's sample does what it says.
    @MainActor @Test func theTestingSampleStoresTheChoiceMadeOnTheFallback() throws {
        let keys = try DocumentationSamples.testingYourConsentFlow()
        #expect(keys["IABTCF_TCString"] == .string("COwAdDhOwAdDhN4ABAENAPCgAAQAAv___wAAAFP_AAp_4AI6ACACAA"))
    }
}
