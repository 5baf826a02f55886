// The toy dialect of the DocC article AddingADialect.md, pasted verbatim: the article's ```swift blocks are checked
// against this file by DocumentationSamplesTests (the samples use internal names, hence a file of its own with
// `@testable import`, which DocumentationSamples.swift must not have). To change a sample: change it in the article
// and here.
import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

// MARK: The article's samples

extension CMPDialect {
    /// Toy: handler `toyCmp`, messages `{kind: "ready" | "consent" | "done", tc}`.
    public static let toy = CMPDialect(registering: "toy")
}

/// Toy's in-app protocol: a ready message, the user's choice (`{kind: "consent", tc}`), which ends the UI, and
/// `{kind: "done"}` when the user closes the banner without choosing. No script is injected, the protocol gives no UI
/// signal (in settings mode its page's TCF/GPP API gives the evidence), and settings open with the `layer=settings`
/// query item: the protocol's defaults.
struct ToyDialect: MessageDialect {
    var dialect: CMPDialect { .toy }
    var handlerName: String { "toyCmp" }

    func decode(_ fields: MessageFields) throws(InboundMessageError) -> CMPMessage {
        guard let kind = try fields.string("kind") else { throw .missingField("kind") }
        switch kind {
        case "ready": return .ready
        case "consent":
            guard let tcString = try fields.nonEmptyString("tc") else { throw .missingField("tc") }
            return .save(ConsentPayload(strings: ConsentStrings(tcString: tcString)))
        case "done": return .close
        default: throw .unknownMessageType(kind)
        }
    }
}

/// `DialectRegistry.all` as the article shows it, with the toy's line.
enum ToyRegistry {
    static let all: [any MessageDialect] = [
        GravitoDialect(),
        OnesecondbeforeDialect(),
        GenericTCFDialect(),
        ToyDialect(),
    ]
}

/// The toy's decoder table: every shape the page may post, and the message or the typed error.
@Suite struct ToyDialectDecodingTests {
    static func decode(_ json: String) -> Result<CMPMessage, InboundMessageError> {
        let decoder = CMPMessageDecoder(dialects: [ToyDialect()])
        do throws(InboundMessageError) {
            return .success(try decoder.decode(handlerName: "toyCmp", body: decoder.value(of: .json(json))).1)
        } catch {
            return .failure(error)
        }
    }

