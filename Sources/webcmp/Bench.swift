import Foundation
import WebCMPBridge
import WebCMPToolSupport

/// `webcmp bench`: decode and decode + key mapping of ~1,000-vendor TC strings (bitfield and range encodings)
/// against the cheapest possible pass over the same string (a minimal byte-loop base64url decode), the parse of a
/// typical posted message body, and the launch-time "is consent stored?" read with real `UserDefaults`.
///
/// Method: `ContinuousClock`; a warm-up pass, then several runs of `--iterations` operations each; the figure is
/// the median run divided by the iterations (the fastest run for the comparison with the IAB reference decoder,
/// whose own figure is its fastest run).
enum Bench {
    /// Timed pairs behind each decode + map ratio.
    static let pairedRuns = 15

    /// Target: decode + map at most this many times the floor, the minimal byte-loop base64url decode, for the
    /// 409-character bitfield string the target was set on. The range string is reported against its own floor
    /// without a target: it is half as long but maps to the same ~4,900 characters of keys (see README "Measured").
    static let mappingTargetRatio = 8.0
    /// The former target, against our own `Base64URL.decode` (printed beside the new one for comparison).
    static let formerMappingTargetRatio = 5.0
    /// Target for the launch-time reads (`needsConsentUI`, `ConsentStore.record()`), in microseconds.
    static let launchReadTargetMicroseconds = 50.0
    /// How many timed runs each figure is the median of.
    static let runs = 7

    static func run(_ arguments: [String]) -> Int32 {
        let iterations: Int
        let mappingCalls: Int?
        let sampleName: String?
        let referenceFile: String?
        let printsReferenceSamples: Bool
        do throws(UsageError) {
            let parsed = try CommandLineArguments(
                arguments, valueOptions: ["--iterations", "--mapping-only", "--sample", "--reference"],
                flagOptions: ["--help", "--reference-samples"], help: WebCMPCommand.help)
            if parsed.has("--help") {
                print(WebCMPCommand.usage, terminator: "")
                return 0
            }
            guard parsed.positional.isEmpty else {
                throw UsageError("bench takes no arguments besides its options (see webcmp --help)")
            }
            sampleName = parsed["--sample"]
            referenceFile = parsed["--reference"]
            printsReferenceSamples = parsed.has("--reference-samples")
            iterations = try parsed.integer("--iterations", in: 1...10_000_000) ?? 2_000
            mappingCalls = try parsed.integer("--mapping-only", in: 0...10_000_000)
        } catch {
            WebCMPCommand.printError(error.message)
            return 2
        }
        do {
            if printsReferenceSamples {
                try printReferenceSamples()
            } else if let mappingCalls {
                try mappingOnly(calls: mappingCalls, sample: sampleName)
            } else {
                try report(iterations: iterations, referenceFile: referenceFile)
            }
            return 0
        } catch {
            WebCMPCommand.printError("bench failed: \(error)")
            return 1
        }
    }

