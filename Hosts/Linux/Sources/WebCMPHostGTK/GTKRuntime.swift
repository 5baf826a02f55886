import CWebKitGTK
import Foundation

/// The GTK main loop, pumped together with the main dispatch queue (where the main actor runs on Linux).
@MainActor
public enum GTKRuntime {
    private static var initialized = false

    /// Initialises GTK once. Needs a display (run under `xvfb-run -a`).
    ///
    /// Tries up to five times, 200 ms apart: an X server such as Xvfb resets when its last client disconnects, and a
    /// client that connects during the reset is refused although the display is there a moment later.
    public static func initialize() -> Bool {
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
    public static func run(until deadline: Date, while condition: () -> Bool) {
        while condition(), Date() < deadline {
            var busy = false
            while g_main_context_iteration(nil, 0) != 0 { busy = true }
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: busy ? 0 : 0.0002))
        }
    }
}
