import Foundation

/// How long a page has been quiet (no event since the last one noted): the host's one rule for "the page has
/// settled". A run ends by it once its clicks are done or, for screenshots, once the page shows its UI
/// (``HostSession``, `--settle`); `webcmp-host prewarm` ends its clicks by it too.
package struct QuietPeriod: Sendable {
    /// When the last event was noted (or the period began).
    private var lastActivity = Date()

    /// A period that starts now.
    package init() {}

    /// Notes an event: the quiet period starts again.
    package mutating func noteActivity() { lastActivity = Date() }

    /// Whether nothing was noted for more than `seconds`.
    package func hasLasted(_ seconds: TimeInterval) -> Bool { Date().timeIntervalSince(lastActivity) > seconds }
}
