import Foundation
import WebCMPBridge

/// `webcmp bench`: decode and decode + key mapping of ~1,000-vendor TC strings against a plain base64url decode of
/// the same string (target ≤ 5×), and the launch-time "is consent stored" read with real `UserDefaults` (target
/// ≤ 50 µs). Medians of several timed runs after a warm-up, measured with `ContinuousClock`.
enum Bench {
    static let command = "swift run -c release webcmp bench"

    static func run(_ arguments: [String]) -> Int32 {
        let iterations: Int
        do throws(UsageError) {
            let parsed = try ParsedArguments(arguments, valueOptions: ["--iterations"], flagOptions: ["--help"])
            if parsed.flags.contains("--help") {
                print(WebCMPCommand.usage, terminator: "")
                return 0
            }
            guard parsed.positional.isEmpty else {
                throw UsageError(message: "bench takes no arguments besides --iterations N")
            }
            iterations = try parsed.integer("--iterations") ?? 20_000
            guard (10...10_000_000).contains(iterations) else {
                throw UsageError(message: "option --iterations needs a number in 10...10000000, not \(iterations)")
            }
        } catch {
            WebCMPCommand.printError(error.message)
            return 2
        }
        do {
            try measureAll(iterations: iterations)
            return 0
        } catch {
            WebCMPCommand.printError("bench failed: \(error)")
            return 1
        }
    }

    static func measureAll(iterations: Int) throws {
        #if DEBUG
        print("WARNING: debug build; the figures are only meaningful from `\(command)`.\n")
        #endif
        print("webcmp bench: \(iterations) iterations per run, median of \(runs) runs after a warm-up (\(command))")
        var decodeRatios: [Double] = []
        for (name, model) in [("bitfield", bitfieldModel()), ("range", rangeModel())] {
            let string = try model.encoded()
            let segments = string.split(separator: ".")
            let encoding = try vendorConsentEncoding(of: segments[0])
            print("\n\(name) string: \(model.vendorConsents.count) vendor consents up to id \(model.vendorConsents.max ?? 0), "
                + "\(string.utf8.count) characters, vendor consents \(encoding)-encoded")
            let floor = try median(iterations) {
                var bytes = 0
                for segment in segments { bytes &+= try Base64URL.decode(segment).count }
                return bytes
            }
            let decode = try median(iterations) { try TCString(decoding: string).vendorConsents.count }
            let consent = InAppConsent(tcString: string, gdprApplies: true, cmpSDKID: 300, cmpSDKVersion: 2)
            let decodeAndMap = try median(iterations) { try IABKeySet(mapping: consent).values.count }
            let ratio = decodeAndMap / floor
            decodeRatios.append(ratio)
            print(row("base64url decode (floor)", nanoseconds: floor, note: "Base64URL.decode of each segment"))
            print(row("decode", nanoseconds: decode, note: String(format: "%.1f× floor", decode / floor)))
            print(row(
                "decode + map", nanoseconds: decodeAndMap,
                note: String(format: "%.1f× floor; target ≤ 5×: %@", ratio, ratio <= 5 ? "met" : "MISSED")))
        }
        try launchRead(iterations: iterations)
    }

    /// The launch-time question with real `UserDefaults`: `ConsentBridge.needsConsentUI` (reads and decodes the
    /// stored record) and `ConsentStore.savedAt()` (one key).
    static func launchRead(iterations: Int) throws {
        let suite = "WebCMPBridge.bench.\(ProcessInfo.processInfo.processIdentifier)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = ConsentStore.userDefaults(suiteName: suite)
        let string = try bitfieldModel().encoded()
        let keys = try IABKeySet(mapping: InAppConsent(tcString: string, gdprApplies: true))
        try store.apply(keys, record: ConsentRecord(tcString: string, configVersion: "1", savedAt: Date()))
        let count = max(10, iterations / 10)
        let needs = median(count) { ConsentBridge.needsConsentUI(store: store) == nil ? 1 : 0 }
        let saved = median(count) { store.savedAt() == nil ? 0 : 1 }
        print("\nlaunch-time read, UserDefaults suite \(suite) holding a \(string.utf8.count)-character TC string:")
        print(row(
            "needsConsentUI", nanoseconds: needs,
            note: String(format: "target ≤ 50 µs: %@ (reads and decodes the record)", needs <= 50_000 ? "met" : "MISSED")))
        print(row(
            "ConsentStore.savedAt()", nanoseconds: saved,
            note: String(format: "target ≤ 50 µs: %@ (one key)", saved <= 50_000 ? "met" : "MISSED")))
    }

