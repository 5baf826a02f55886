import Foundation
import WebCMPBridge
import WebCMPConformance

/// One run of a hosted CMP page in real WebKit through a ``ConsentBridge``: load, optional clicks, event log.
@MainActor
package final class HostSession: ConsentBridgeDelegate {
    /// What to run.
    package struct Options: Sendable {
        package var url: URL
        package var dialect: CMPDialect?
        package var clicks: [String] = []
        /// The ready timeout, and how long a run without clicks lasts at most.
        package var timeout: TimeInterval = 30
        /// After the clicks: how long the page must stay quiet (no event) before the run ends without the UI finishing.
        package var settle: TimeInterval = HostSession.defaultSettle
        package var extraOrigins: Set<String> = []
        /// ``ConsentUIMode/settings`` opens the page for "Privacy settings".
        package var mode: ConsentUIMode = .consent
        /// The "Privacy settings" page, when it is not the CMP page (``PrivacySettingsOpener/url``).
        package var settingsURL: URL?
        /// The call that opens the CMP's preferences, like the app's ``PrivacySettingsOpener/call``; `nil`: the
        /// dialect's default (automatic for the generic dialect).
        package var settingsCall: PrivacySettingsCall?
        /// `--slow-factor`: multiplies the host's fixed waits, for loaded machines (shared CI runners): the grace of
        /// an element that is there but not clickable (``HostClick/notClickableGrace``), the quiet time that ends a
        /// run after its clicks (``settle``) and the window of each privacy-settings opener
        /// (``BridgeConfiguration/settingsAttemptTimeout``). 1: as configured.
        package var slowFactor: Double = 1
        /// Sourcepoint's GDPR privacy manager id (``PrivacySettingsOpener/sourcepointPrivacyManagerID``).
        package var sourcepointPrivacyManagerID: Int?
        /// Sourcepoint's U.S. privacy manager id (``PrivacySettingsOpener/sourcepointUSNatPrivacyManagerID``).
        package var sourcepointUSNatPrivacyManagerID: Int?
        /// The app's bundled page, served by ``GTKFallbackScheme`` when `url` fails.
        package var fallback: FallbackPage?
        /// Ends the web content process once, when the page is first ready (before any click), as iOS does to apps in
        /// the background; the bridge reloads the page once.
        package var terminateWebProcessWhenReady = false
        /// Ends the run once the page shows its UI and has then been quiet (no event) for ``settle`` seconds: it is
        /// ready and, in settings mode, the bridge has evidence that its preferences are open
        /// (``ConsentBridge/privacySettingsOpenedBy``). For screenshots; without clicks only.
        package var endsWhenShown = false
        /// The app's context sent to the page (``BridgeConfiguration/appContext``); `nil`: none.
        package var appContext: AppContext?

        package init(url: URL, dialect: CMPDialect?) {
            self.url = url
            self.dialect = dialect
        }
    }

    package let options: Options
    package let store: ConsentStore
    package let view: GTKWebView
    package let bridge: ConsentBridge
    /// Every event in order: the bridge's and the host's (clicks, windows opened externally, …).
    package private(set) var events: [HostEvent] = []
    /// ``events`` as the JSON objects the host prints, each with a `"type"`.
    package var log: [JSONValue] { events.map { .object($0.json) } }
    /// The bridge's events, in order.
    package var bridgeEvents: [ConsentBridgeEvent] {
        events.compactMap { if case .bridge(let event) = $0 { event } else { nil } }
    }
    /// The host's own failures (a click that failed, a run that did not finish), in order.
    package var toolFailures: [ConformanceReport.ToolFailure] { events.compactMap(\.toolFailure) }
    /// Since the last event (bridge or host): the run ends by it after the clicks (``Options/settle``).
    private var quiet = QuietPeriod()
    private var clicking = false
    private var clicksDone = false
    private var finished = false
    /// Where ``Options/terminateWebProcessWhenReady`` is.
    private enum Termination { case pending, waitingForReload, done }
    private var termination = Termination.pending

    package init(options: Options, store: ConsentStore, view: GTKWebView) {
        self.options = options
        self.store = store
        self.view = view
        var configuration = BridgeConfiguration(cmpURL: options.url, dialect: options.dialect)
        configuration.readyTimeout = options.timeout
        configuration.mode = options.mode
        configuration.settingsAttemptTimeout *= options.slowFactor
        if options.settingsURL != nil || options.settingsCall != nil {
            configuration.privacySettings = PrivacySettingsOpener(url: options.settingsURL, call: options.settingsCall)
        }
        if options.sourcepointPrivacyManagerID != nil || options.sourcepointUSNatPrivacyManagerID != nil {
            // As an app does: the automatic opener (or the one given) with its Sourcepoint ids.
            var opener = configuration.privacySettings ?? .automatic
            opener.sourcepointPrivacyManagerID = options.sourcepointPrivacyManagerID
            opener.sourcepointUSNatPrivacyManagerID = options.sourcepointUSNatPrivacyManagerID
            configuration.privacySettings = opener
        }
        // Only extra origins make the list explicit: otherwise it follows the configured pages.
        if !options.extraOrigins.isEmpty { configuration.allowedOrigins.formUnion(options.extraOrigins) }
        configuration.fallback = options.fallback
        configuration.appContext = options.appContext
        if let fallback = options.fallback { GTKFallbackScheme.register(fallback) }
        bridge = ConsentBridge(configuration: configuration, store: store)
        bridge.delegate = self
    }

    /// The context `webcmp-host run --app-context` sends: every field set, a language with characters a page must
    /// receive unchanged.
    package nonisolated static let testAppContext = AppContext(
        platform: .other, osVersion: "6.3", language: "de-CH\"</script>'", trackingStatus: .denied,
        trackingStatusBeforeLastRequest: .notDetermined, colorScheme: .dark, dynamicTypeSize: .accessibility2,
        reduceMotion: true)

    /// The default of ``Options/settle``, in seconds.
    package nonisolated static let defaultSettle: TimeInterval = 1

    /// Runs until the CMP UI finishes. Without clicks, at most until the timeout (a page may save late: a slow vendor
    /// list, a redirect, an animation); with clicks, once they are done, until the page has been quiet for
    /// ``Options/settle`` seconds. A page that never becomes ready ends with the bridge's timeout.
    package func run() {
        bridge.attach(to: view)
        view.allowsScriptsToOpenWindows = true  // scripted clicks are no user gestures; the policy decides windows
        view.openExternally = { [weak self] url in
            self?.record(.openedExternally(url))
        }
        bridge.start()
        let started = Date()
        let deadline = started.addingTimeInterval(options.timeout + 5)
        GTKRuntime.run(until: deadline) {
            if finished { return false }
            if options.terminateWebProcessWhenReady, termination == .pending, bridge.state == .ready {
                termination = .waitingForReload
                pageLoaded = false
                record(.terminateWebProcess)
                view.terminateWebProcess()
                return true
            }
            if termination == .waitingForReload {
                if bridge.state == .ready { return true }   // the termination signal has not arrived yet
                termination = .done
            }
            if options.endsWhenShown, pageLoaded, isShown, quiet.hasLasted(options.settle * options.slowFactor) {
                return false
            }
            if !clicking, !clicksDone, bridge.state == .ready || pageLoaded { startClicks() }
            if options.clicks.isEmpty {
                if bridge.state != .loading, Date().timeIntervalSince(started) >= options.timeout { return false }
            } else if clicksDone, quiet.hasLasted(options.settle * options.slowFactor) {
                return false
            }
            return bridge.state != .invalidated
        }
        if !finished, bridge.state == .loading {
            // The outer deadline passed before the bridge's own timeout fired (it cannot: the deadline is later).
            record(.hostTimeout)
        }
    }

    /// Evaluates a function body in the page and returns its JSON result.
    package func evaluate(_ body: String) -> JSONValue? {
        var result: String??
        Task { @MainActor in result = .some(await view.evaluate(body)) }
        GTKRuntime.run(until: Date().addingTimeInterval(5)) { result == nil }
        guard let text = result ?? nil else { return nil }
        return try? JSONValue(parsing: text, limits: JSONLimits(maximumBytes: 8 << 20, maximumDepth: 64))
    }

    private var pageLoaded = false

    /// Whether the page shows what the mode asks for (see ``Options/endsWhenShown``): in settings mode, what the
    /// bridge says opened the settings.
    private var isShown: Bool {
        options.mode != .settings || bridge.privacySettingsOpenedBy != nil
    }

    /// Writes what the page shows as a PNG file (``GTKWebView/writeSnapshot(toPNG:)``), waiting at most 10 s.
    package func writeSnapshot(to file: URL) -> GTKWebView.SnapshotResult {
        var result: GTKWebView.SnapshotResult?
        Task { @MainActor in result = await view.writeSnapshot(toPNG: file.path) }
        GTKRuntime.run(until: Date().addingTimeInterval(10)) { result == nil }
        return result ?? .failure(GTKWebView.SnapshotError(description: "no snapshot within 10 s"))
    }

    private func startClicks() {
        clicking = true
        Task { @MainActor in
            for id in options.clicks {
                let failure = await HostClick.click(
                    id, in: view, until: Date().addingTimeInterval(options.timeout),
                    grace: HostClick.notClickableGrace * options.slowFactor, stop: { [unowned self] in finished })
                record(failure.map { .clickFailed(id: id, message: $0) } ?? .click(id: id))
                if failure != nil { break }
            }
            clicking = false
            clicksDone = true
            quiet.noteActivity()
        }
    }

    private func record(_ event: HostEvent) {
        events.append(event)
        quiet.noteActivity()
    }

    // MARK: ConsentBridgeDelegate

    package func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
        record(.bridge(event))
        if case .uiFinished = event { finished = true }
        if case .uiReady = event { pageLoaded = true }
    }

    /// Marks the page as loaded (for pages without a ready message).
    package func noteLoaded() { pageLoaded = true }
}
