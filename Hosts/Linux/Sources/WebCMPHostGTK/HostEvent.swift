import Foundation
import WebCMPBridge
import WebCMPConformance

/// What a ``HostSession`` records, in order: the bridge's events and the host's own (clicks, windows opened
/// externally, the web process ended on purpose, a run that did not finish).
package enum HostEvent: Sendable, Hashable {
    /// An event the bridge reported.
    case bridge(ConsentBridgeEvent)
    /// `--click` clicked the element with this id.
    case click(id: String)
    /// `--click` could not click the element with this id.
    case clickFailed(id: String, message: String)
    /// The page opened this URL outside the web view.
    case openedExternally(URL)
    /// The host ended the web content process (`--terminate-web-process`).
    case terminateWebProcess
    /// The host's outer deadline passed before the bridge finished.
    case hostTimeout

    /// The host's own failure, counted against the page like a bridge error (``ConformanceReport/ToolFailure``).
    package var toolFailure: ConformanceReport.ToolFailure? {
        switch self {
        case .clickFailed(_, let message): return ConformanceReport.ToolFailure(code: "clickFailed", message: message)
        case .hostTimeout: return ConformanceReport.ToolFailure(code: "hostTimeout", message: "the run did not finish")
        case .bridge, .click, .openedExternally, .terminateWebProcess: return nil
        }
    }

    /// The code of a failure: the bridge's ``ConsentBridgeError/Code`` or the host's own (``toolFailure``).
    package var failureCode: String? {
        if case .bridge(let event) = self, let error = event.reportedError { return error.code.rawValue }
        return toolFailure?.code
    }

    /// The event as the JSON object the host prints: a `"type"` and its fields.
    package var json: [String: JSONValue] {
        switch self {
        case .bridge(let event): return HostEvent.json(for: event)
        case .click(let id): return ["type": .string("click"), "id": .string(id)]
        case .clickFailed(let id, let message):
            return ["type": .string("error"), "id": .string(id), "code": .string("clickFailed"), "message": .string(message)]
        case .openedExternally(let url): return ["type": .string("openedExternally"), "url": .string(url.absoluteString)]
        case .terminateWebProcess: return ["type": .string("terminateWebProcess")]
        case .hostTimeout:
            return ["type": .string("error"), "code": .string("hostTimeout"), "message": .string("the run did not finish")]
        }
    }

    /// A bridge event as the JSON object the host prints, also for commands that drive a bridge without a session
    /// (a pre-warmed bridge).
    package static func json(for event: ConsentBridgeEvent) -> [String: JSONValue] {
        switch event {
        case .uiReady(let dialect): return ["type": .string("uiReady"), "dialect": .string(dialect.rawValue)]
        case .userAction(let rejectAll):
            return ["type": .string("userAction"), "isRejectAll": rejectAll.map(JSONValue.bool) ?? .null]
        case .consentReady(let summary):
            func ids(_ set: IDSet) -> JSONValue { .array(set.map { .number(Double($0)) }) }
            return [
                "type": .string("consentReady"),
                "tcString": summary.tcString.map(JSONValue.string) ?? .null,
                "purposeConsents": ids(summary.purposeConsents),
                "vendorConsents": ids(summary.vendorConsents),
                "specialFeatureOptIns": ids(summary.specialFeatureOptIns),
                "gppString": summary.gppString.map(JSONValue.string) ?? .null,
            ]
        case .uiFinished(let reason): return ["type": .string("uiFinished"), "reason": .string(reason.rawValue)]
        case .trackingAuthorization(let status): return ["type": .string("trackingAuthorization"), "status": .string(status.rawValue)]
        case .diagnostic(let message): return ["type": .string("diagnostic"), "message": .string(message)]
        case .error(let error): return json(for: error, endsUI: false)
        case .failed(let error): return json(for: error, endsUI: true)
        }
    }

    /// A bridge error as JSON: its stable code, and for a consent failure the consent module's code as
    /// `"consentCode"` (`invalidTCString`, `missingDisclosedVendors` …).
    private static func json(for error: ConsentBridgeError, endsUI: Bool) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "type": .string("error"), "code": .string(error.code.rawValue), "message": .string(error.description),
            "endsUI": .bool(endsUI),
        ]
        if let consent = error.consentError { object["consentCode"] = .string(consent.code.rawValue) }
        return object
    }
}