    @Test(arguments: [
        (#"{"kind":"ready"}"#, .success(.ready)),
        (#"{"kind":"consent","tc":"CQ…"}"#, .success(.save(ConsentPayload(strings: ConsentStrings(tcString: "CQ…"))))),
        (#"{"kind":"done","extra":[1,2]}"#, .success(.close)),
        (#"{}"#, .failure(.missingField("kind"))),
        (#"{"kind":7}"#, .failure(.invalidField("kind", expected: "a string"))),
        (#"{"kind":"consent","tc":""}"#, .failure(.missingField("tc"))),
        (#"{"kind":"consent","tc":42}"#, .failure(.invalidField("tc", expected: "a string"))),
        (#"{"kind":"dance"}"#, .failure(.unknownMessageType("dance"))),
        (#"["ready"]"#, .failure(.notAnObject)),
    ] as [(String, Result<CMPMessage, InboundMessageError>)])
    func decodes(json: String, expected: Result<CMPMessage, InboundMessageError>) {
        #expect(Self.decode(json) == expected)
    }
}

// MARK: The toy in the kit

extension ToyDialectDecodingTests {
    /// A body as a JSON string holding the object, the other shape seen in the wild, decodes the same.
    @Test func aJSONStringHoldingTheObjectDecodesTheSame() {
        #expect(Self.decode(#""{\"kind\":\"done\"}""#) == .success(.close))
    }

    /// The decoder knows only the dialects it is given: the toy's handler is no Gravito handler.
    @Test func anotherHandlerIsNotTheToys() {
        let decoder = CMPMessageDecoder(dialects: [ToyDialect()])
        #expect(throws: InboundMessageError.unknownHandler("jsHandler")) {
            try decoder.decode(handlerName: "jsHandler", body: .object(["kind": .string("ready")]))
        }
    }

    /// The article's registry sample ends with the toy's line (it is not compared with the kit's registry, so that
    /// adding a real dialect stays one file and one line).
    @Test func theArticlesRegistryEndsWithTheToy() {
        #expect(ToyRegistry.all.last?.dialect == .toy)
        // The toy is not registered in the kit: apps cannot name it.
        #expect(CMPDialect(rawValue: "toy") == nil)
    }
}

/// The toy in ``BridgeMachine``: what each message makes the bridge do, with the real ``ConsentCommit`` run between
/// the commit effect and its answer, as ``ConsentBridge``'s runner does.
@Suite struct ToyDialectMachineTests {
    static let pageOrigin = "https://cmp.example.com"
    static let configuration = BridgeConfiguration(cmpURL: URL(string: "\(pageOrigin)/toy.html")!)

    static func toyMessage(_ json: String) -> BridgeMachine.Input {
        .webView(.message(ScriptMessage(
            handlerName: "toyCmp", body: .json(json), isMainFrame: true, origin: pageOrigin)))
    }

    /// A machine that detects the dialect among the kit's and the toy, attached and started, with the toy's page
    /// ready.
    static func readyMachine() throws -> BridgeMachine {
        var machine = BridgeMachine(configuration: configuration, renewalReason: nil, dialects: ToyRegistry.all)
        #expect(machine.handlerNames == ["jsHandler", "osbCmpMessageHandler", "webcmpTCF", "toyCmp"])
        #expect(machine.handle(.attached(setupFailure: nil)) == [])
        let started = machine.handle(.start(trackingStatus: .notDetermined))
        #expect(started.first == .schedule(.ready, seconds: configuration.readyTimeout))
        let load = try #require(started.last)
        guard case .load(let url, _) = load else {
            Issue.record("the run starts with a load, not \(load)")
            return machine
        }
        #expect(url == configuration.resolvedURL)
        #expect(machine.dialect == nil)
        #expect(machine.handle(toyMessage(#"{"kind":"ready"}"#)) == [.cancel(.ready), .report(.uiReady(.toy))])
        #expect(machine.dialect == .toy)
        #expect(machine.state == .ready)
        return machine
    }

    @Test func aConsentMessageIsCommittedAnnouncedAndEndsTheUIAfterTheFinishDelay() throws {
        var machine = try Self.readyMachine()
        let store = ConsentStore.inMemory()

        let effects = machine.handle(Self.toyMessage(#"{"kind":"consent","tc":"\#(TestStrings.acceptAll)"}"#))
        let effect = try #require(effects.count == 1 ? effects.first : nil, "one commit effect, not \(effects)")
        guard case .store(let save) = effect else {
            Issue.record("a consent message is stored, not \(effect)")
            return
        }
        #expect(save.record.strings == ConsentStrings(tcString: TestStrings.acceptAll))
        #expect(save.record.source == .cmpPage)
        #expect(save.provenance == ConsentProvenance(.cmpPage, .userChoice))

        // The runner's `write(_:)`: the save, as the machine made it, into the store.
        try store.apply(save.keys, record: save.record, provenance: save.provenance, details: save.details, now: save.now)
        #expect(store.iabKeys()["IABTCF_TCString"] == .string(TestStrings.acceptAll))

        let answered = machine.handle(.storeAnswered(save.id, nil, trackingStatus: .notDetermined))
        let commit = ConsentSummary(record: save.record, decoded: try TCString(decoding: TestStrings.acceptAll))
        #expect(answered == [
            .report(.userAction(isRejectAll: nil)), .report(.consentReady(commit)),
            .schedule(.finishDelay, seconds: Self.configuration.finishDelay),
        ])
        #expect(commit.decoded?.purposeConsents == IDSet(1...11))

        #expect(machine.handle(.timerFired(.finishDelay)) == [.report(.uiFinished(.consentSaved)), .detach])
        #expect(machine.state == .invalidated)
    }

    @Test func doneEndsTheUIWithoutConsent() throws {
        var machine = try Self.readyMachine()
        #expect(machine.handle(Self.toyMessage(#"{"kind":"done"}"#)) == [.report(.uiFinished(.closed)), .detach])
    }

    @Test func anInvalidMessageIsReportedAndChangesNothing() throws {
        var machine = try Self.readyMachine()
        #expect(machine.handle(Self.toyMessage(#"{"kind":"consent"}"#)) == [
            .report(.error(.invalidMessage(handler: "toyCmp", .missingField("tc")))),
        ])
        #expect(machine.state == .ready)
    }

    /// Configured, the toy is the only dialect listened to: one handler, no script.
    @Test func configuredTheToyIsTheOnlyHandler() {
        var configuration = Self.configuration
        configuration.dialect = .toy
        let machine = BridgeMachine(configuration: configuration, renewalReason: nil, dialects: ToyRegistry.all)
        #expect(machine.handlerNames == ["toyCmp"])
        #expect(machine.userScripts.isEmpty)
        #expect(machine.dialect == .toy)
    }
}
