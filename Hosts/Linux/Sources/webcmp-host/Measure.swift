import Foundation
import WebCMPBridge
import WebCMPHostGTK

/// `webcmp-host bench` and `webcmp-host soak`: real-engine round trips and memory over many saves.
@MainActor
enum Measure {
    /// Resident memory of this (host) process in KiB. WebKit's web content process is separate and not included.
    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// A page session driven by the page itself: it posts `count` saves, alternating two real TC strings made by
    /// SampleHost's encoder, each after the app acknowledged the previous one, and records page-side durations.
    final class SaveLoop: ConsentBridgeDelegate {
        let view = GTKWebView()
        let bridge: ConsentBridge
        var ready = false
        var saved = 0
        var nativeMilliseconds: [Double] = []
        var errors: [String] = []
        var onSaved: ((Int) -> Void)?
        private var arrival: ContinuousClock.Instant?
        /// Arrival instants of every message, to measure the full cycle natively.
        var arrivals: [ContinuousClock.Instant] = []

        init(page: URL) {
            var configuration = BridgeConfiguration(cmpURL: page, dialect: .gravito)
            configuration.readyTimeout = .seconds(30)
            bridge = ConsentBridge(configuration: configuration, store: .inMemory())
            bridge.delegate = self
            bridge.attach(to: view)
            // Time stamp each message as it arrives from WebKit, before the bridge sees it.
            let forward = view.eventHandler
            view.eventHandler = { [weak self] event in
                if case .message = event {
                    self?.arrival = .now
                    self?.arrivals.append(.now)
                }
                forward?(event)
            }
        }

        func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
            switch event {
            case .uiReady: ready = true
            case .consentReady:
                if let arrival { nativeMilliseconds.append(Measure.milliseconds(ContinuousClock.now - arrival)) }
                saved += 1
                onSaved?(saved)
                view.evaluateJavaScript("window.__webcmpAck && window.__webcmpAck();")
            case .error(let error): errors.append(error.code)
            default: break
            }
        }

