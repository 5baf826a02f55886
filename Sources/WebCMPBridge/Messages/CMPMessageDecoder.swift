import Foundation

/// Turns an untrusted posted body into a typed ``CMPMessage``, dispatching on the handler and the body's type field.
///
/// Every field is type-checked; a wrong type is an ``InboundMessageError``, never a silent default. Unknown extra
/// fields are ignored. Bodies may be objects or JSON strings holding an object (both shapes are seen in the wild).
struct CMPMessageDecoder: Sendable {
    /// The caps applied to bodies.
    var limits: JSONLimits

    /// Creates a decoder.
    init(limits: JSONLimits = .default) {
        self.limits = limits
    }

    /// Validates a raw body under ``limits``: JSON text is parsed, Foundation objects are converted.
    func value(of body: ScriptMessageBody) throws(InboundMessageError) -> JSONValue {
        switch body {
        case .json(let text): return try JSONValue(parsing: text, limits: limits)
        case .foundation(let object): return try JSONValue(foundation: object, limits: limits)
        }
    }

    /// Decodes a validated body posted to `handlerName`.
    func decode(handlerName: String, body: JSONValue) throws(InboundMessageError) -> (CMPDialect, CMPMessage) {
        guard let dialect = CMPDialect(handlerName: handlerName) else { throw .unknownHandler(handlerName) }
        let object = try unwrapObject(body)
        switch dialect {
        case .gravito: return (dialect, try decodeGravito(object))
        case .onesecondbefore: return (dialect, try decodeOnesecondbefore(object))
        case .tcf: return (dialect, try decodeTCF(object))
        }
    }

    private func unwrapObject(_ body: JSONValue) throws(InboundMessageError) -> Fields {
        switch body {
        case .object(let members): return Fields(members)
        case .string(let text):
            guard case .object(let members) = try JSONValue(parsing: text, limits: limits) else { throw .notAnObject }
            return Fields(members)
        default: throw .notAnObject
        }
    }

    // MARK: Gravito

    private func decodeGravito(_ fields: Fields) throws(InboundMessageError) -> CMPMessage {
        if let type = try fields.string("type") {
            switch type.lowercased() {
            case "cmp-loaded": return .ready
            case "load": return .configurationLoaded(configVersion: try fields.text("configversion"))
            case "close": return .close
            case "save": return .save(try gravitoPayload(fields, tcStringFields: ["tcstring"]))
            default: throw .unknownMessageType(type)
            }
        }
        if let event = try fields.string("event") {
            switch event.lowercased() {
            case "start": return .ready
            case "close": return .close
            case "save": return .save(try gravitoPayload(fields, tcStringFields: ["tcstring", "data"]))
            default: throw .unknownMessageType(event)
            }
        }
        throw .unknownMessageType(nil)
    }

