import Foundation

/// Runs JavaScript in Node.js (a real JavaScript engine on the test machine) and returns what it printed.
enum NodeRunner {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static var executable: URL? {
        for path in ["/usr/bin/node", "/usr/local/bin/node", "/usr/bin/nodejs"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        return nil
    }

    /// Checks the syntax of `source` without running it (`node --check`); throws with Node's message when it fails.
    static func check(_ source: String) throws {
        _ = try run(source, options: ["--check"])
    }

    /// Runs `source` (passed through a temporary file, never through a shell) and returns its standard output.
    static func run(_ source: String, options: [String] = []) throws -> String {
        guard let executable else { throw Failure(description: "node is not installed (scripts/test installs it)") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webcmp-\(UUID().uuidString).js")
        try Data(source.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = executable
        process.arguments = options + [file.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "node exited \(process.terminationStatus): \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
