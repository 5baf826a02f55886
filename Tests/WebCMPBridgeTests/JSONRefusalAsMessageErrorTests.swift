import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// A page's message refused by the parser reaches the bridge as ``InboundMessageError/json(_:)`` with the parser's
/// refusal underneath (one list of cases, not a copy).
@Suite struct JSONRefusalAsMessageErrorTests {
    @Test(arguments: [
        JSONInputError.tooLarge(bytes: 12, limit: 10), .tooDeep(limit: 8), .stringTooLong(bytes: 17, limit: 16),
        .tooManyElements(count: 5, limit: 4), .malformedJSON(reason: "x", offset: 3), .unsupportedValue("NSObject"),
    ])
    func everyParserRefusalIsKeptUnderneath(_ refusal: JSONInputError) {
        let error = InboundMessageError.json(refusal)
        #expect(error.description == "message body refused: \(refusal)")
        #expect(ConsentBridgeError.invalidMessage(handler: "h", error).code == .invalidMessage)
        #expect(ConsentBridgeError.invalidMessage(handler: "h", error).underlying as? InboundMessageError == error)
    }

    @Test func aMessageOverTheLimitsIsAnInboundMessageError() {
        #expect(throws: InboundMessageError.json(.tooLarge(bytes: 12, limit: 10))) {
            try JSONValue.message(parsing: "\"0123456789\"", limits: JSONLimits(maximumBytes: 10))
        }
    }
}
