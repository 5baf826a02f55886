import Foundation
import WebCMPBridge
import WebCMPHostGTK

/// `webcmp-host sharing-cost [--pairs N] [--json]`: what the consent sharing scripts cost a content page, measured
/// as the page's own `DOMContentLoaded` time (`PerformanceNavigationTiming.domContentLoadedEventStart`, milliseconds
/// from the navigation's start, read by the page itself) with and without them.
///
/// Two web views load the same content page (a file with a few paragraphs, an inline script and an image-free
/// layout), one with the sharing scripts an app's content web view gets (`ConsentSharing.userScripts`: seeding, then
/// the sharing script carrying a stored record whose TC string lists 1,000 vendors, so `TCData` is as large as on a
/// real page) and one without. Each of the `N` pairs (default 200) loads both, the order alternating from pair to pair;
/// the first 5 pairs warm the engine up and are not counted. The row is the mean of the per-pair differences
/// (with − without) with its 95 % interval, against the budget of 1 ms: WebKitGTK gives navigation timing in whole
/// milliseconds, so a median of differences could only be 0, 1, 2 …; the medians are printed as a reference.
///
/// Beside it, the scripts' own parse and run time: both views run a marker script before and after the sharing
/// scripts (`performance.now()` at document start); the row is the mean, over the pairs, of the span between the
/// markers with sharing minus the span without (whole milliseconds again, so only the mean of many is meaningful),
/// and the `load` event's paired difference says what the page pays after `DOMContentLoaded`. `--with-frame` puts an
/// iframe of the page's own into the content page: the sharing script then adds its three locator frames (it adds
/// none to a page without frames, `consent-sharing.js`), and the rows say what that costs. `--long-page` makes the
/// page 4,000 paragraphs long instead of 40 (about 350 KB), so that WebKit parses it in several chunks with tasks in
/// between, as a real article arriving from the network is, rather than in one. `--tc-string-only` stores a record
/// with the TC string alone (the usual record in the EU), for which the script adds one locator frame, not three.
@MainActor
enum SharingCost {
    /// The content page: ordinary markup, a page script, and the timing it reports once `DOMContentLoaded` fired.
    static func page(withFrame: Bool, paragraphs: Int = 40) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>Article</title>
        <style>body{font:16px/1.5 sans-serif;margin:2em}article{max-width:40em}</style>
        <script>window.__pageScriptRan = true;</script></head><body><article>
        <h1>An article in the app's content web view</h1>
        \(withFrame ? "<iframe title=\"ad\" width=\"300\" height=\"250\" srcdoc=\"<p>ad</p>\"></iframe>\n" : "")\
        \(String(repeating: "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>\n", count: paragraphs))
        </article></body></html>
        """
    }

    /// The marker scripts around the sharing scripts: `performance.now()` before and after them, at document start.
    static let markers = ["window.__webcmpBefore = performance.now();", "window.__webcmpAfter = performance.now();"]
        .map { UserScript(source: $0, injectionTime: .documentStart, forMainFrameOnly: true) }

    /// One load's timing, in milliseconds from the navigation's start.
    struct Timing {
        var domContentLoaded: Double
        var load: Double
        /// The span between the two marker scripts.
        var scripts: Double
    }

    static func command(_ arguments: Arguments) -> Int32 {
        let pairs = arguments.pairs ?? 200
        let warmUp = 5
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("webcmp-sharing-cost-\(ProcessInfo.processInfo.processIdentifier).html")
        do { try Data(page(withFrame: arguments.withFrame, paragraphs: arguments.longPage ? 4000 : 40).utf8).write(to: file) } catch { fail("cannot write \(file.path): \(error)", code: 1) }
        defer { try? FileManager.default.removeItem(at: file) }

        let (record, keys) = storedConsent(tcStringOnly: arguments.tcStringOnly)
        let sharing = SharingConfiguration(contentOrigins: ["https://www.example.com"])
        let withSharing = GTKWebView(), without = GTKWebView()
        defer {
            withSharing.close()
            without.close()
        }
        withSharing.addUserScript(markers[0])
        without.addUserScript(markers[0])
        for script in ConsentSharing.userScripts(record: record, keys: keys, configuration: sharing) {
            withSharing.addUserScript(script)
        }
        withSharing.addUserScript(markers[1])
        without.addUserScript(markers[1])
        var differences: [Double] = [], withTimes: [Double] = [], withoutTimes: [Double] = []
        var scriptDifferences: [Double] = [], loadDifferences: [Double] = []
        for pair in 0..<(pairs + warmUp) {
            let order = pair.isMultiple(of: 2) ? [withSharing, without] : [without, withSharing]
            var times: [ObjectIdentifier: Timing] = [:]
            for view in order {
                guard let time = timing(view, url: file) else {
                    fail("the content page did not report DOMContentLoaded within 30 s", code: 1)
                }
                times[ObjectIdentifier(view)] = time
            }
            guard pair >= warmUp, let with = times[ObjectIdentifier(withSharing)],
                let plain = times[ObjectIdentifier(without)] else { continue }
            withTimes.append(with.domContentLoaded)
            withoutTimes.append(plain.domContentLoaded)
            differences.append(with.domContentLoaded - plain.domContentLoaded)
            scriptDifferences.append(with.scripts - plain.scripts)
            loadDifferences.append(with.load - plain.load)
        }
        // WebKitGTK reports navigation timing in whole milliseconds (observed: every value an integer), so a median
        // of differences is itself a whole number; the mean of many paired differences is not (the rounding phase
        // varies from load to load), and its 95 % interval says how well it is known.
        let (cost, interval) = meanAndInterval(differences)
        let (scripts, scriptsInterval) = meanAndInterval(scriptDifferences)
        let (load, loadInterval) = meanAndInterval(loadDifferences)
        let page = (arguments.longPage ? "long " : "") + (arguments.withFrame ? "content page with a frame" : "content page")
            + (arguments.tcStringOnly ? ", TC string only" : "")
        let rows: [(String, Double, String)] = [
            ("\(page) DOMContentLoaded, with sharing, median ms", Measure.percentile(withTimes, 0.5), "(reference)"),
            ("\(page) DOMContentLoaded, without, median ms", Measure.percentile(withoutTimes, 0.5), "(reference)"),
            ("sharing scripts' cost to DOMContentLoaded, mean of \(differences.count) paired differences, ms", cost,
             "≤ 1 ms: \(cost <= 1 ? "met" : "MISSED") (95 % interval ± \(Measure.format(interval)))"),
            ("the same, median of the paired differences, ms", Measure.percentile(differences, 0.5),
             "(whole ms: WebKitGTK's timing resolution)"),
            ("the same, p90 of the paired differences, ms", Measure.percentile(differences, 0.9), "(reference)"),
            ("the scripts' own parse + run at document start, mean paired difference, ms", scripts,
             "(95 % interval ± \(Measure.format(scriptsInterval)); performance.now() in whole ms)"),
            ("sharing scripts' cost to the load event, mean paired difference, ms", load,
             "(95 % interval ± \(Measure.format(loadInterval)))"),
        ]
        // The comparison means something only when the sharing script ran in the one view and not in the other.
        let installed = [withSharing, without].map { evaluate($0, "window.__webcmpSharing !== undefined") == .bool(true) }
        guard installed == [true, false] else {
            fail("the sharing script ran in the views as \(installed), expected [true, false]", code: 1)
        }
        if arguments.json {
            printJSON(.object([
                "sharingRanInTheViewWithSharingOnly": .bool(true),
                "withFrame": .bool(arguments.withFrame),
                "longPage": .bool(arguments.longPage),
                "tcStringOnly": .bool(arguments.tcStringOnly),
                "pairs": .number(Double(differences.count)),
                "rows": .array(rows.map { .object(["name": .string($0.0), "value": .number($0.1), "budget": .string($0.2)]) }),
            ]))
        } else {
            for (name, value, budget) in rows { print("\(name): \(Measure.format(value)) \(budget)") }
        }
        return cost <= 1 ? 0 : 1
    }

    /// The mean of `values` and its 95 % interval (normal approximation).
    static func meanAndInterval(_ values: [Double]) -> (mean: Double, interval: Double) {
        let count = Double(max(values.count, 1))
        let mean = values.reduce(0, +) / count
        let spread = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(values.count - 1, 1))
        return (mean, 1.96 * spread.squareRoot() / count.squareRoot())
    }

    /// Loads `url` in `view` and returns the page's `domContentLoadedEventStart` and `loadEventStart` (ms since the
    /// navigation started) and the span between the marker scripts.
    static func timing(_ view: GTKWebView, url: URL) -> Timing? {
        var loaded = false
        view.eventHandler = { event in if case .didFinishLoading = event { loaded = true } }
        view.load(url)
        GTKRuntime.run(until: Date().addingTimeInterval(30)) { !loaded }
        guard loaded else { return nil }
        guard case .array(let values)? = evaluate(view, """
            (function () { var n = performance.getEntriesByType('navigation')[0];
              return [n.domContentLoadedEventStart, n.loadEventStart, window.__webcmpAfter - window.__webcmpBefore]; })()
            """), values.count == 3, case .number(let contentLoaded) = values[0], case .number(let load) = values[1],
            case .number(let scripts) = values[2] else { return nil }
        return Timing(domContentLoaded: contentLoaded, load: load, scripts: scripts)
    }

    /// The value of `expression` in `view`'s page (`nil`: undefined, an error, or no answer within 5 s).
    static func evaluate(_ view: GTKWebView, _ expression: String) -> JSONValue? {
        var result: String??
        Task { @MainActor in result = .some(await view.evaluate(expression)) }
        GTKRuntime.run(until: Date().addingTimeInterval(5)) { result == nil }
        guard let text = result ?? nil else { return nil }
        return try? JSONValue(parsing: text)
    }

    /// A stored record as an app would have it: a TC string with every purpose and 1,000 vendors, a GPP string and
    /// a US Privacy string (or, with `tcStringOnly`, the TC string alone), and the keys the sharing script reads.
    static func storedConsent(tcStringOnly: Bool) -> (ConsentRecord, IABKeySet) {
        let vendors = IDSet(1...1000)
        let tcString = (try? TCString.model(
            createdDeciseconds: 17_500_000_000, lastUpdatedDeciseconds: 17_500_000_000, cmpID: 300, cmpVersion: 2,
            consentScreen: 1, vendorListVersion: 150, policyVersion: 5, isServiceSpecific: true,
            specialFeatureOptIns: [1, 2], purposeConsents: IDSet(1...11), purposeLegitimateInterests: IDSet(2...11),
            publisherCountryCode: "DE", vendorConsents: vendors, vendorLegitimateInterests: vendors,
            disclosedVendors: vendors
        ).encoded()) ?? ""
        let record = ConsentRecord(
            strings: tcStringOnly ? ConsentStrings(tcString: tcString) : ConsentStrings(
                tcString: tcString, gppString: "DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", usPrivacy: "1YNN"),
            gdprApplies: true, savedAt: Date())
        let keys = IABKeySet([
            "IABTCF_gdprApplies": .int(1), "IABTCF_CmpSdkID": .int(300), "IABTCF_CmpSdkVersion": .int(2),
        ])
        return (record, keys)
    }
}
