import CWebKitGTK
import Foundation
import WebCMPBridge
import WebCMPHostGTK

/// `webcmp-host bench` and `webcmp-host soak`: real-engine round trips and memory over many saves.
@MainActor
enum Measure {
    /// Resident memory of this (host) process in KiB. WebKit's web content process is separate and not included.
    nonisolated static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return -1 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// KiB the C heap has handed out and not freed, over every glibc malloc arena (`malloc_info`'s totals: system
    /// bytes minus free chunks, plus mmapped chunks). This is where Swift, GLib and WebKit's UI-side objects live;
    /// JavaScriptCore's garbage-collected heap (the JS values WebKit makes of each script message in this process) is
    /// not malloc memory and shows only in the resident size.
    nonisolated static func mallocInUseKiB() -> Int {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return -1 }
        _ = malloc_info(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return -1 }
        // The totals follow the last </heap>.
        let xml = String(cString: buffer)
        guard let tail = xml.range(of: "</heap>", options: .backwards).map({ xml[$0.upperBound...] }) else { return -1 }
        func attribute(_ element: String, _ type: String, _ name: String) -> Int {
            guard let start = tail.range(of: "<\(element) type=\"\(type)\"") else { return 0 }
            let rest = tail[start.upperBound...]
            guard let key = rest.range(of: "\(name)=\""), let end = rest[key.upperBound...].firstIndex(of: "\"") else { return 0 }
            return Int(rest[key.upperBound..<end]) ?? 0
        }
        let system = attribute("system", "current", "size")
        let free = attribute("total", "fast", "size") + attribute("total", "rest", "size")
        let mmapped = attribute("total", "mmap", "size")
        return (system - free + mmapped) / 1024
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
        /// Whether to keep per-message timings (the bench does; the soak does not, so its own arrays do not grow).
        var keepsTimings = true
        private var arrival: ContinuousClock.Instant?
        /// Arrival instants of every message, to measure the full cycle natively.
        var arrivals: [ContinuousClock.Instant] = []

        init(page: URL) {
            var configuration = BridgeConfiguration(cmpURL: page, dialect: .gravito)
            configuration.readyTimeout = 30
            bridge = ConsentBridge(configuration: configuration, store: .inMemory())
            bridge.delegate = self
            bridge.attach(to: view)
            // Time stamp each message as it arrives from WebKit, before the bridge sees it.
            let forward = view.eventHandler
            view.eventHandler = { [weak self] event in
                if case .message = event {
                    self?.arrival = .now
                    if self?.keepsTimings == true { self?.arrivals.append(.now) }
                }
                forward?(event)
            }
        }

