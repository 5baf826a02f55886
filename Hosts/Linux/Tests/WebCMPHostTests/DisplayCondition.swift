import Foundation
import Testing

/// Whether the WebKitGTK host can open a display: every test of this target starts `webcmp-host`, which needs one
/// (`gtk_init_check` fails without it, and the host exits with "cannot open a display").
enum HostDisplay {
    /// `DISPLAY` (X11, e.g. the one `xvfb-run` sets) or `WAYLAND_DISPLAY` is set and not empty.
    static var isAvailable: Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    }
}

extension Trait where Self == ConditionTrait {
    /// Every suite of this target: runs where there is a display (a desktop session, or `scripts/test-e2e`, which
    /// starts a private Xvfb), and is skipped with one line naming `scripts/test-e2e` where there is none — so that a
    /// plain `swift test` on a headless machine with WebKitGTK installed passes instead of failing every test.
    static var needsDisplay: Self {
        .enabled(if: HostDisplay.isAvailable, "no display (DISPLAY unset): run the WebKitGTK suite with scripts/test-e2e")
    }
}
