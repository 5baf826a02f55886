import Dispatch
import Foundation
import Testing

/// The display the WebKitGTK host opens: every test of this target starts `webcmp-host`, which needs one
/// (`gtk_init_check` fails without it, and the host exits with "cannot open a display").
///
/// With `DISPLAY` or `WAYLAND_DISPLAY` set (a desktop session, or `scripts/test-e2e`, which runs the suite under
/// `xvfb-run`) that display is used. Without one — a plain `swift test` on a headless machine — the suite starts a
/// private Xvfb of its own once, sets `DISPLAY` for this test process (every `webcmp-host` it starts inherits it), and
/// stops that Xvfb when the test process ends: a shell keeps it while the test process holds the shell's stdin open,
/// and kills it when that pipe closes (the process exited, however it ended). Without Xvfb installed the suites are
/// skipped, naming `scripts/test-e2e` (which installs it).
enum HostDisplay {
    /// Whether the host can open a display: one was set, or the private Xvfb started.
    static var isAvailable: Bool { hasDisplay || privateDisplay != nil }

    /// `DISPLAY` (X11) or `WAYLAND_DISPLAY` is set and not empty.
    private static var hasDisplay: Bool {
        let environment = ProcessInfo.processInfo.environment
        return ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// The private Xvfb's display (`:N`), started on first use when there is no display; `nil` when there is one or
    /// Xvfb could not be started.
    private static let privateDisplay: String? = hasDisplay ? nil : startPrivateDisplay()

    /// Keeps the private Xvfb's lifeline (its shell's stdin) open for the life of the test process.
    nonisolated(unsafe) private static var lifeline: Pipe?

    private static func startPrivateDisplay() -> String? {
        let candidates = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
        guard let xvfb = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Xvfb picks a free display and writes its number on stdout (-displayfd). Its keeper unblocks the signals a
        // child of this test process inherits blocked (Foundation's Process keeps the parent's signal mask, and a
        // blocked SIGTERM would keep Xvfb alive), waits for its stdin to close, then stops Xvfb and reaps it.
        process.arguments = ["python3", "-c", Self.keeper, xvfb]
        let output = Pipe()
        let pipe = Pipe()
        process.standardOutput = output
        process.standardInput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        lifeline = pipe
        // The display number, or nothing within 10 s (an Xvfb that failed to start never writes one).
        let reader = output.fileHandleForReading
        let number = LockedText()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var text = ""
            while !text.contains("\n") {
                let data = reader.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            number.set(text.trimmingCharacters(in: .whitespacesAndNewlines))
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success, let display = number.value, !display.isEmpty,
            display.allSatisfy(\.isNumber)
        else {
            try? pipe.fileHandleForWriting.close()   // the shell stops whatever started
            return nil
        }
        setenv("DISPLAY", ":" + display, 1)
        return ":" + display
    }

    /// The keeper of the private Xvfb (Python, which the suite's loopback servers use too).
    private static let keeper = """
        import signal, subprocess, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        xvfb = subprocess.Popen([sys.argv[1], "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x1024x24"],
                                stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        sys.stdin.read()
        xvfb.terminate()
        try:
            xvfb.wait(timeout=5)
        except subprocess.TimeoutExpired:
            xvfb.kill()
            xvfb.wait()
        """

    /// Text handed from the reading thread.
    private final class LockedText: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?
        var value: String? { lock.withLock { text } }
        func set(_ new: String) { lock.withLock { text = new } }
    }
}

extension Trait where Self == ConditionTrait {
    /// Every suite of this target: runs where there is a display or a private Xvfb could be started (see
    /// ``HostDisplay``), and is skipped naming `scripts/test-e2e` where neither is possible.
    static var needsDisplay: Self {
        .enabled(if: HostDisplay.isAvailable, "no display and no Xvfb: run the WebKitGTK suite with scripts/test-e2e")
    }
}
