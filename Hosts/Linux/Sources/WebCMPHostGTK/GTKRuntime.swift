import CWebKitGTK
import Foundation

/// The GTK main loop, pumped together with the main dispatch queue (where the main actor runs on Linux).
@MainActor
package enum GTKRuntime {
    private static var initialized = false
    private static var context: UnsafeMutablePointer<WebKitWebContext>?

    /// Where the web views of this process keep their website data (local storage, IndexedDB, caches, cookies), like
    /// an app's own `WKWebsiteDataStore`: `nil` (the default) keeps it in memory only, so separate processes — the
    /// end-to-end tests run several at once — never see each other's data. Set it before the first ``GTKWebView``
    /// is created; later changes are ignored.
    package static var websiteDataDirectory: URL?

    /// The one web context of this process, created on first use with its own website data manager
    /// (``websiteDataDirectory``, or ephemeral). Every ``GTKWebView`` and ``GTKFallbackScheme`` uses it.
    static var webContext: UnsafeMutablePointer<WebKitWebContext> {
        if let context { return context }
        let created: UnsafeMutablePointer<WebKitWebContext>
        if let directory = websiteDataDirectory {
            created = webcmp_web_context_new(directory.appendingPathComponent("data").path,
                                             directory.appendingPathComponent("cache").path,
                                             directory.appendingPathComponent("cookies.sqlite").path)
        } else {
            created = webcmp_web_context_new(nil, nil, nil)
        }
        context = created
        return created
    }

    /// Whether pages see `prefers-color-scheme: dark`: GTK's "prefer the dark theme" setting, from which WebKitGTK
    /// takes a web view's appearance. Set it before creating a ``GTKWebView`` (default: `false`, light).
    package static var prefersDarkColorScheme = false {
        didSet { webcmp_set_prefers_dark_theme(prefersDarkColorScheme ? 1 : 0) }
    }

    /// Initialises GTK once. Needs a display (run under `xvfb-run -a`).
    ///
    /// Tries up to five times, 200 ms apart: an X server such as Xvfb resets when its last client disconnects, and a
    /// client that connects during the reset is refused although the display is there a moment later.
    package static func initialize() -> Bool {
        if initialized { return true }
        for attempt in 1...5 {
            if gtk_init_check(nil, nil) != 0 {
                initialized = true
                return true
            }
            if attempt < 5 { usleep(200_000) }
        }
        return false
    }

    /// Runs GLib and the main queue until `done()` is true or `deadline` passes.
    package static func run(until deadline: Date, while condition: () -> Bool) {
        while condition(), Date() < deadline {
            var busy = false
            while g_main_context_iteration(nil, 0) != 0 { busy = true }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: busy ? 0 : 0.0002))
        }
    }
}