    private static func report(iterations: Int, referenceFile: String?) throws {
        print("webcmp bench: swift run -c release webcmp bench --iterations \(iterations)")
        #if DEBUG
        print("WARNING: debug build; figures are only meaningful with -c release")
        #endif
        print("Each figure: median of \(runs) runs x \(iterations) operations after a warm-up, ContinuousClock (against "
            + "the IAB reference: the fastest run, as the reference's own figure).")
        for sample in try samples() {
            let decode = measure(iterations) { sink &+= try decodeOnly(sample.string) }
            let commit = measure(iterations) { sink &+= try commitOnly(sample.string) }
            // Each ratio times its two operations in alternating blocks and is the median of the per-pair ratios: a
            // change of machine load between two separate measurements does not skew it.
            let (floor, mapped, ratio) = measurePaired(
                iterations, { sink &+= minimalDecode(sample.string) }, { sink &+= try decodeAndMap(sample.string) })
            let (ourDecode, _, formerRatio) = measurePaired(
                iterations, { sink &+= plainDecode(sample.string) }, { sink &+= try decodeAndMap(sample.string) })
            print("")
            print("\(sample.name): MaxVendorId 1,000, \(sample.vendorCount) vendor consents, \(sample.encoding) encoding "
                + "(checked in the string), \(sample.string.utf8.count) characters")
            print(row("byte-loop base64url decode (floor)", nanoseconds(floor),
                      "one table lookup per byte, no validation: the cheapest pass over the string"))
            print(row("Base64URL.decode (former floor)", nanoseconds(ourDecode),
                      String(format: "%.2fx floor; Base64URL.decode of each '.' segment", ourDecode / floor)))
            print(row("TCString(decoding:)", nanoseconds(decode), String(format: "%.2fx floor", decode / floor)))
            let mappingVerdict = sample.hasTarget
                ? String(format: "target <= %.0fx: %@", mappingTargetRatio, verdict(ratio <= mappingTargetRatio))
                : "no target: same keys as the bitfield string from half the characters"
            print(row("decode + IABKeySet(mapping:)", nanoseconds(mapped),
                      String(format: "%.2fx floor; ", ratio) + mappingVerdict))
            print(row("ConsentCommit (the bridge's whole transaction)", nanoseconds(commit),
                      String(format: "%.2fx floor; one decode, the rules, the keys, the record and the summary",
                             commit / floor)))
            print(row("", "", String(format: "%.2fx Base64URL.decode; former target <= %.0fx: %@", formerRatio,
                                     formerMappingTargetRatio, verdict(formerRatio <= formerMappingTargetRatio))))
            print(row("", "", "(each ratio: median of \(pairedRuns) paired runs)"))
        }
        print("")
        try referenceComparison(iterations: iterations, figures: referenceFile.map(ReferenceFigures.init(contentsOf:)))
        print("")
        try messageParse(iterations: iterations)
        print("")
        try launchRead(iterations: iterations)
        print("")
        try MainActor.assumeIsolated { try savePath(iterations: iterations) }
        if sink == 42 { print("") }  // keeps the measured work observable
    }

    // MARK: Samples

    struct Sample {
        var name: String
        var string: String
        var vendorCount: Int
        var encoding: String
        /// Whether the decode + map target applies (the bitfield string it was set on).
        var hasTarget: Bool
    }

    /// A realistic TCF 2.2 string: 1,000 vendors, restrictions, DisclosedVendors; vendor sets chosen so that the
    /// encoder picks the named encoding (dense pseudo-random ids → bitfield, a few long runs → ranges).
    static func samples() throws -> [Sample] {
        var random = SplitMix64(state: 0x5EED)
        var scattered = IDSet()
        var scatteredLI = IDSet()
        for id in 1...1_000 {
            if random.next() & 1 == 1 { scattered.insert(id) }
            if random.next() % 4 == 0 { scatteredLI.insert(id) }
        }
        scattered.insert(1_000)
        var runs = IDSet()
        var runsLI = IDSet()
        for start in stride(from: 1, through: 1_000, by: 100) {
            runs.insert(contentsOf: start...(start + 89))
            runsLI.insert(contentsOf: start...(start + 9))
        }
        runs.insert(1_000)
        var all = IDSet()
        all.insert(contentsOf: 1...1_000)
        var samples: [Sample] = []
        for (name, consents, legitimate, expected) in [
            ("bitfield string", scattered, scatteredLI, false), ("range string", runs, runsLI, true),
        ] {
            let model = TCString.model(
                createdDeciseconds: 17_300_000_000, lastUpdatedDeciseconds: 17_300_000_000, cmpID: 300, cmpVersion: 12,
                consentScreen: 1, vendorListVersion: 90, policyVersion: 5, specialFeatureOptIns: [1, 2],
                purposeConsents: IDSet(1...11), purposeLegitimateInterests: [2, 7, 8, 9, 10, 11],
                publisherCountryCode: "NL", vendorConsents: consents, vendorLegitimateInterests: legitimate,
                publisherRestrictions: [
                    PublisherRestriction(purposeID: 2, restrictionType: .requireConsent, vendors: [10, 20, 755]),
                    PublisherRestriction(purposeID: 7, restrictionType: .notAllowed, vendors: IDSet(900...950)),
                ],
                disclosedVendors: all
            )
            let string = try model.encoded()
            let isRange = try isRangeEncoded(string)
            guard isRange == expected else {
                throw BenchError("the encoder chose \(isRange ? "range" : "bitfield") encoding for the \(name)")
            }
            samples.append(Sample(name: name, string: string, vendorCount: consents.count,
                                  encoding: isRange ? "range" : "bitfield", hasTarget: !isRange))
        }
        return samples
    }

