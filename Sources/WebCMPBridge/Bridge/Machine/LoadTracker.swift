import Foundation

/// The loads a ``ConsentBridge`` started in its web view, so that events of a replaced load are told apart by
/// identity, never by URL.
///
/// `WKWebView` reports a load that a newer one replaced as failed with `NSURLErrorCancelled` *after* the new load
/// began, and its `url` is then already the new one; a hosted page replaced by the fallback page must not end the run
/// because of that. Each ``begin(_:)`` numbers a new load; an event tagged with an older number is stale. An event
/// without a number belongs to a navigation the page started itself, i.e. to the page currently shown.
package struct LoadTracker: Sendable, Hashable {
    /// The current load, if one was started.
    package private(set) var current: WebViewLoadID?
    /// The URL of the current load (reloaded when the web content process terminates).
    package private(set) var currentURL: URL?
    /// Whether the web view shows (or loads) the app's fallback page: from the fallback's first load on.
    package private(set) var showsFallback = false
    /// Whether the current load has answered: a document from an allowed origin, a finished load or a message.
    /// Before that, a navigation away from the allowed origins is the load itself going elsewhere (a redirect).
    package private(set) var answered = false
    /// Recovery from a terminated web content process, for the current page.
    package var recovery = Recovery.none
    private var count = 0

    package init() {}

    /// Starts a new load of `url` (`fallback`: the app's fallback page, shown from now on); every earlier load is
    /// stale from now on, and the new one has not answered yet.
    package mutating func begin(_ url: URL, fallback: Bool = false) -> WebViewLoadID {
        count += 1
        let id = WebViewLoadID(rawValue: count)
        current = id
        currentURL = url
        answered = false
        if fallback { showsFallback = true }
        return id
    }

    /// The current load answered.
    package mutating func markAnswered() {
        answered = true
    }

    /// Whether an event tagged `load` belongs to a load that was replaced.
    package func isStale(_ load: WebViewLoadID?) -> Bool {
        guard let load else { return false }
        return load != current
    }
}

extension LoadTracker {
    /// Recovery from a terminated web content process. The page is reloaded once **per page**: once the reloaded page
    /// is ready the allowance is back (a user who reads two vendor policies outside the app may come back to a
    /// terminated process twice); a second termination before the reloaded page was ready ends the run.
    package enum Recovery: Sendable, Hashable {
        /// Nothing to recover.
        case none
        /// The process terminated while the app was in the background: reload when it returns (a reload in the
        /// background would be suspended, or killed again).
        case reloadInForeground
        /// Reloaded; the reloaded page is not ready yet.
        case reloaded
    }
}

extension WebViewEvent {
    /// The load an event belongs to (`nil` for messages, process termination and page-initiated navigations).
    var loadID: WebViewLoadID? {
        switch self {
        case .didReceiveResponse(_, _, let load), .didFinishLoading(_, let load), .didFailLoading(_, let load):
            return load
        case .message, .contentProcessDidTerminate, .appLifecycle:
            return nil
        }
    }
}
