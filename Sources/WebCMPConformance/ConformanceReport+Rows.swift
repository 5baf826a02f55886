import Foundation
import WebCMPBridge

extension ConformanceReport {
    /// A failure of the tool that drove the page rather than of the bridge (a click that found nothing, a run that
    /// did not finish): it counts against the page like a bridge error.
    package struct ToolFailure: Sendable, Hashable {
        /// A stable code, as ``ConsentBridgeError/Code`` has.
        package var code: String
        /// What went wrong.
        package var message: String

        /// A failure with `code` and `message`.
        package init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }
}

extension ConformanceReport.Row {
    /// The page said it is ready within `timeout` seconds; the detail names its dialect.
    package static func ready(_ events: [ConsentBridgeEvent], timeout: Double) -> Self {
        let dialect = events.lazy.compactMap(\.readyDialect).first
        return Self("ready message within \(Int(timeout)) s", dialect != nil,
                    dialect.map { "dialect: \($0.rawValue)" } ?? "no ready message")
    }

    /// The bridge rejected nothing the page sent and the tool did not fail; the detail lists the error codes. Not
    /// checked when the page sent nothing the bridge took in (no ready message, no save, no user action): there is
    /// nothing to call valid.
    package static func messagesValid(_ events: [ConsentBridgeEvent], toolFailures: [ConformanceReport.ToolFailure]) -> Self {
        let name = "messages valid"
        let codes = failures(events, toolFailures).map(\.code)
        if !codes.isEmpty { return Self(name, false, codes.joined(separator: ", ")) }
        guard events.contains(where: \.isFromPage) else { return Self(name, nil, "not checked (the page sent no message)") }
        return Self(name, true, "no rejected messages")
    }

    /// A click saved consent with a TC string (not checked without clicks or for a save without a TC string: a
    /// GPP-only or US Privacy-only save).
    package static func decodableTCString(saved: ConsentSummary?, clicked: Bool) -> Self {
        let name = "save produces a decodable TC string"
        if !clicked { return Self(name, nil, "not checked (no --click given)") }
        guard let saved else { return Self(name, false, "no valid save") }
        guard let raw = saved.tcString else { return Self(name, nil, "\(saved.kindWithoutTCString) save (no TC string)") }
        guard saved.decoded != nil || (try? TCString(decoding: raw)) != nil else {
            return Self(name, false, "the saved TC string does not decode")
        }
        return Self(name, true, String(raw.prefix(40)) + "…")
    }

    /// "TCF 2.3: disclosed vendors present": the saved TC string carries the DisclosedVendors segment that TCF 2.3
    /// requires of every TC string created on or after 2026-02-28 (``TCString/isMissingRequiredDisclosedVendors``;
    /// source and reading in `MissingDisclosedVendorsPolicy`). Fails when a string the rule applies to lacks it (the
    /// bridge stored it with a diagnostic); not checked without a save or for a GPP-only save; not required for a
    /// string created before the cut-over.
    package static func disclosedVendors(saved: ConsentSummary?) -> Self {
        let name = "TCF 2.3: disclosed vendors present"
        guard let saved else { return Self(name, nil, "not checked (no save)") }
        guard let raw = saved.tcString else { return Self(name, nil, "not checked (no TC string saved)") }
        guard let decoded = try? TCString(decoding: raw) else { return Self(name, false, "the saved TC string does not decode") }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        let created = day.string(from: decoded.created)
        let cutOver = day.string(from: TCString.disclosedVendorsRequiredSince)
        if let disclosed = decoded.disclosedVendors {
            return Self(name, true, "DisclosedVendors segment with \(disclosed.count) vendors (created \(created))")
        }
        if decoded.isMissingRequiredDisclosedVendors {
            return Self(name, false, "no DisclosedVendors segment in a string created \(created); TCF 2.3 requires it from \(cutOver)")
        }
        return Self(name, nil, "no DisclosedVendors segment; not required (created \(created), before \(cutOver))")
    }

    /// The page's `__tcfapi('ping')` answer (`nil` or `null`: absent). Absent is accepted (not checked) from a CMP
    /// whose save carried no TC string (GPP-only or US Privacy-only).
    package static func tcfapiPing(answer: JSONValue?, saved: ConsentSummary?) -> Self {
        let name = "__tcfapi answers ping"
        let absent = (answer ?? .null) == .null
        if !absent { return Self(name, true, "cmpId \(answer?["cmpId"].map(JavaScriptLiteral.expression) ?? "?")") }
        if let saved, saved.tcString == nil { return Self(name, nil, "absent (a \(saved.kindWithoutTCString) CMP)") }
        return Self(name, false, "absent")
    }

