/// Identifies one `CMPWebView.load(_:id:)` call and the navigation it starts.
///
/// The bridge numbers its loads; adapters tag every load event with the identity of the navigation it belongs to
/// (on `WKWebView`, the `WKNavigation` that `load(_:)` returned), never by comparing URLs: while a navigation is
/// pending, `WKWebView.url` is the pending URL, not the one that failed.
package struct WebViewLoadID: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The bridge's number for the load.
    package var rawValue: Int

    /// Creates an identity.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }

    package var description: String { "load #\(rawValue)" }
}
