import Foundation

extension CMPDialect {
    /// Any TCF v2 CMP: an injected script listens through the page's standard `__tcfapi` (and `__gpp`) and forwards
    /// its events to the handler `webcmpTCF`.
    public static let tcf = CMPDialect(registering: "tcf")
}

/// The generic dialect: the injected forwarder (``CMPScripts/tcfForwarder``) listens through the page's standard
/// `__tcfapi`, `__gpp` and `__uspapi` and posts `{type: "ready" | "tcf" | "gpp" | "usp" | "settings"}`. It runs on
/// every page, so automatic detection fixes it only by consent or a shown UI (``DialectDetection``). The CMP reports
/// its UI (`cmpuishown`, GPP `cmpDisplayStatus`), so privacy settings open on evidence (``SettingsOpening``), by
/// default through ``PrivacySettingsOpener/automatic``.
///
/// Spec: TCF CMP API v2.2 "addEventListener" and "TCData"; GPP CMP API v1.1 "addEventListener"; USP API v1.0
/// "getUSPData".
struct GenericTCFDialect: MessageDialect {
    init() {}

    var dialect: CMPDialect { .tcf }
    var handlerName: String { "webcmpTCF" }
    var userScripts: [UserScript] { [CMPScripts.tcfForwarder] }
    var isGenericListener: Bool { true }
    var reportsUIShown: Bool { true }
    var defaultSettingsOpener: PrivacySettingsOpener { .automatic }

    func decode(_ fields: MessageFields) throws(InboundMessageError) -> CMPMessage {
        guard let type = try fields.string("type") else { throw .missingField("type") }
        switch type {
        case "ready": return .ready
        case "gpp": return .gpp(try gppSignal(fields))
        case "settings":
            guard let attempt = try fields.integer("attempt", in: 0...1_000) else { throw .missingField("attempt") }
            guard let text = try fields.string("result") else { throw .missingField("result") }
            guard let result = SettingsOpening.CallResult(rawValue: text) else {
                throw .invalidField("result", expected: "called, missing, threw or refused")
            }
            return .settingsCall(attempt: attempt, result: result)
        case "usp":
            guard let usp = try fields.nonEmptyString("uspString") else { throw .missingField("uspString") }
            guard IABKeySet.isValidUSPrivacy(usp) else {
                throw .invalidField("uspString", expected: "a US Privacy string (version 1 and three of Y, N, -)")
            }
            return .usPrivacy(usp)
        case "tcf":
            guard let status = try fields.string("eventStatus") else { throw .missingField("eventStatus") }
            switch status {
            case "cmpuishown": return .uiShown
            case "tcloaded", "useractioncomplete":
                // A CMP for which GDPR does not apply answers with an empty TC string and `gdprApplies: false`.
                let gdprApplies = try fields.bool("gdprApplies")
                let tcString = try fields.nonEmptyString("tcString")
                guard tcString != nil || gdprApplies == false else { throw .missingField("tcString") }
                let cmpID = try fields.integer("cmpId", in: 0...4095)
                let cmpVersion = try fields.integer("cmpVersion", in: 0...4095)
                return .save(ConsentPayload(
                    action: status == "tcloaded" ? .reReport : .userChoice,
                    strings: ConsentStrings(
                        tcString: tcString, additionalConsent: tcString == nil ? nil : try fields.nonEmptyString("addtlConsent")),
                    gdprApplies: gdprApplies,
                    extras: cmpID.map { Extras(cmpID: $0, cmpVersion: cmpVersion) }
                ))
            default: throw .unknownMessageType("tcf/\(status)")
            }
        default: throw .unknownMessageType(type)
        }
    }

    /// A GPP event: every state field is optional but, when present, one of the values GPP CMP API v1.1 defines; a
    /// message with none of them must carry a GPP string.
    private func gppSignal(_ fields: MessageFields) throws(InboundMessageError) -> GPPSignal {
        let signal = GPPSignal(
            eventName: try fields.oneOf("eventName", GPPSignal.EventName.self),
            signalStatus: try fields.oneOf("signalStatus", GPPSignal.SignalStatus.self),
            displayStatus: try fields.oneOf("cmpDisplayStatus", GPPSignal.DisplayStatus.self),
            gppString: try fields.nonEmptyString("gppString"),
            applicableSections: try fields.ids("applicableSections")?.sorted)
        if signal.gppString == nil, signal.signalStatus == nil, signal.displayStatus == nil {
            throw .missingField("gppString")
        }
        return signal
    }
}