    private func gravitoPayload(_ fields: Fields, tcStringFields: [String]) throws(InboundMessageError) -> ConsentPayload {
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
            nonTCFData: try fields.nonTCFData("nontcfdata"),
            configVersion: try fields.text("configversion"),
            isRejectAll: try fields.bool("isRejectAll"))
    }

    // MARK: Onesecondbefore

    private func decodeOnesecondbefore(_ fields: Fields) throws(InboundMessageError) -> CMPMessage {
        guard let consentValue = fields["consent"], consentValue != .null else { throw .missingField("consent") }
        let consent: Fields
        switch consentValue {
        case .object(let members): consent = Fields(members, prefix: "consent.")
        case .string(let text):
            guard case .object(let members) = try JSONValue(parsing: text, limits: limits) else {
                throw .invalidField("consent", expected: "an object or a JSON string holding an object")
            }
            consent = Fields(members, prefix: "consent.")
        default: throw .invalidField("consent", expected: "an object or a JSON string holding an object")
        }
        guard let tcString = try consent.nonEmptyString("tcString") else { throw .missingField("consent.tcString") }
        var expiration: Date?
        if let milliseconds = try fields.number("expirationDate") {
            guard milliseconds >= 0, milliseconds < 32_503_680_000_000 else {
                throw .invalidField("expirationDate", expected: "milliseconds since 1970")
            }
            expiration = Date(timeIntervalSince1970: milliseconds / 1000)
        }
        let claimed = ClaimedChoices(
            purposeConsents: try consent.ids("purposes"),
            purposeLegitimateInterests: try consent.ids("legitimateInterests"),
            specialFeatureOptIns: try consent.ids("specialFeatures"),
            vendorConsents: try consent.ids("vendorConsents"),
            vendorLegitimateInterests: try consent.ids("vendorLegitimateInterests")
        )
        return .save(ConsentPayload(
            strings: ConsentStrings(tcString: tcString, additionalConsent: try consent.nonEmptyString("addtlConsent")),
            expirationDate: expiration,
            crossDomainUserID: try fields.text("cduid"),
            claimedChoices: claimed
        ))
    }

    // MARK: Generic TCF (our injected forwarder)

    private func decodeTCF(_ fields: Fields) throws(InboundMessageError) -> CMPMessage {
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
                    origin: status == "tcloaded" ? .loaded : .userAction,
                    strings: ConsentStrings(
                        tcString: tcString, additionalConsent: tcString == nil ? nil : try fields.nonEmptyString("addtlConsent")),
                    gdprApplies: gdprApplies,
                    cmpID: cmpID,
                    cmpVersion: cmpVersion
                ))
            default: throw .unknownMessageType("tcf/\(status)")
            }
        default: throw .unknownMessageType(type)
        }
    }

    /// A GPP event: every state field is optional but, when present, one of the values GPP CMP API v1.1 defines; a
    /// message with none of them must carry a GPP string.
    private func gppSignal(_ fields: Fields) throws(InboundMessageError) -> GPPSignal {
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

/// Typed, strict access to the members of a posted object.
private struct Fields {
    let members: [String: JSONValue]
    let prefix: String

    init(_ members: [String: JSONValue], prefix: String = "") {
        self.members = members
        self.prefix = prefix
    }

    subscript(name: String) -> JSONValue? { members[name] }

    /// A string member; absent or `null` is `nil`; any other type is an error.
    func string(_ name: String) throws(InboundMessageError) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw .invalidField(prefix + name, expected: "a string")
        }
    }

    /// A string member where `""` also means absent.
    func nonEmptyString(_ name: String) throws(InboundMessageError) -> String? {
        guard let value = try string(name), !value.isEmpty else { return nil }
        return value
    }

    /// The first non-empty string among `names`.
    func nonEmptyString(anyOf names: String...) throws(InboundMessageError) -> String? {
        try nonEmptyString(anyOf: names)
    }

    /// The first non-empty string among `names`.
    func nonEmptyString(anyOf names: [String]) throws(InboundMessageError) -> String? {
        for name in names {
            if let value = try nonEmptyString(name) { return value }
        }
        return nil
    }

    /// A string or a number written as text (version fields are sent either way).
    func text(_ name: String) throws(InboundMessageError) -> String? {
        switch members[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value.isEmpty ? nil : value
        case .number(let value)?:
            guard value.isFinite else { throw .invalidField(prefix + name, expected: "a string or a number") }
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        default: throw .invalidField(prefix + name, expected: "a string or a number")
        }
    }

    /// A number member, or a string holding a number.
    func number(_ name: String) throws(InboundMessageError) -> Double? {
        switch members[name] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        case .string(let value)?:
            guard let number = Double(value), number.isFinite else {
                throw .invalidField(prefix + name, expected: "a number")
            }
            return number
        default: throw .invalidField(prefix + name, expected: "a number")
        }
    }

    /// An integer member within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(InboundMessageError) -> Int? {
        guard let number = try number(name) else { return nil }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .invalidField(prefix + name, expected: "an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    /// A string member that must be one of `Value`'s raw values; absent or `null` is `nil`.
    func oneOf<Value: RawRepresentable & CaseIterable>(
        _ name: String, _ type: Value.Type
    ) throws(InboundMessageError) -> Value? where Value.RawValue == String {
        guard let raw = try string(name) else { return nil }
        guard let value = Value(rawValue: raw) else {
            let names = Value.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            throw .invalidField(prefix + name, expected: "one of \(names)")
        }
        return value
    }

    /// A Boolean member (also `0`/`1`, as some CMPs send).
    func bool(_ name: String) throws(InboundMessageError) -> Bool? {
        switch members[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case .number(0)?: return false
        case .number(1)?: return true
        default: throw .invalidField(prefix + name, expected: "a Boolean")
        }
    }

    /// Non-TCF data: any JSON; a JSON string holding JSON is kept as the string (it is re-injected verbatim).
    func nonTCFData(_ name: String) throws(InboundMessageError) -> JSONValue? {
        switch members[name] {
        case nil, .null?: return nil
        case .string("")?: return nil
        case let value?: return value
        }
    }

    /// A list of ids: an array of positive integers, or an object `{"1": true, "2": false}` (TCData's shape).
    func ids(_ name: String) throws(InboundMessageError) -> IDSet? {
        switch members[name] {
        case nil, .null?: return nil
        case .array(let elements)?:
            var set = IDSet()
            for element in elements {
                guard case .number(let value) = element, value >= 1, value <= Double(IDSet.maximumID),
                    value == value.rounded()
                else { throw .invalidField(prefix + name, expected: "an array of ids from 1 to 65535") }
                set.insert(Int(value))
            }
            return set
        case .object(let members)?:
            var set = IDSet()
            for (key, value) in members {
                guard let id = Int(key), id >= 1, id <= IDSet.maximumID else {
                    throw .invalidField(prefix + name, expected: "an object keyed by ids from 1 to 65535")
                }
                switch value {
                case .bool(true): set.insert(id)
                case .bool(false): break
                default: throw .invalidField(prefix + name, expected: "Boolean values")
                }
            }
            return set
        default: throw .invalidField(prefix + name, expected: "an array of ids")
        }
    }
}