    /// The page's `__gpp('ping')` answer: required from a CMP whose save was GPP-only (its consent is the GPP
    /// string), informational otherwise (GPP is optional).
    package static func gppPing(answer: JSONValue?, saved: ConsentSummary?) -> Self {
        let name = "__gpp answers ping"
        let present = (answer ?? .null) != .null
        if saved?.isGPPOnly == true { return Self(name, present, present ? "present (a GPP-only CMP)" : "absent (a GPP-only CMP)") }
        return Self(name, nil, present ? "present" : "absent (optional)")
    }

    /// The page's `__uspapi('getUSPData')` answer (`nil` or `null`: absent); informational (US Privacy is optional and
    /// never consent on its own in the generic dialect). The detail shows the string.
    package static func uspapiAnswer(_ answer: JSONValue?) -> Self {
        let name = "__uspapi answers getUSPData"
        guard let answer, answer != .null else { return Self(name, nil, "absent (optional)") }
        let string = answer["uspString"]?.stringValue
        return Self(name, nil, string.map { "uspString " + UntrustedText.quoted($0) } ?? "present, without a uspString")
    }

    /// What `__tcfapi('getTCData')` reported as `gdprApplies`; informational.
    package static func gdprApplies(reported: JSONValue?) -> Self {
        let name = "page reports gdprApplies"
        if case .bool(let applies)? = reported { return Self(name, nil, "gdprApplies: \(applies)") }
        return Self(name, nil, "not reported (the configured value is used)")
    }

    /// Passes when a save carried a GPP string and no TC string (and was stored); informational otherwise.
    package static func gppOnlyConsent(_ events: [ConsentBridgeEvent]) -> Self {
        let name = "GPP-only consent captured"
        let saves = events.compactMap(\.savedConsent)
        if saves.contains(where: \.isGPPOnly) { return Self(name, true, "a save with a GPP string and no TC string was stored") }
        guard let save = saves.first else { return Self(name, nil, "no save") }
        return Self(name, nil, save.tcString != nil
            ? "not GPP-only (a TC string was saved)" : "not GPP-only (a \(save.kindWithoutTCString) save)")
    }

    /// A second run with the stored record injected: nothing rejected, and each string the store holds that the page
    /// reports is the stored one: the TC string (`__tcfapi('getTCData')`), the GPP string (`__gpp('ping')`) and the
    /// US Privacy string (`__uspapi('getUSPData')`).
    ///
    /// `reported` is an object with the keys `tcString`, `gppString` and `uspString`: a key is absent when the page
    /// has no such API (or it did not answer); `null` or any other value is what the API answered. A string reported
    /// differently from the stored one fails (a CMP that dropped the user's opt-out on the return visit); when the page
    /// reports none of the stored strings there is nothing to compare, and the row is not checked (unless an error
    /// fails it).
    package static func acceptsInjectedRecord(
        stored: ConsentStrings, reported: JSONValue?, events: [ConsentBridgeEvent],
        toolFailures: [ConformanceReport.ToolFailure]
    ) -> Self {
        let name = "accepts the injected record"
        let errors = failures(events, toolFailures)
        let kinds: [(label: String, key: String, stored: String?)] = [
            ("TC string", "tcString", stored.tcString),
            ("GPP string", "gppString", stored.gppString),
            ("US Privacy string", "uspString", stored.usPrivacy),
        ]
        var restored: [String] = []
        var differing: [String] = []
        for kind in kinds {
            guard let value = kind.stored, let answer = reported?[kind.key] else { continue }
            if answer == .string(value) {
                restored.append(kind.label)
            } else {
                let shown = answer.stringValue.map { UntrustedText.quoted($0) } ?? JavaScriptLiteral.expression(answer)
                differing.append("\(kind.label): the page reports \(shown), stored \(UntrustedText.quoted(value))")
            }
        }
        if !errors.isEmpty {
            return Self(name, false, "errors on re-injection: " + errors.map(\.code).joined(separator: ", "))
        }
        if !differing.isEmpty { return Self(name, false, differing.joined(separator: "; ")) }
        if restored.isEmpty {
            let storedKinds = kinds.filter { $0.stored != nil }.map(\.label)
            return Self(name, nil, storedKinds.isEmpty
                ? "not checked (nothing stored)"
                : "not checked (the page reports none of the stored \(storedKinds.joined(separator: ", ")))")
        }
        return Self(name, true, "restored the stored " + restored.joined(separator: ", "))
    }

