import Foundation
import WebCMPBridge
import WebCMPHostGTK

/// `webcmp-host prewarm URL`: a ``ConsentPrewarmer`` loads the page off-screen; once it is ready the UI is
/// "presented" (the bridge and view are taken over), and the given clicks are made. Prints JSON: the events, the keys,
/// the loads before and after presenting and the time from present to a ready page.
enum Prewarm {
    /// The result of one pre-warmed presentation.
    @MainActor
    final class Presentation: ConsentBridgeDelegate {
        var log: [JSONValue] = []
        var readyAt: ContinuousClock.Instant?
        var finished = false
        /// Since the last event: after the clicks, the command ends by it as `run` does (``QuietPeriod``).
        var quiet = QuietPeriod()

        func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
            log.append(.object(HostEvent.json(for: event)))
            quiet.noteActivity()
            if case .uiReady = event, readyAt == nil { readyAt = .now }
            if case .uiFinished = event { finished = true }
        }
    }

    /// Pre-warms `configuration`'s page, waits until it is ready off-screen (or `timeout`), then presents it.
    /// - Returns: the taken bridge and view, the milliseconds from present to a ready page (the bridge already
    ///   ready, confirmed by a round trip into the page), and the loads before presenting.
    @MainActor
    static func presentPrewarmed(
        configuration: BridgeConfiguration, store: ConsentStore, timeout: TimeInterval
    ) -> (prewarmed: ConsentPrewarmer<GTKWebView>.Prewarmed, presentation: Presentation, milliseconds: Double, loadsBefore: Int)? {
        let prewarmer = ConsentPrewarmer<GTKWebView>(idleTimeout: timeout + 30, release: { $0.close() })
        guard prewarmer.prewarm(configuration: configuration, store: store, makeWebView: { GTKWebView() }) else {
            return nil
        }
        GTKRuntime.run(until: Date().addingTimeInterval(timeout)) { prewarmer.isPrewarmed && !prewarmer.isReady }
        guard prewarmer.isReady else {
            prewarmer.releasePrewarmed()
            return nil
        }
        // The app presents later than the instant the page became ready (at launch it pre-warms, then shows its
        // first screen); presenting at that very instant would measure the page's own start-up work instead.
        GTKRuntime.run(until: Date().addingTimeInterval(0.5)) { true }
        // Present.
        let start = ContinuousClock.now
        guard let prewarmed = prewarmer.take() else { return nil }
        let loadsBefore = prewarmed.webView.loadCount
        let presentation = Presentation()
        prewarmed.bridge.delegate = presentation
        prewarmed.bridge.beginPresentation()
        if prewarmed.bridge.state == .ready { presentation.readyAt = roundTrip(prewarmed.webView) }
        GTKRuntime.run(until: Date().addingTimeInterval(timeout)) { presentation.readyAt == nil }
        let milliseconds = presentation.readyAt.map { Measure.milliseconds($0 - start) } ?? .nan
        return (prewarmed, presentation, milliseconds, loadsBefore)
    }

    /// A round trip into the page: the instant its answer arrived.
    @MainActor
    static func roundTrip(_ view: GTKWebView) -> ContinuousClock.Instant? {
        var answered: ContinuousClock.Instant?
        Task { @MainActor in
            _ = await view.evaluate("document.readyState")
            answered = .now
        }
        GTKRuntime.run(until: Date().addingTimeInterval(5)) { answered == nil }
        return answered
    }

    /// The store's consent history, oldest first: each entry's provenance (`source`/`action`), to tell a user's choice
    /// from a report.
    @MainActor
    static func history(_ store: ConsentStore) -> JSONValue {
        .array(store.consentHistory().map { entry in
            .string("\(entry.provenance.source.rawValue)/\(entry.provenance.action.rawValue)")
        })
    }

    /// Clicks the element `id` with the host's one click routine (``HostClick``); `false` when it could not.
    @MainActor
    static func click(_ id: String, in view: GTKWebView, timeout: TimeInterval) -> Bool {
        var failure: String??
        Task { @MainActor in failure = .some(await HostClick.click(id, in: view, until: Date().addingTimeInterval(timeout))) }
        GTKRuntime.run(until: Date().addingTimeInterval(timeout + 5)) { failure == nil }
        return failure == .some(nil)
    }

    @MainActor
    static func command(_ arguments: Arguments) -> Int32 {
        guard let url = arguments.url ?? unreachableURL(arguments) else { fail("prewarm needs a URL\n\(usage)", code: 2) }
        let store = makeStore(arguments)
        var configuration = BridgeConfiguration(cmpURL: url, dialect: arguments.dialect)
        configuration.readyTimeout = arguments.timeout
        configuration.allowedOrigins.formUnion(arguments.origins)
        if let page = fallbackPage(arguments) {
            configuration.fallback = page
            GTKFallbackScheme.register(page)
        }
        guard let (prewarmed, presentation, milliseconds, loadsBefore) = presentPrewarmed(
            configuration: configuration, store: store, timeout: arguments.timeout)
        else {
            // What the page stored off-screen, if anything (a page that saved and finished before any UI showed it
            // is released without being presented).
            printJSON(.object([
                "error": .string("nothing was pre-warmed, or the page did not become ready off-screen"),
                "keys": store.iabKeys().json, "history": history(store),
            ]))
            return 1
        }
        let readyBeforePresent = prewarmed.eventsBeforePresentation.contains { if case .uiReady = $0 { true } else { false } }
        for id in arguments.clicks where !click(id, in: prewarmed.webView, timeout: arguments.timeout) {
            presentation.log.append(.object(["type": .string("error"), "code": .string("clickFailed"), "id": .string(id)]))
            break
        }
        // As `run` ends after its clicks (or after presenting, without clicks): when the page finishes, or has been
        // quiet for --settle seconds.
        presentation.quiet.noteActivity()
        GTKRuntime.run(until: Date().addingTimeInterval(arguments.timeout)) {
            !presentation.finished && !presentation.quiet.hasLasted(arguments.settle)
        }
        let loadsAfter = prewarmed.webView.loadCount
        prewarmed.bridge.invalidate()
        prewarmed.webView.close()
        printJSON(.object([
            "offScreenEvents": .array(prewarmed.eventsBeforePresentation.map { .object(HostEvent.json(for: $0)) }),
            "events": .array(presentation.log),
            "keys": store.iabKeys().json,
            "history": history(store),
            "readyBeforePresent": .bool(readyBeforePresent),
            "loadsBeforePresent": .number(Double(loadsBefore)),
            "loadsAfterPresent": .number(Double(loadsAfter)),
            "presentToReadyMs": milliseconds.isFinite ? .number(milliseconds) : .null,
        ]))
        return 0
    }
}
