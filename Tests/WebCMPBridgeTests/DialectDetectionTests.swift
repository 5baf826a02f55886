import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// ``DialectDetection`` as a table: configured or automatic, the sequence of messages, and each verdict.
@Suite struct DialectDetectionTests {
    typealias Step = (dialect: CMPDialect, fixesGeneric: Bool, verdict: DialectDetection.Verdict, current: CMPDialect?)

    @Test(arguments: [
        ("configured Gravito refuses the others", CMPDialect.gravito, [
            (.gravito, false, .accept, .gravito), (.tcf, true, .reject(expected: .gravito), .gravito),
            (.onesecondbefore, false, .reject(expected: .gravito), .gravito),
        ]),
        ("automatic: a bare forwarder ready fixes nothing, consent does", nil, [
            (.tcf, false, .accept, nil), (.tcf, true, .accept, .tcf), (.tcf, false, .accept, .tcf),
        ]),
        ("automatic: an app protocol takes over from the generic dialect, then ignores the forwarder", nil, [
            (.tcf, true, .accept, .tcf), (.gravito, false, .accept, .gravito), (.tcf, true, .ignore, .gravito),
            (.onesecondbefore, false, .reject(expected: .gravito), .gravito),
        ]),
        ("automatic: Onesecondbefore first", nil, [
            (.onesecondbefore, false, .accept, .onesecondbefore), (.gravito, false, .reject(expected: .onesecondbefore), .onesecondbefore),
        ]),
        ("configured generic dialect refuses app protocols", CMPDialect.tcf, [
            (.tcf, false, .accept, .tcf), (.gravito, false, .reject(expected: .tcf), .tcf),
        ]),
    ] as [(String, CMPDialect?, [Step])])
    func table(_ name: String, configured: CMPDialect?, steps: [Step]) throws {
        var detection = DialectDetection(configured: configured)
        #expect(detection.listened.map(\.dialect) == (configured.map { [$0] } ?? CMPDialect.allCases), "\(name)")
        for (index, step) in steps.enumerated() {
            let rules = try #require(step.dialect.rules, "\(name) #\(index)")
            #expect(detection.classify(rules, isConsent: step.fixesGeneric) == step.verdict, "\(name) #\(index)")
            #expect(detection.current?.dialect == step.current, "\(name) #\(index)")
        }
    }

    /// Settings mode: an app protocol that reports no UI also listens to the forwarder, for evidence only (its
    /// messages are ignored as messages of the dialect); the generic dialect needs no second listener.
    @Test(arguments: [
        (CMPDialect.gravito, [CMPDialect.gravito, .tcf]), (.onesecondbefore, [.onesecondbefore, .tcf]), (.tcf, [.tcf]),
    ])
    func settingsModeListensToTheForwarderForEvidence(configured: CMPDialect, listened: [CMPDialect]) throws {
        var detection = DialectDetection(configured: configured, listensForUIEvidence: true)
        #expect(detection.listened.map { $0.dialect } == listened)
        let forwarder = try #require(CMPDialect.tcf.rules)
        let verdict: DialectDetection.Verdict = configured == .tcf ? .accept : .ignore
        #expect(detection.classify(forwarder, isConsent: true) == verdict)
        #expect(detection.current?.dialect == configured)
        #expect(DialectDetection(configured: configured).listened.map { $0.dialect } == [configured])
    }
}

/// ``CMPMessageDecoder`` as a table: handler, body, and the message or the typed error.
@Suite struct CMPMessageDecoderTests {
    static let decoder = CMPMessageDecoder()

    static func decode(_ handler: String, _ json: String) -> Result<CMPMessage, InboundMessageError> {
        do throws(InboundMessageError) {
            let value = try decoder.value(of: .json(json))
            return .success(try decoder.decode(handlerName: handler, body: value).1)
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [
        ("jsHandler", #"{"type":"CMP-loaded"}"#, CMPMessage.ready),
        ("jsHandler", #""{\"type\":\"close\"}""#, .close),   // a JSON string holding the object
        ("webcmpTCF", #"{"type":"ready","api":"tcf"}"#, .ready),
        ("webcmpTCF", #"{"type":"tcf","eventStatus":"cmpuishown"}"#, .uiShown),
        ("webcmpTCF", #"{"type":"usp","uspString":"1YNN"}"#, .usPrivacy("1YNN")),
        ("webcmpTCF", #"{"type":"settings","attempt":2,"result":"refused"}"#, .settingsCall(attempt: 2, result: .refused)),
    ] as [(String, String, CMPMessage)])
    func accepted(handler: String, json: String, expected: CMPMessage) throws {
        #expect(try Self.decode(handler, json).get() == expected)
    }

    @Test(arguments: [
        ("nope", #"{"type":"close"}"#, InboundMessageError.unknownHandler("nope")),
        ("jsHandler", #"[1,2]"#, .notAnObject),
        ("webcmpTCF", #"{"type":"tcf","eventStatus":"tcloaded","gdprApplies":true}"#, .missingField("tcString")),
        ("webcmpTCF", #"{"type":"usp","uspString":"2YNN"}"#,
         .invalidField("uspString", expected: "a US Privacy string (version 1 and three of Y, N, -)")),
        ("webcmpTCF", #"{"type":"settings","attempt":1,"result":"opened"}"#,
         .invalidField("result", expected: "called, missing, threw or refused")),
        ("webcmpTCF", #"{"type":"settings","result":"called"}"#, .missingField("attempt")),
    ] as [(String, String, InboundMessageError)])
    func refused(handler: String, json: String, expected: InboundMessageError) {
        guard case .failure(let error) = Self.decode(handler, json) else {
            Issue.record("\(json) was accepted")
            return
        }
        #expect(error == expected)
    }

    /// TCData that says GDPR does not apply may come without a TC string; the payload then carries no strings.
    @Test func gdprDoesNotApplyNeedsNoTCString() throws {
        guard case .save(let payload) = try Self.decode(
            "webcmpTCF", #"{"type":"tcf","eventStatus":"tcloaded","gdprApplies":false,"tcString":""}"#).get()
        else {
            Issue.record("not a save")
            return
        }
        #expect(payload.gdprApplies == false)
        #expect(payload.strings.isEmpty)
    }
}
