import Foundation

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

    /// The bridge rejected nothing the page sent and the tool did not fail; the detail lists the error codes.
    package static func messagesValid(_ events: [ConsentBridgeEvent], toolFailures: [ConformanceReport.ToolFailure]) -> Self {
        let codes = failures(events, toolFailures).map(\.code)
        return Self("messages valid", codes.isEmpty, codes.isEmpty ? "no rejected messages" : codes.joined(separator: ", "))
    }

    /// A click saved consent with a TC string (not checked without clicks or for a GPP-only save).
    package static func decodableTCString(saved: ConsentSummary?, clicked: Bool) -> Self {
        let name = "save produces a decodable TC string"
        if !clicked { return Self(name, nil, "not checked (no --click given)") }
        if let saved, saved.isGPPOnly { return Self(name, nil, "GPP-only save (no TC string)") }
        return Self(name, saved != nil, saved?.tcString.map { String($0.prefix(40)) + "…" } ?? "no valid save")
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

    /// The page's `__tcfapi('ping')` answer (`nil` or `null`: absent). Absent is accepted from a CMP whose save was
    /// GPP-only.
    package static func tcfapiPing(answer: JSONValue?, saved: ConsentSummary?) -> Self {
        let absent = (answer ?? .null) == .null
        let gppOnly = saved?.isGPPOnly ?? false
        return Self("__tcfapi answers ping", absent && gppOnly ? nil : !absent,
                    absent ? (gppOnly ? "absent (a GPP-only CMP)" : "absent")
                        : "cmpId \(answer?["cmpId"].map(JavaScriptLiteral.expression) ?? "?")")
    }

    /// The page's `__gpp('ping')` answer; informational (GPP is optional).
    package static func gppPing(answer: JSONValue?) -> Self {
        Self("__gpp answers ping", nil, (answer ?? .null) == .null ? "absent (optional)" : "present")
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
        return Self(name, nil, saves.isEmpty ? "no save" : "not GPP-only (a TC string was saved)")
    }

    /// A second run with the stored record injected: nothing rejected, and the page's `getTCData` answer
    /// (`restored`; `nil` or `null` when it has none) is the saved TC string.
    package static func acceptsInjectedRecord(
        saved: ConsentSummary, restored: JSONValue?, events: [ConsentBridgeEvent],
        toolFailures: [ConformanceReport.ToolFailure]
    ) -> Self {
        let expected = saved.tcString.map(JSONValue.string) ?? .null
        let clean = failures(events, toolFailures).isEmpty
        let accepted = clean && (restored == nil || restored == .null || restored == expected)
        return Self("accepts the injected record", accepted,
                    restored == expected ? "restored the stored TC string"
                        : clean ? "no errors on re-injection" : "errors on re-injection")
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
}
