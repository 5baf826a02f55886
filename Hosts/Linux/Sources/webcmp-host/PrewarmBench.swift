import Foundation
import WebCMPBridge
import WebCMPHostGTK

/// The pre-warming and fallback rows of `webcmp-host bench`.
extension Prewarm {
    /// Median milliseconds over `runs` (each a fresh web view): present → ready for a pre-warmed view (the page was
    /// loaded off-screen; present takes it over and one round trip into the page confirms it is live) and for a cold
    /// one (present creates the view, the bridge loads the page, until `uiReady`); and, with the hosted URL on a
    /// closed port and SampleHost as the fallback, from the failure being known (the bridge's diagnostic) to the
    /// fallback's `uiReady`.
    @MainActor
    static func benchRows(page: URL, runs: Int = 5) -> [(String, Double, String)] {
        var warm: [Double] = [], cold: [Double] = [], fallback: [Double] = []
        let configuration = BridgeConfiguration(cmpURL: page, dialect: .gravito)
        for _ in 0..<runs {
            if let (prewarmed, _, milliseconds, _) = presentPrewarmed(
                configuration: configuration, store: .inMemory(), timeout: 30)
            {
                warm.append(milliseconds)
                prewarmed.bridge.invalidate()
                prewarmed.webView.close()
            }
            cold.append(coldPresent(configuration) ?? .nan)
            fallback.append(fallbackReady(page: page) ?? .nan)
        }
        let warmMedian = Measure.percentile(warm, 0.5), coldMedian = Measure.percentile(cold, 0.5)
        let fallbackMedian = Measure.percentile(fallback, 0.5)
        return [
            ("present → uiReady, pre-warmed view, median ms", warmMedian,
             "≤ 50 ms: \(warmMedian <= 50 ? "met" : "MISSED")"),
            ("present → uiReady, cold view, median ms", coldMedian, "(reference)"),
            ("hosted failure known → fallback uiReady, median ms", fallbackMedian,
             "≤ 300 ms: \(fallbackMedian <= 300 ? "met" : "MISSED")"),
        ]
    }

    /// Present → `uiReady` when presenting creates the view and loads the page.
    @MainActor
    static func coldPresent(_ configuration: BridgeConfiguration) -> Double? {
        let start = ContinuousClock.now
        let view = GTKWebView()
        let bridge = ConsentBridge(configuration: configuration, store: .inMemory())
        let presentation = Presentation()
        bridge.delegate = presentation
        bridge.attach(to: view)
        bridge.start()
        GTKRuntime.run(until: Date().addingTimeInterval(30)) { presentation.readyAt == nil && bridge.state != .invalidated }
        defer { bridge.invalidate(); view.close() }
        return presentation.readyAt.map { Measure.milliseconds($0 - start) }
    }

    /// The hosted page on a closed loopback port, SampleHost (the file of `page`) as the fallback: milliseconds from
    /// the failure diagnostic to the fallback's `uiReady`.
    @MainActor
    static func fallbackReady(page: URL) -> Double? {
        guard page.isFileURL, let contents = try? Data(contentsOf: page),
            let fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: contents)]),
            let hosted = URL(string: "http://127.0.0.1:\(closedPort())/consent.html")
        else { return nil }
        GTKFallbackScheme.register(fallback)
        var configuration = BridgeConfiguration(cmpURL: hosted, dialect: .gravito)
        configuration.fallback = fallback
        configuration.additionalQueryItems = [URLQueryItem(name: "dialect", value: "gravito")]
        let view = GTKWebView()
        let bridge = ConsentBridge(configuration: configuration, store: .inMemory())
        let timing = FailureTiming()
        bridge.delegate = timing
        bridge.attach(to: view)
        bridge.start()
        GTKRuntime.run(until: Date().addingTimeInterval(30)) { timing.readyAt == nil && bridge.state != .invalidated }
        defer { bridge.invalidate(); view.close() }
        guard let failed = timing.failedAt, let ready = timing.readyAt else { return nil }
        return Measure.milliseconds(ready - failed)
    }

    @MainActor
    final class FailureTiming: ConsentBridgeDelegate {
        var failedAt: ContinuousClock.Instant?
        var readyAt: ContinuousClock.Instant?

        func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
            switch event {
            case .diagnostic: if failedAt == nil { failedAt = .now }
            case .uiReady: if readyAt == nil { readyAt = .now }
            default: break
            }
        }
    }
}