        func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) {
            switch event {
            case .uiReady: ready = true
            case .consentReady:
                if keepsTimings, let arrival { nativeMilliseconds.append(Measure.milliseconds(ContinuousClock.now - arrival)) }
                saved += 1
                onSaved?(saved)
                view.evaluateJavaScript("window.__webcmpAck && window.__webcmpAck();")
            case .error(let error), .failed(let error): errors.append(error.code.rawValue)
            default: break
            }
        }

        /// Starts the page-side loop: `count` saves and a re-injection (`CMP-loaded`) every `reinjectEvery` saves (no
        /// `close`: it ends the bridge's run, after which nothing is stored). Each save is the full Gravito `save` SampleHost itself posts (TC string,
        /// `nontcfdata`, AC string, `currentstate`, `inAppTCData`, …), alternating an accept-all and a reject-all
        /// choice, with TC strings made by SampleHost's encoder. With `minimalBodies`, only `{type, tcstring}`.
        func startLoop(count: Int, reinjectEvery: Int = 100, minimalBodies: Bool = false) {
            let script = """
                (function () {
                  var host = window.__sampleHost, h = window.webkit.messageHandlers.jsHandler;
                  var chosen = function (o) { return Object.keys(o).filter(function (k) { return o[k]; }).map(Number); };
                  var bodies = [];
                  [true, false].forEach(function (value) {
                    ['purposes', 'features', 'vendors'].forEach(function (group) {
                      Object.keys(host.state[group] || {}).forEach(function (k) { host.state[group][k] = value; });
                    });
                    var tc = host.encodeTCString();
                    bodies.push({ type: 'save', cmpType: 'tcf', tcstring: tc,
                      nontcfdata: JSON.stringify({ sampleAnalytics: value, savedBy: 'webcmp-host' }),
                      acString: value ? '2~1.35.41~dv.' : '2~~dv.1.35.41', configversion: host.config.configVersion,
                      tcstringversion: 2, isRejectAll: !value, inAppTCData: { IABTCF_TCString: tc }, googleConsents: null,
                      currentstate: JSON.stringify({ purposes: chosen(host.state.purposes), vendors: chosen(host.state.vendors) }) });
                  });
                  if (\(minimalBodies)) { bodies = bodies.map(function (b) { return { type: 'save', tcstring: b.tcstring }; }); }
                  var count = \(count), i = 0, t0 = 0;
                  window.__webcmpTimes = [];
                  var next = function () {
                    if (i === count) { window.__webcmpDone = true; return; }
                    if (i > 0 && i % \(reinjectEvery) === 0) { h.postMessage({ type: 'CMP-loaded' }); }
                    t0 = performance.now();
                    h.postMessage(bodies[i % 2]);
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
        GTKRuntime.run(until: Date().addingTimeInterval(30)) { !loop.ready && loop.bridge.state != .invalidated }
        guard loop.ready else { return nil }
        return milliseconds(ContinuousClock.now - start)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func bench(page: URL, saves: Int, json: Bool) -> Int32 {
        let cold = SaveLoop(page: page)
        guard let coldReady = loadUntilReady(cold) else { fail("the page did not become ready", code: 1) }
        cold.startLoop(count: saves, reinjectEvery: saves + 1)
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

        var rows: [(String, Double, String)] = [
            ("page: save → stored → ack, median ms (page clock, 1 ms steps)", percentile(pageTimes, 0.5), "≤ 2 ms"),
            ("page: save → stored → ack, p90 ms (page clock, 1 ms steps)", percentile(pageTimes, 0.9), "≤ 5 ms"),
            ("native: save arrival → next save arrival, median ms", percentile(cycle, 0.5), "≤ 2 ms (upper bound of the round trip)"),
            ("native: save arrival → next save arrival, p90 ms", percentile(cycle, 0.9), "≤ 5 ms"),
            ("native: message arrival → keys stored, median ms", percentile(cold.nativeMilliseconds, 0.5), "(info)"),
            ("native: message arrival → keys stored, p90 ms", percentile(cold.nativeMilliseconds, 0.9), "(info)"),
            ("load → ready, cold web view (first in process), ms", coldReady, "(reference)"),
            ("load → ready, pre-warmed web view, ms", warmReady, "≤ 30% of cold: \(warmReady <= coldReady * 0.3 ? "met" : "MISSED") (\(format(100 * warmReady / coldReady))%)"),
        ]
        rows += Prewarm.benchRows(page: page)
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

    /// One memory sample: saves so far, resident KiB, C heap in use KiB.
    struct MemorySample {
        var saves: Int
        var residentKiB: Int
        var heapKiB: Int

        static func now(_ saves: Int) -> MemorySample {
            MemorySample(saves: saves, residentKiB: Measure.residentKiB(), heapKiB: Measure.mallocInUseKiB())
        }
    }

    /// Targets of the soak. A leaked allocation per message is at least one 32-byte malloc chunk, i.e. 32 KiB per
    /// 1,000 saves; the C heap target sits below that. Resident memory also holds JavaScriptCore's collected heap.
    static let heapTrendTarget = 16.0, residentTrendTarget = 50.0
    /// The bridge's share of C heap growth per create/invalidate cycle, in KiB. A bridge kept alive after
    /// `invalidate()` (with its adapter, handlers and state, not counting the web view) measured about 8 KiB more per
    /// cycle than a released one (`--retain-bridges`); the target sits halfway. The per-pair standard error is about
    /// 1.5 KiB over 200 pairs, so this figure corroborates the exact checks (weak references, GObject finalization)
    /// rather than replacing them.
    static let cycleCostTarget = 4.0

    /// Memory growth of one kind of cycle: mean C heap and resident KiB added per cycle.
    struct CycleCost {
        var heapKiB = 0.0, residentKiB = 0.0
    }

    /// The paired cycles' result: each kind's mean cost, and the standard error of the mean per-pair C heap
    /// difference (bridge cycle − control cycle).
    struct PairedCycleCosts {
        var control: CycleCost, bridged: CycleCost
        var heapDifferenceStandardError: Double
        var bridgeShareKiB: Double { bridged.heapKiB - control.heapKiB }
    }

    /// Runs `pairs` pairs of one control cycle and one bridge cycle, alternating which of the two goes first, and
    /// returns the mean C heap and resident growth of each kind of cycle, measured around each cycle after a warm-up
    /// of a fifth of the pairs. Interleaving matters: WebKitGTK's own retention per web view is not linear over a run
    /// (a plain C program shows steps), so a block of control cycles followed by a block of bridge cycles would
    /// compare two different stretches of that curve.
    static func pairedCycleCosts(_ pairs: Int, control: () -> Void, bridged: () -> Void) -> PairedCycleCosts {
        var costs = [CycleCost(), CycleCost()], differences: [Double] = []
        let settle = { GTKRuntime.run(until: Date().addingTimeInterval(0.02)) { true } }
        for pair in 0..<pairs {
            var heapGrowth = [0.0, 0.0]
            for kind in pair % 2 == 0 ? [0, 1] : [1, 0] {
                let heap = mallocInUseKiB(), resident = residentKiB()
                if kind == 0 { control() } else { bridged() }
                settle()
                heapGrowth[kind] = Double(mallocInUseKiB() - heap)
                if pair >= pairs / 5 {
                    costs[kind].heapKiB += heapGrowth[kind]
                    costs[kind].residentKiB += Double(residentKiB() - resident)
                }
            }
            if pair >= pairs / 5 { differences.append(heapGrowth[1] - heapGrowth[0]) }
        }
        let n = Double(max(1, differences.count))
        let mean = { (cost: CycleCost) in CycleCost(heapKiB: cost.heapKiB / n, residentKiB: cost.residentKiB / n) }
        let meanDifference = differences.reduce(0, +) / n
        let variance = differences.reduce(0) { $0 + ($1 - meanDifference) * ($1 - meanDifference) } / max(1, n - 1)
        return PairedCycleCosts(control: mean(costs[0]), bridged: mean(costs[1]),
                                heapDifferenceStandardError: (variance / n).squareRoot())
    }

    static func soak(page: URL, saves: Int, cycles: Int, minimalBodies: Bool = false, retainBridges: Bool = false,
                     json: Bool) -> Int32 {
        // (a) One page session, many saves, with re-injections between them (no close: a close ends the bridge's run).
        let loop = SaveLoop(page: page)
        guard loadUntilReady(loop) != nil else { fail("the page did not become ready", code: 1) }
        loop.keepsTimings = false
        var samples: [MemorySample] = [.now(0)]
        let every = max(1, saves / 100)
        loop.onSaved = { count in if count % every == 0 { samples.append(.now(count)) } }
        loop.startLoop(count: saves, minimalBodies: minimalBodies)
        GTKRuntime.run(until: Date().addingTimeInterval(600)) { loop.saved < saves }
        let completed = loop.saved
        loop.bridge.invalidate(); loop.view.close()
        // Trends over the second half (after warm-up): least-squares slopes in KiB per 1,000 saves.
        // After a warm-up of the first fifth: the C heap's least-squares trend, and the trend of the resident peaks of
        // each quarter. Resident memory is a sawtooth (JavaScriptCore collects the message values in bursts), so its
        // peaks are what a leak would raise; a least-squares line through the sawtooth depends on where the teeth fall.
        let settled = Array(samples.drop { $0.saves < saves / 5 })
        let heapSlope = slopePerThousand(settled.map { ($0.saves, $0.heapKiB) })
        let quarter = max(1, (settled.count + 3) / 4)
        let peaks = stride(from: 0, to: settled.count, by: quarter).compactMap { start in
            settled[start..<min(settled.count, start + quarter)].max { $0.residentKiB < $1.residentKiB }
        }
        let residentSlope = slopePerThousand(peaks.map { ($0.saves, $0.residentKiB) })

        // (b) Create → load → save → invalidate cycles, each paired with a control cycle that loads the page in a bare
        // web view (no bridge): WebKitGTK itself keeps about 20 KiB of C heap per web view it ever created (a plain C
        // program shows the same), so the bridge's own cost is the difference between the two.
        var survivors = 0
        var retained: [ConsentBridge] = []
        let costs = pairedCycleCosts(cycles, control: {
            let view = GTKWebView()
            var loaded = false
            view.eventHandler = { if case .didFinishLoading = $0 { loaded = true } }
            view.load(page)
            GTKRuntime.run(until: Date().addingTimeInterval(10)) { !loaded }
            view.close()
        }, bridged: {
            weak var weakLoop: SaveLoop?, weakBridge: ConsentBridge?, weakView: GTKWebView?
            do {
                let cycle = SaveLoop(page: page)
                weakLoop = cycle; weakBridge = cycle.bridge; weakView = cycle.view
                if loadUntilReady(cycle) != nil {
                    cycle.startLoop(count: 1)
                    GTKRuntime.run(until: Date().addingTimeInterval(10)) { cycle.saved < 1 }
                }
                cycle.bridge.invalidate()
                cycle.view.close()
                if retainBridges { retained.append(cycle.bridge) }
            }
            GTKRuntime.run(until: Date().addingTimeInterval(0.02)) { true }
            survivors += [weakLoop as AnyObject?, weakBridge, weakView].compactMap { $0 }.count
        })
        withExtendedLifetime(retained) {}
        let bridgeCostPerCycle = costs.bridgeShareKiB
        let nativeAlive = GTKWebView.nativeObjectsAlive
        let cyclesOK = survivors == 0 && nativeAlive == 0 && bridgeCostPerCycle < cycleCostTarget
        let completeOK = completed == saves && loop.errors.isEmpty
        let heapOK = heapSlope < heapTrendTarget, residentOK = residentSlope < residentTrendTarget
        if json {
            print(JavaScriptLiteral.expression(.object([
                "saves": .number(Double(completed)),
                "samples": .array(samples.map { .array([.number(Double($0.saves)), .number(Double($0.residentKiB)), .number(Double($0.heapKiB))]) }),
                "heapSlopeKiBPerThousandSaves": .number(heapSlope), "residentPeakSlopeKiBPerThousandSaves": .number(residentSlope),
                "residentPeaks": .array(peaks.map { .array([.number(Double($0.saves)), .number(Double($0.residentKiB))]) }),
                "cycles": .number(Double(cycles)),
                "controlHeapKiBPerCycle": .number(costs.control.heapKiB), "bridgeHeapKiBPerCycle": .number(costs.bridged.heapKiB),
                "controlResidentKiBPerCycle": .number(costs.control.residentKiB), "bridgeResidentKiBPerCycle": .number(costs.bridged.residentKiB),
                "bridgeShareKiBPerCycle": .number(bridgeCostPerCycle),
                "bridgeShareStandardErrorKiB": .number(costs.heapDifferenceStandardError),
                "swiftObjectsSurviving": .number(Double(survivors)), "nativeObjectsAlive": .number(Double(nativeAlive)),
                "heapTrendPass": .bool(heapOK), "residentTrendPass": .bool(residentOK), "cyclesPass": .bool(cyclesOK),
                "errors": .array(loop.errors.map(JSONValue.string)),
            ])))
        } else {
            func verdict(_ ok: Bool) -> String { ok ? "PASS" : "FAIL" }
            print("webcmp-host soak: memory of the host process (WebKit's web process not included)")
            print("  (a) \(completed) of \(saves) saves in one page session (\(minimalBodies ? "minimal {type, tcstring}" : "full Gravito") save bodies, accept/reject alternating), re-injection every 100; errors: \(loop.errors.count) — \(verdict(completeOK))")
            print("      saves: resident KiB / C heap in use KiB")
            let shown = samples.enumerated().filter { $0.offset % 5 == 0 || $0.offset == samples.count - 1 }.map(\.element)
            for row in stride(from: 0, to: shown.count, by: 7) {
                print("      " + shown[row..<min(shown.count, row + 7)].map { "\($0.saves): \($0.residentKiB)/\($0.heapKiB)" }.joined(separator: "  "))
            }
            print("      C heap (all malloc arenas: Swift, GLib, WebKit's UI-side objects), trend after the first fifth: \(format(heapSlope)) KiB per 1,000 saves — target < \(Int(heapTrendTarget)) (one leaked chunk per save would be ≥ 32) — \(verdict(heapOK))")
            print("      resident peaks of each quarter after the first fifth: " + peaks.map { "\($0.residentKiB) KiB at \($0.saves)" }.joined(separator: ", "))
            print("      their trend: \(format(residentSlope)) KiB per 1,000 saves — target < \(Int(residentTrendTarget)) — \(verdict(residentOK))")
            print("  (b) \(cycles) create → load → save → invalidate → close cycles, each paired with a control cycle (bare web view: create → load → close), alternating order; means after the first fifth:")
            print("      Swift objects (bridge, adapter, loop) still alive after their cycle: \(survivors); WebKit GObjects not finalized: \(nativeAlive) — target 0 and 0")
            print("      C heap per cycle: control \(format(costs.control.heapKiB)) KiB (WebKitGTK's own), with the bridge \(format(costs.bridged.heapKiB)) KiB — the bridge's share \(format(bridgeCostPerCycle)) ± \(format(costs.heapDifferenceStandardError)) KiB (standard error), target < \(format(cycleCostTarget))")
            print("      resident per cycle: control \(format(costs.control.residentKiB)) KiB, with the bridge \(format(costs.bridged.residentKiB)) KiB; per pair \(format(costs.control.residentKiB + costs.bridged.residentKiB)) KiB against C heap per pair \(format(costs.control.heapKiB + costs.bridged.heapKiB)) KiB (resident pages go to whichever cycle touches them first) — \(verdict(cyclesOK))")
        }
        return completeOK && heapOK && residentOK && cyclesOK ? 0 : 1
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
