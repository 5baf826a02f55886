/// A command-line usage error: one line for stderr (the tool exits with status 2).
package struct UsageError: Error, CustomStringConvertible, Sendable {
    /// The line, without the tool's name.
    package var message: String

    /// A usage error saying `message`.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