    /// Reads the vendor consent section's `IsRangeEncoding` bit (core segment bit 229: 213 fixed bits, then
    /// `MaxVendorId` (16); TC string format v2, "Vendor Consent Section").
    static func isRangeEncoded(_ string: String) throws -> Bool {
        let core = string.split(separator: ".").first ?? ""
        let bytes = try Base64URL.decode(core)
        let bit = 229
        guard bit / 8 < bytes.count else { throw BenchError("the core segment is too short") }
        return bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0
    }

    /// `PASS` or `FAIL`, beside a figure and its target.
    static func verdict(_ met: Bool) -> String { met ? "PASS" : "FAIL" }

    // MARK: Operations

    @inline(never)
    static func plainDecode(_ string: String) -> Int {
        var total = 0
        // Split on UTF-8 bytes: `String.split(separator: Character)` walks grapheme clusters and costs more than
        // the decode itself.
        for segment in string.utf8.split(separator: UInt8(ascii: ".")) {
            total &+= (try? Base64URL.decode(Substring(segment)))?.count ?? 0
        }
        return total
    }

    /// A minimal table-driven base64url decode over the UTF-8 bytes: the floor, the cheapest pass over the string
    /// that still looks at every character.
    @inline(never)
    static func minimalDecode(_ string: String) -> Int {
        var string = string
        return string.withUTF8 { utf8 in
            var bytes = [UInt8]()
            bytes.reserveCapacity(utf8.count * 3 / 4 + 1)
            var accumulator: UInt32 = 0
            var bits = 0
            for byte in utf8 {
                let value = minimalTable[Int(byte)]
                if value == 0xFF { continue }  // segment separator
                accumulator = accumulator << 6 | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                }
            }
            return bytes.count
        }
    }

    private static let minimalTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// `--mapping-only N`: builds the samples, then runs `N` decode + map calls of each and nothing else, and prints
    /// the call count. For counting heap allocations per call: the difference of two runs' totals under
    /// `valgrind --tool=dhat` (`scripts/bench --allocations`), so that the setup's allocations cancel out.
    /// `--sample NAME` (`bitfield`, `range`, or one of ``referenceSamples()``: `short`, `mid`, `wide`, `long`) runs
    /// only that string.
    private static func mappingOnly(calls: Int, sample name: String?) throws {
        var strings = try samples().map { ($0.name, $0.string) } + referenceSamples().map { ($0.name + " string", $0.string) }
        if let name {
            strings = strings.filter { $0.0 == name + " string" }
            guard !strings.isEmpty else { throw BenchError("--sample: bitfield, range, short, mid, wide or long") }
        } else {
            strings = Array(strings.prefix(2))  // the two sample strings, as before
        }
        for (_, string) in strings {
            for _ in 0..<calls { sink &+= try decodeAndMap(string) }
        }
        print("decode + map calls: \(calls * strings.count)")
    }

    @inline(never)
    static func decodeOnly(_ string: String) throws -> Int {
        try TCString(decoding: string).vendorConsents.count
    }

    @inline(never)
    static func decodeAndMap(_ string: String) throws -> Int {
        try IABKeySet(
            mapping: ConsentStrings(tcString: string), gdprApplies: true, identity: CMPIdentity(id: 300, version: 1))
            .count
    }

    @inline(never)
    static func commitOnly(_ string: String) throws -> Int {
        try ConsentCommit(
            strings: ConsentStrings(tcString: string), gdprApplies: true, previous: nil,
            rules: ConsentCommit.Rules(cmpSDKID: 300, cmpSDKVersion: 1), now: Date()
        ).keys.count
    }

    // MARK: Message parse

    /// `JSONValue(parsing:)` of a full Gravito save body, as a page posts it as JSON text.
    private static func messageParse(iterations: Int) throws {
        let body = try saveBody()
        let parsed = try JSONValue(parsing: body)
        guard parsed["tcstring"]?.stringValue?.utf8.count ?? 0 >= 400 else {
            throw BenchError("the save body did not parse back")
        }
        let time = measure(iterations) { sink &+= try parseBody(body) }
        print("Message body parse: a Gravito save body of \(body.utf8.count) bytes (a \(parsed["tcstring"]?.stringValue?.utf8.count ?? 0)-"
            + "character TC string, nested nontcfdata, escapes):")
        print(row("JSONValue(parsing:)", nanoseconds(time),
                  String(format: "%.0f MB/s (info: no target)", Double(body.utf8.count) / time * 1_000)))
    }

    @inline(never)
    static func parseBody(_ body: String) throws -> Int {
        guard case .object(let members) = try JSONValue(parsing: body) else { return 0 }
        return members.count
    }

    /// A full Gravito save body: the 409-character bitfield TC string, an Additional Consent string and Gravito-style
    /// `nontcfdata` (20 consents with vendor lists, names with quotes and slashes that JSON escapes), as JSON text.
    static func saveBody() throws -> String {
        guard let sample = try samples().first else { throw BenchError("no sample") }
        var consents: [JSONValue] = []
        for id in 1...20 {
            let name = "Purpose \(id): \"Ads/Measurement\" (ünïcode)"
            let vendors: [JSONValue] = (0..<4).map { offset in .number(Double(id * 7 + offset)) }
            let consent: [String: JSONValue] = [
                "id": .number(Double(id)), "name": .string(name), "consent": .bool(id % 3 != 0), "vendors": .array(vendors),
            ]
            consents.append(.object(consent))
        }
        let body: JSONValue = .object([
            "type": .string("save"),
            "tcstring": .string(sample.string),
            "acString": .string("2~" + (1...40).map { String($0 * 13) }.joined(separator: ".") + "~dv.9.21.81"),
            "configversion": .number(7),
            "isRejectAll": .bool(false),
            "nontcfdata": .object(["version": .number(3), "updated": .number(1_764_000_000_000),
                                   "consents": .array(consents)]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(body), as: UTF8.self)
    }

    // MARK: Launch read

    private static func launchRead(iterations: Int) throws {
        let suite = "WebCMPBridge.bench." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = ConsentStore.userDefaults(suiteName: suite)
        guard let sample = try samples().first else { return }
        let keys = try IABKeySet(
            mapping: ConsentStrings(tcString: sample.string), gdprApplies: true, identity: CMPIdentity(id: 300))
        try store.apply(checking: keys, record: ConsentRecord(
            strings: ConsentStrings(tcString: sample.string), nonTCFData: nonTCFData,
            expirationDate: Date().addingTimeInterval(86_400 * 365), configVersion: "7", savedAt: Date()),
            provenance: ConsentProvenance(.cmpPage, .userChoice))
        guard store.record() != nil else { throw BenchError("the stored record did not read back") }
        guard store.record()?.nonTCFData == nonTCFData else { throw BenchError("the non-TCF data did not read back") }
        let now = Date()
        let figures: [(String, Double)] = [
            ("ConsentBridge.needsConsentUI", measure(iterations) {
                sink &+= ConsentBridge.needsConsentUI(store: store, now: now) == nil ? 0 : 1
            }),
            ("ConsentStore.record(includingNonTCFData: false)", measure(iterations) {
                sink &+= store.record(includingNonTCFData: false)?.savedAt == nil ? 0 : 1
            }),
            ("ConsentStore.record()", measure(iterations) { sink &+= store.record()?.savedAt == nil ? 0 : 1 }),
        ]
        print("Launch-time \"consent stored?\" read, real UserDefaults (suite \(suite)); the record holds a "
            + "\(sample.string.utf8.count)-character TC string and Gravito-style non-TCF data of 20 consents:")
        for (name, value) in figures {
            let micro = value / 1_000
            print(row(name, String(format: "%.2f µs", micro),
                      String(format: "target <= %.0f µs: %@", launchReadTargetMicroseconds,
                             verdict(micro <= launchReadTargetMicroseconds))))
        }
    }

    /// Gravito-style `nontcfdata`: 20 non-TCF consents with ids, names and choices.
    private static let nonTCFData: JSONValue = .object([
        "version": .number(3),
        "consents": .array((1...20).map { id in
            .object(["id": .number(Double(id)), "name": .string("Purpose \(id)"), "consent": .bool(id % 3 != 0)])
        }),
    ])

    // MARK: Timing

    nonisolated(unsafe) static var sink = 0

    /// Median nanoseconds per operation.
    static func measure(_ iterations: Int, _ operation: () throws -> Void) -> Double {
        measureRuns(iterations, operation).median
    }

    /// Nanoseconds per operation of the fastest and of the median of ``runs`` runs (after a warm-up). The fastest is
    /// the figure compared with the IAB reference decoder's, which `scripts/bench-reference` takes as its fastest
    /// run: the same statistic on both sides.
    static func measureRuns(
        _ iterations: Int, _ operation: () throws -> Void
    ) -> (fastest: Double, median: Double) {
        for _ in 0..<max(1, iterations / 10) { try? operation() }
        let times = (0..<runs).map { _ in timeBlock(iterations, operation) }.sorted()
        return (times[0], times[times.count / 2])
    }

    /// Nanoseconds per operation over one block of `iterations` operations.
    private static func timeBlock(_ iterations: Int, _ operation: () throws -> Void) -> Double {
        let elapsed = ContinuousClock().measure { for _ in 0..<iterations { try? operation() } }
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(iterations)
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// Times `first` and `second` in alternating blocks of `iterations` operations (`pairedRuns` pairs, the order
    /// swapped every pair, after a warm-up) and returns the median ns per operation of each and the median of the
    /// per-pair ratios `second / first`.
    static func measurePaired(
        _ iterations: Int, _ first: () throws -> Void, _ second: () throws -> Void
    ) -> (first: Double, second: Double, ratio: Double) {
        func block(_ operation: () throws -> Void) -> Double { timeBlock(iterations, operation) }
        for _ in 0..<max(1, iterations / 10) { try? first(); try? second() }
        var firsts: [Double] = [], seconds: [Double] = [], ratios: [Double] = []
        for pair in 0..<pairedRuns {
            let a: Double, b: Double
            if pair.isMultiple(of: 2) {
                a = block(first); b = block(second)
            } else {
                b = block(second); a = block(first)
            }
            firsts.append(a); seconds.append(b); ratios.append(b / a)
        }
        return (median(firsts), median(seconds), median(ratios))
    }

    static func nanoseconds(_ value: Double) -> String {
        value >= 10_000 ? String(format: "%.2f µs", value / 1_000) : String(format: "%.0f ns", value)
    }

    static func row(_ name: String, _ value: String, _ note: String) -> String {
        "  " + name.padding(toLength: 48, withPad: " ", startingAt: 0)
            + value.padding(toLength: 12, withPad: " ", startingAt: 0) + note
    }
}

/// A bench setup failure.
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