    // MARK: Test strings

    /// ~1,000 vendors, about half consented in a scattered pattern (bitfield is shorter), a quarter with legitimate
    /// interest, all 1,000 disclosed, two publisher restrictions, a PublisherTC segment.
    static func bitfieldModel() -> TCString {
        var generator = SplitMix64(seed: 2026)
        var consents = IDSet()
        var interests = IDSet()
        for id in 1...1_000 {
            if generator.next() & 1 == 1 { consents.insert(id) }
            if generator.next() & 3 == 0 { interests.insert(id) }
        }
        consents.insert(1_000)
        return model(consents: consents, interests: interests)
    }

    /// ~1,000 vendors in 25 runs (range entries are shorter).
    static func rangeModel() -> TCString {
        var consents = IDSet()
        var interests = IDSet()
        for run in 0..<25 {
            consents.insert(contentsOf: (run * 40 + 1)...(run * 40 + 30))
            if run % 2 == 0 { interests.insert(contentsOf: (run * 40 + 5)...(run * 40 + 15)) }
        }
        consents.insert(1_000)
        return model(consents: consents, interests: interests)
    }

    static func model(consents: IDSet, interests: IDSet) -> TCString {
        var disclosed = IDSet()
        disclosed.insert(contentsOf: 1...1_000)
        return TCString(
            createdDeciseconds: 17_600_000_000, lastUpdatedDeciseconds: 17_600_000_000, cmpID: 300, cmpVersion: 2,
            consentLanguage: "EN", vendorListVersion: 120, policyVersion: 5, specialFeatureOptIns: [1],
            purposeConsents: [1, 2, 3, 4, 7, 9, 10], purposeLegitimateInterests: [2, 7, 8, 9, 10],
            publisherCountryCode: "DE", vendorConsents: consents, vendorLegitimateInterests: interests,
            publisherRestrictions: [
                PublisherRestriction(purposeID: 2, restrictionType: .requireConsent, vendors: [5, 77, 800]),
                PublisherRestriction(purposeID: 7, restrictionType: .notAllowed, vendors: IDSet(100...120)),
            ],
            disclosedVendors: disclosed,
            publisherTC: PublisherTC(purposeConsents: [1, 2], purposeLegitimateInterests: [3]))
    }

    /// `IsRangeEncoding` of the vendor consent section (core segment bit 229) as a word.
    static func vendorConsentEncoding(of core: Substring) throws -> String {
        let bytes = try Base64URL.decode(core)
        guard bytes.count > 28 else { return "unknown" }
        return (bytes[28] >> 2) & 1 == 1 ? "range" : "bitfield"
    }

    // MARK: Timing

    static let runs = 7
    nonisolated(unsafe) static var sink = 0

    /// Median nanoseconds per call of `body` over ``runs`` timed runs of `iterations` calls, after a warm-up run.
    static func median(_ iterations: Int, _ body: () throws -> Int) rethrows -> Double {
        let clock = ContinuousClock()
        var total = 0
        for _ in 0..<max(1, iterations / 5) { total &+= try body() }
        var samples: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            for _ in 0..<iterations { total &+= try body() }
            let elapsed = clock.now - start
            let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            samples.append(nanoseconds / Double(iterations))
        }
        sink &+= total
        samples.sort()
        return samples[samples.count / 2]
    }

    static func row(_ label: String, nanoseconds: Double, note: String) -> String {
        let value = nanoseconds >= 10_000
            ? String(format: "%9.1f µs", nanoseconds / 1_000) : String(format: "%9.0f ns", nanoseconds)
        return "  " + label.padding(toLength: 28, withPad: " ", startingAt: 0) + value + "   " + note
    }
}

/// A small deterministic generator (SplitMix64) so every run benchmarks the same strings.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
