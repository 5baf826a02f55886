import Foundation

extension CMPDialect {
    /// Gravito: handler `jsHandler`, messages `{type: "CMP-loaded" | "save" | "load" | "close"}` or the older
    /// `{event: "start" | "save" | "close"}`. The app answers the ready message with a `cookieData` post.
    public static let gravito = CMPDialect(registering: "gravito")
}

/// Gravito's in-app protocol: a ready message answered with the stored record (`cookieData`), a configuration
/// message with the page's config version, saves that always carry the page's own non-TCF data, and a close message
/// that ends the UI (a save alone does not). Privacy settings: the ``PrivacySettingsOpener/layerQueryItem``
/// convention; the protocol has no UI message, so in settings mode the page's TCF/GPP API gives the evidence
/// (``DialectDetection``).
struct GravitoDialect: MessageDialect {
    init() {}

    var dialect: CMPDialect { .gravito }
    var handlerName: String { "jsHandler" }
    var answersReadyWithStoredRecord: Bool { true }
    var userSaveEndsUI: Bool { false }

    func decode(_ fields: MessageFields) throws(InboundMessageError) -> CMPMessage {
        if let type = try fields.string("type") {
            switch type.lowercased() {
            case "cmp-loaded": return .ready
            case "load": return .configurationLoaded(configVersion: try fields.text("configversion"))
            case "close": return .close
            case "save": return .save(try payload(fields, tcStringFields: ["tcstring"]))
            default: throw .unknownMessageType(type)
            }
        }
        if let event = try fields.string("event") {
            switch event.lowercased() {
            case "start": return .ready
            case "close": return .close
            case "save": return .save(try payload(fields, tcStringFields: ["tcstring", "data"]))
            default: throw .unknownMessageType(event)
            }
        }
        throw .unknownMessageType(nil)
    }

    private func payload(_ fields: MessageFields, tcStringFields: [String]) throws(InboundMessageError) -> ConsentPayload {
        let tcString = try fields.nonEmptyString(anyOf: tcStringFields)
        let strings = ConsentStrings(
            tcString: tcString,
            additionalConsent: try fields.nonEmptyString(anyOf: "acString", "acstring"),
            gppString: try fields.nonEmptyString(anyOf: "gppstring", "gppString"),
            gppApplicableSections: try fields.ids("applicableSections")?.sorted,
            usPrivacy: try fields.nonEmptyString(anyOf: "uspstring", "usPrivacy"))
        if strings.tcString == nil, strings.gppString == nil {
            throw .missingField(tcStringFields.joined(separator: "' or '"))
        }
        return ConsentPayload(
            strings: strings,
            extras: Extras(
                nonTCFData: try fields.nonTCFData("nontcfdata"), configVersion: try fields.text("configversion"),
                isRejectAll: try fields.bool("isRejectAll")))
    }
}
