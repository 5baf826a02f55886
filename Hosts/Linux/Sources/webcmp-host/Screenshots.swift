import Foundation
import WebCMPBridge
import WebCMPConformance
import WebCMPHostGTK

/// `check --screenshot DIR [--size WxH]`: PNG files of the page as an app user sees it on a phone — the first layer
/// and settings mode, each in the light and the dark color scheme — so the CMP page's owner can look at them:
/// `first-layer-light.png`, `first-layer-dark.png`, `settings-light.png`, `settings-dark.png` in DIR. Each is taken in
/// its own run (a new web view of the requested size, no clicks) once the page shows its UI, its document is complete,
/// its fonts are loaded and it has been quiet for a moment. Each file is a `check` row; a failure is a FAIL row with
/// the reason.
@MainActor
struct Screenshots {
    enum Scheme: String, CaseIterable { case light, dark }

    let arguments: Arguments
    let directory: URL
    private(set) var rows: [ConformanceReport.Row] = []
    /// The files written, in order.
    private(set) var files: [URL] = []

    /// How long the page must stay quiet (no bridge event) before its picture is taken, and after it settled (fonts,
    /// two frames) how long the view is left to paint.
    static let quietTime: TimeInterval = 0.5

    /// `nil` without `--screenshot`.
    init?(_ arguments: Arguments) {
        guard let directory = arguments.screenshot else { return nil }
        self.arguments = arguments
        self.directory = directory
    }

    /// Takes the light and the dark picture of the page at `url`, in settings mode or (`settings == false`) as the
    /// first layer, with `store`'s consent; `arguments` are the check's (the settings row's for settings mode).
    mutating func take(settings: Bool, url: URL, store: ConsentStore, arguments: Arguments? = nil) {
        let mode = settings ? "settings" : "first layer"
        if let problem = Self.prepare(directory) {
            for scheme in Scheme.allCases {
                rows.append(ConformanceReport.Row("screenshot \(mode), \(scheme)", false, "cannot create \(directory.path): \(problem)"))
            }
            return
        }
        for scheme in Scheme.allCases {
            let file = directory.appendingPathComponent("\(settings ? "settings" : "first-layer")-\(scheme).png")
            let (ok, detail) = shoot(settings: settings, scheme: scheme, url: url, store: store,
                                     arguments: arguments ?? self.arguments, file: file)
            if ok { files.append(file) }
            rows.append(ConformanceReport.Row("screenshot \(mode), \(scheme)", ok, detail))
        }
    }

    /// Creates `directory` with its parents; returns why it could not (a file in the way, the system's reason).
    private static func prepare(_ directory: URL) -> String? {
        var path = directory.standardizedFileURL
        while path.path != "/" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) {
                if !isDirectory.boolValue { return "\(path.path) is a file, not a directory" }
                break
            }
            path.deleteLastPathComponent()
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return nil
        } catch {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            return (underlying ?? error as NSError).localizedDescription
        }
    }

    private func shoot(settings: Bool, scheme: Scheme, url: URL, store: ConsentStore, arguments: Arguments, file: URL)
        -> (Bool, String)
    {
        var run = arguments
        run.clicks = []
        run.settings = settings
        run.settle = Self.quietTime
        run.terminateWebProcess = false
        GTKRuntime.prefersDarkColorScheme = scheme == .dark
        defer { GTKRuntime.prefersDarkColorScheme = false }
        try? FileManager.default.removeItem(at: file)
        let session = runSession(run, url: url, store: store, endsWhenShown: true)
        defer {
            session.bridge.invalidate()
            session.view.close()
        }
        // Document complete, web fonts loaded, two frames painted; then a short quiet time for the view to paint.
        let page = session.evaluate("""
            new Promise(function (r) {
              function report() { r({ dark: matchMedia('(prefers-color-scheme: dark)').matches, state: document.readyState }); }
              function frames() { requestAnimationFrame(function () { requestAnimationFrame(report); }); }
              function fonts() { (document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve()).then(frames, frames); }
              if (document.readyState === 'complete') { fonts(); } else { addEventListener('load', fonts); }
              setTimeout(report, 4000);
            })
            """)
        GTKRuntime.run(until: Date().addingTimeInterval(Self.quietTime)) { true }
        var notes: [String] = []
        if !session.bridgeEvents.contains(where: { if case .uiReady = $0 { true } else { false } }) {
            notes.append("the page was not ready")
        }
        if let failure = session.events.lazy.compactMap(\.failureCode).first { notes.append(failure) }
        if let state = page?["state"]?.stringValue, state != "complete" { notes.append("document \(state)") }
        switch session.writeSnapshot(to: file) {
        case .failure(let error):
            return (false, error.description)
        case .success(let size):
            guard size.width == run.size.width, size.height == run.size.height else {
                return (false, "\(file.path) is \(size.width)×\(size.height), not \(run.size.width)×\(run.size.height)")
            }
            // The color scheme is evidence too: the page itself must have seen the one asked for.
            guard let dark = page?["dark"]?.boolValue else {
                return (false, "\(file.path) written, but the page's prefers-color-scheme could not be read")
            }
            guard dark == (scheme == .dark) else {
                return (false, "\(file.path) written, but the page saw prefers-color-scheme: \(dark ? "dark" : "light")")
            }
            return (true, file.path + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))"))
        }
    }
}