    /// The page reopened in settings mode with the stored consent becomes ready, rejects nothing and stays open
    /// until the user acts (it does not finish on its own), and the bridge saw evidence that the CMP showed its UI
    /// (`openedBy`, ``ConsentBridge/privacySettingsOpenedBy``; otherwise the run ends with `privacySettingsNotOpened`
    /// and its reasons, which the detail prints).
    package static func privacySettings(
        _ events: [ConsentBridgeEvent], toolFailures: [ConformanceReport.ToolFailure], openedBy: String?
    ) -> Self {
        let ready = events.contains { $0.readyDialect != nil }
        let errors = failures(events, toolFailures)
        let finished = events.lazy.compactMap(\.finishReason).first
        let detail: String
        if let error = errors.first {
            detail = error.message
        } else if !ready {
            detail = "not ready in settings mode"
        } else if let finished {
            detail = "finished by itself (\(finished.rawValue))"
        } else if let openedBy {
            detail = "opened by \(openedBy) with the stored consent, stays open"
        } else {
            detail = "the CMP never showed its UI"
        }
        return Self("privacy settings on demand", ready && errors.isEmpty && finished == nil && openedBy != nil, detail)
    }

    /// With a fallback page served from `origin`: the hosted failure was reported as a diagnostic naming it, and the
    /// page became ready after that (two rows).
    package static func fallbackShown(_ events: [ConsentBridgeEvent], origin: String) -> [Self] {
        let diagnostic = events.firstIndex { $0.diagnosticMessage?.contains(origin) == true }
        let ready = events.firstIndex { $0.readyDialect != nil }
        let readyAfter = diagnostic.flatMap { diagnostic in ready.map { $0 > diagnostic } } == true
        return [
            Self("hosted failure reported, fallback shown", diagnostic != nil,
                 diagnostic == nil ? "the fallback was not loaded (did the URL fail?)" : "diagnostic names \(origin)"),
            Self("ready when served from \(origin)", readyAfter,
                 ready == nil ? "no ready message" : "ready after the fallback load"),
        ]
    }

    /// A save from the fallback page was stored with ``ConsentProvenance/Source/fallbackPage`` (`stored`: the store's record's
    /// source, `nil` when nothing is stored).
    package static func savedFromFallback(stored: ConsentProvenance.Source?) -> Self {
        Self("save stored with source fallbackPage", stored == .fallbackPage,
             stored.map { "source: \($0.rawValue)" } ?? "nothing stored")
    }

    /// After clicks, the store holds IAB keys (`count` of them); not checked without clicks.
    package static func keysWritten(count: Int, clicked: Bool) -> Self {
        Self("IAB keys written", clicked ? count > 0 : nil, "\(count) keys")
    }

    /// The bridge's errors (code and description) and then the tool's failures.
    private static func failures(
        _ events: [ConsentBridgeEvent], _ toolFailures: [ConformanceReport.ToolFailure]
    ) -> [ConformanceReport.ToolFailure] {
        events.compactMap { event in
            guard let error = event.reportedError else { return nil }
            return ConformanceReport.ToolFailure(code: error.code.rawValue, message: error.description)
        } + toolFailures
    }
}

extension ConsentBridgeEvent {
    /// The first consent the events report as saved.
    package static func firstSave(in events: [ConsentBridgeEvent]) -> ConsentSummary? {
        events.lazy.compactMap(\.savedConsent).first
    }

    /// Whether the event stems from something the page sent: a ready message, a save or a user action.
    fileprivate var isFromPage: Bool {
        switch self {
        case .uiReady, .consentReady, .userAction: return true
        default: return false
        }
    }

    fileprivate var readyDialect: CMPDialect? {
        if case .uiReady(let dialect) = self { return dialect }
        return nil
    }

    fileprivate var savedConsent: ConsentSummary? {
        if case .consentReady(let summary) = self { return summary }
        return nil
    }

    fileprivate var finishReason: UIFinishReason? {
        if case .uiFinished(let reason) = self { return reason }
        return nil
    }

    fileprivate var diagnosticMessage: String? {
        if case .diagnostic(let message) = self { return message }
        return nil
    }
}

extension ConsentSummary {
    /// A save with a GPP string and no TC string.
    fileprivate var isGPPOnly: Bool { tcString == nil && !(gppString ?? "").isEmpty }

    /// What a save without a TC string carried, for the rows' details: "GPP-only" or "US Privacy-only".
    fileprivate var kindWithoutTCString: String {
        if isGPPOnly { return "GPP-only" }
        return record.usPrivacy != nil ? "US Privacy-only" : "TC string-less"
    }
}