        /// Starts the page-side loop: `count` saves, a re-injection (`CMP-loaded`) every `reinjectEvery` saves and a
        /// `close` every `closeEvery`.
        func startLoop(count: Int, reinjectEvery: Int = 100, closeEvery: Int = 500) {
            let script = """
                (function () {
                  var host = window.__sampleHost, h = window.webkit.messageHandlers.jsHandler;
                  var strings = [];
                  [true, false].forEach(function (value) {
                    Object.keys(host.state.purposes).forEach(function (k) { host.state.purposes[k] = value; });
                    Object.keys(host.state.vendors).forEach(function (k) { host.state.vendors[k] = value; });
                    strings.push(host.encodeTCString());
                  });
                  var count = \(count), i = 0, t0 = 0;
                  window.__webcmpTimes = [];
                  var next = function () {
                    if (i === count) { window.__webcmpDone = true; return; }
                    if (i > 0 && i % \(reinjectEvery) === 0) { h.postMessage({ type: 'CMP-loaded' }); }
                    if (i > 0 && i % \(closeEvery) === 0) { h.postMessage({ type: 'close' }); }
                    t0 = performance.now();
                    h.postMessage({ type: 'save', tcstring: strings[i % 2] });
                    i += 1;
                  };
                  window.__webcmpAck = function () { window.__webcmpTimes.push(performance.now() - t0); next(); };
                  next();
                })();
                """
            view.evaluateJavaScript(script)
        }
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Loads `page` in `loop`, returns milliseconds from `start()` to the ready message (or nil on timeout).
    static func loadUntilReady(_ loop: SaveLoop) -> Double? {
        let start = ContinuousClock.now
        loop.bridge.start()
        GTKRuntime.run(until: Date().addingTimeInterval(30)) { !loop.ready && loop.bridge.state != .timedOut }
        guard loop.ready else { return nil }
        return milliseconds(ContinuousClock.now - start)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func bench(page: URL, saves: Int, json: Bool) -> Int32 {
        let cold = SaveLoop(page: page)
        guard let coldReady = loadUntilReady(cold) else { fail("the page did not become ready", code: 1) }
        cold.startLoop(count: saves, reinjectEvery: saves + 1, closeEvery: saves + 1)
        GTKRuntime.run(until: Date().addingTimeInterval(120)) { cold.saved < saves }
        let pageTimes = cold.evaluateTimes()
        // Natively: from one save's arrival to the next one's, i.e. store + acknowledgement delivered to the page +
        // the page's next post. An upper bound of the round trip, with the clock's full resolution.
        let saveArrivals = Array(cold.arrivals.suffix(saves))
        let cycle = zip(saveArrivals, saveArrivals.dropFirst()).map { milliseconds($1 - $0) }

        // A pre-warmed web view: its web process is already running (about:blank loaded) when the CMP load starts.
        let warm = SaveLoop(page: page)
        var blankLoaded = false
        let forward = warm.view.eventHandler
        warm.view.eventHandler = { event in
            if case .didFinishLoading = event { blankLoaded = true }
            forward?(event)
        }
        warm.view.load(URL(string: "about:blank")!)
        GTKRuntime.run(until: Date().addingTimeInterval(10)) { !blankLoaded }
        warm.view.eventHandler = forward
        let warmReady = loadUntilReady(warm) ?? .nan

        let rows: [(String, Double, String)] = [
            ("page: save → stored → ack, median ms (page clock, 1 ms steps)", percentile(pageTimes, 0.5), "≤ 2 ms"),
            ("page: save → stored → ack, p90 ms (page clock, 1 ms steps)", percentile(pageTimes, 0.9), "≤ 5 ms"),
            ("native: save arrival → next save arrival, median ms", percentile(cycle, 0.5), "≤ 2 ms (upper bound of the round trip)"),
            ("native: save arrival → next save arrival, p90 ms", percentile(cycle, 0.9), "≤ 5 ms"),
            ("native: message arrival → keys stored, median ms", percentile(cold.nativeMilliseconds, 0.5), "(info)"),
            ("native: message arrival → keys stored, p90 ms", percentile(cold.nativeMilliseconds, 0.9), "(info)"),
            ("load → ready, cold web view (first in process), ms", coldReady, "(reference)"),
            ("load → ready, pre-warmed web view, ms", warmReady, "≤ 30% of cold: \(warmReady <= coldReady * 0.3 ? "met" : "MISSED") (\(format(100 * warmReady / coldReady))%)"),
        ]
        let medianMet = percentile(cycle, 0.5) <= 2, p90Met = percentile(cycle, 0.9) <= 5
        if json {
            var object: [String: JSONValue] = ["saves": .number(Double(pageTimes.count)), "errors": .array(cold.errors.map(JSONValue.string))]
            for (name, value, _) in rows { object[name] = value.isFinite ? .number(value) : .null }
            print(JavaScriptLiteral.expression(.object(object)))
        } else {
            print("webcmp-host bench: \(pageTimes.count) saves through the real bridge in WebKitGTK (\(page.lastPathComponent))")
            for (name, value, target) in rows {
                print("  \(name.padding(toLength: 64, withPad: " ", startingAt: 0)) \(format(value).padding(toLength: 10, withPad: " ", startingAt: 0)) \(target)")
            }
            print("  round-trip targets (native measure): median \(medianMet ? "met" : "MISSED"), p90 \(p90Met ? "met" : "MISSED"); errors: \(cold.errors.count)")
        }
        cold.bridge.invalidate(); cold.view.close()
        warm.bridge.invalidate(); warm.view.close()
        return 0
    }

    static func soak(page: URL, saves: Int, cycles: Int, json: Bool) -> Int32 {
        // (a) One page session, many saves, with re-injections and closes between them.
        let loop = SaveLoop(page: page)
        guard loadUntilReady(loop) != nil else { fail("the page did not become ready", code: 1) }
        var samples: [(Int, Int)] = [(0, residentKiB())]
        let every = max(1, saves / 20)
        loop.onSaved = { count in if count % every == 0 { samples.append((count, residentKiB())) } }
        loop.startLoop(count: saves)
        GTKRuntime.run(until: Date().addingTimeInterval(600)) { loop.saved < saves }
        let completed = loop.saved
        loop.bridge.invalidate(); loop.view.close()
        // Trend over the second half (after warm-up): least-squares slope in KiB per 1,000 saves.
        let half = Array(samples.dropFirst(samples.count / 2))
        let slope = slopePerThousand(half)
        let growth = (samples.last?.1 ?? 0) - (samples.dropFirst().first?.1 ?? 0)

        // (b) Create → load → save → invalidate cycles.
        var cycleSamples: [Int] = []
        for index in 0..<cycles {
            let cycle = SaveLoop(page: page)
            if loadUntilReady(cycle) != nil {
                cycle.startLoop(count: 1)
                GTKRuntime.run(until: Date().addingTimeInterval(10)) { cycle.saved < 1 }
            }
            cycle.bridge.invalidate()
            cycle.view.close()
            GTKRuntime.run(until: Date().addingTimeInterval(0.02)) { true }
            if index == min(4, cycles - 1) || index == cycles - 1 { cycleSamples.append(residentKiB()) }
        }
        let baseline = cycleSamples.first ?? -1, end = cycleSamples.last ?? -1
        let trendOK = slope < 50, cyclesOK = end - baseline < max(2048, baseline / 10)
        if json {
            print(JavaScriptLiteral.expression(.object([
                "saves": .number(Double(completed)), "samples": .array(samples.map { .array([.number(Double($0.0)), .number(Double($0.1))]) }),
                "slopeKiBPerThousandSaves": .number(slope), "growthKiB": .number(Double(growth)),
                "cycles": .number(Double(cycles)), "cycleBaselineKiB": .number(Double(baseline)), "cycleEndKiB": .number(Double(end)),
                "trendPass": .bool(trendOK), "cyclesPass": .bool(cyclesOK), "errors": .array(loop.errors.map(JSONValue.string)),
            ])))
        } else {
            print("webcmp-host soak: host process resident memory (WebKit's web process not included)")
            print("  (a) \(completed) saves in one page session, re-injection every 100, close every 500; RSS KiB by saves:")
            print("      " + samples.map { "\($0.0):\($0.1)" }.joined(separator: " "))
            print("      growth after the first sample: \(growth) KiB; trend over the second half: \(format(slope)) KiB per 1,000 saves — target: no growth trend (< 50) — \(trendOK ? "PASS" : "FAIL")")
            print("  (b) \(cycles) create → load → save → invalidate cycles: RSS after warm-up \(baseline) KiB, at the end \(end) KiB — target: back to baseline (within max(2 MiB, 10%)) — \(cyclesOK ? "PASS" : "FAIL")")
        }
        return 0
    }

    static func slopePerThousand(_ points: [(Int, Int)]) -> Double {
        guard points.count >= 2 else { return 0 }
        let n = Double(points.count)
        let xs = points.map { Double($0.0) }, ys = points.map { Double($0.1) }
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        let num = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let den = xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        return den == 0 ? 0 : num / den * 1000
    }
}

extension Measure.SaveLoop {
    /// The page-side save → ack durations (ms).
    func evaluateTimes() -> [Double] {
        let session = HostSession(options: .init(url: URL(string: "about:blank")!, dialect: nil), store: .inMemory(), view: view)
        return session.evaluate("window.__webcmpTimes || []")?.arrayValue?.compactMap(\.numberValue) ?? []
    }
}
