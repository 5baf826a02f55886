import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// What a dialect sends beside the shared consent (its `ConsentExtras`) and what the commit records from it: each row
/// decodes a page's message with the real dialect, commits it with the rules the bridge's configuration gives that
/// dialect over a previous record, and checks the stored record's CMP facts.
@Suite struct ConsentExtrasTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let previousData: JSONValue = .object(["previous": .bool(true)])
    static let previous = ConsentRecord(
        strings: ConsentStrings(tcString: TestStrings.rejectAll), nonTCFData: previousData,
        expirationDate: Date(timeIntervalSince1970: 1_790_000_000), crossDomainUserID: "previous-user",
        configVersion: "previous", savedAt: Date(timeIntervalSince1970: 1_770_000_000))

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var dialect: any MessageDialect
        var handlerName: String
        var body: JSONValue
        var nonTCFData: JSONValue?
        var crossDomainUserID: String?
        var configVersion: String?
        var expirationDate: Date?
        var testDescription: String { name }
    }

    static let accept = TestStrings.acceptAll

    @Test(arguments: [
        Row(
            name: "a Gravito save stores its own non-TCF data and configuration version; the cross-domain id stays",
            dialect: GravitoDialect(), handlerName: "jsHandler",
            body: .object([
                "type": .string("save"), "tcstring": .string(accept), "nontcfdata": .object(["page": .number(1)]),
                "configversion": .number(7),
            ]),
            nonTCFData: .object(["page": .number(1)]), crossDomainUserID: "previous-user", configVersion: "7"),
        Row(
            name: "a Gravito save without non-TCF data clears it (Gravito always sends its complete data)",
            dialect: GravitoDialect(), handlerName: "jsHandler",
            body: .object(["type": .string("save"), "tcstring": .string(accept)]),
            nonTCFData: nil, crossDomainUserID: "previous-user", configVersion: nil),
        Row(
            name: "a TCF CMP sends no non-TCF data: the previous record's and its cross-domain id are kept",
            dialect: GenericTCFDialect(), handlerName: "webcmpTCF",
            body: .object([
                "type": .string("tcf"), "eventStatus": .string("useractioncomplete"), "tcString": .string(accept),
            ]),
            nonTCFData: previousData, crossDomainUserID: "previous-user", configVersion: nil),
        Row(
            name: "Onesecondbefore's expiry and cross-domain user id are stored",
            dialect: OnesecondbeforeDialect(), handlerName: "osbCmpMessageHandler",
            body: .object([
                "consent": .object(["tcString": .string(accept)]), "cduid": .string("user-2"),
                "expirationDate": .number(1_800_000_000_000),
            ]),
            nonTCFData: previousData, crossDomainUserID: "user-2", configVersion: nil,
            expirationDate: Date(timeIntervalSince1970: 1_800_000_000)),
        Row(
            name: "an Onesecondbefore message without them keeps the cross-domain id and has no expiry",
            dialect: OnesecondbeforeDialect(), handlerName: "osbCmpMessageHandler",
            body: .object(["consent": .object(["tcString": .string(accept)])]),
            nonTCFData: previousData, crossDomainUserID: "previous-user", configVersion: nil),
    ])
    func theRecordHoldsWhatTheDialectSent(_ row: Row) throws {
        let commit = try Self.commit(row.body, handlerName: row.handlerName, dialect: row.dialect)
        #expect(commit.record.nonTCFData == row.nonTCFData)
        #expect(commit.record.crossDomainUserID == row.crossDomainUserID)
        #expect(commit.record.configVersion == row.configVersion)
        #expect(commit.record.expirationDate == row.expirationDate)
        #expect(commit.summary.expirationDate == row.expirationDate)
    }

    @Test func onesecondbeforesClaimedChoicesThatDisagreeAreADiagnostic() throws {
        let body: JSONValue = .object([
            "consent": .object(["tcString": .string(Self.accept), "purposes": .array([.number(1)])]),
        ])
        let commit = try Self.commit(body, handlerName: "osbCmpMessageHandler", dialect: OnesecondbeforeDialect())
        #expect(commit.diagnostics == [
            "the payload's purposes disagree with its TC string; the TC string was stored",
        ])
        let agreeing: JSONValue = .object([
            "consent": .object([
                "tcString": .string(Self.accept), "purposes": .array((1...11).map { .number(Double($0)) }),
            ]),
        ])
        #expect(try Self.commit(agreeing, handlerName: "osbCmpMessageHandler", dialect: OnesecondbeforeDialect())
            .diagnostics.isEmpty)
    }

    @Test func gravitosRejectAllIsReportedNotStored() throws {
        let message = try Self.decode(
            .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll), "isRejectAll": .bool(true)]),
            handlerName: "jsHandler", dialect: GravitoDialect())
        guard case .save(let payload) = message else { throw Failure("not a save: \(message)") }
        #expect(payload.isRejectAll == true)
        let tcf = try Self.decode(
            .object([
                "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
                "tcString": .string(TestStrings.rejectAll),
            ]),
            handlerName: "webcmpTCF", dialect: GenericTCFDialect())
        guard case .save(let tcfPayload) = tcf else { throw Failure("not a save: \(tcf)") }
        #expect(tcfPayload.isRejectAll == nil, "a dialect that does not say has no opinion")
    }

    /// A message decoded by `dialect`, as the bridge's decoder gives it.
    static func decode(_ body: JSONValue, handlerName: String, dialect: any MessageDialect) throws -> CMPMessage {
        try CMPMessageDecoder(dialects: [dialect]).decode(handlerName: handlerName, body: body).1
    }

    /// The commit of `body`, decoded by `dialect`, under the rules the bridge's configuration gives that dialect,
    /// over ``previous``.
    static func commit(_ body: JSONValue, handlerName: String, dialect: any MessageDialect) throws -> ConsentCommit {
        let message = try decode(body, handlerName: handlerName, dialect: dialect)
        guard case .save(let payload) = message else { throw Failure("not a save: \(message)") }
        let configuration = BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com")!)
        return try ConsentCommit(
            payload: payload, previous: previous,
            rules: configuration.commitRules(pageConfigVersion: nil), now: now)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// The CMP SDK id and version: resolved once by the commit (``CMPIdentity``), written to the keys, and read back from
/// them by everything that reports it (sharing, history, reject all).
@Suite struct CMPIdentityTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var payload: ConsentPayload
        var rules: ConsentCommit.Rules
        var expected: CMPIdentity
        var testDescription: String { name }
    }

    /// `TestStrings` are written by CMP 300, version 2.
    @Test(arguments: [
        Row(
            name: "the app's configured id, with its version or none",
            payload: ConsentPayload(
                strings: ConsentStrings(tcString: TestStrings.acceptAll),
                extras: GenericTCFDialect.Extras(cmpID: 10, cmpVersion: 4)),
            rules: ConsentCommit.Rules(cmpSDKID: 77), expected: CMPIdentity(id: 77, version: nil)),
        Row(
            name: "else the id the page reported, with its version",
            payload: ConsentPayload(
                strings: ConsentStrings(tcString: TestStrings.acceptAll),
                extras: GenericTCFDialect.Extras(cmpID: 10, cmpVersion: 4)),
            rules: ConsentCommit.Rules(), expected: CMPIdentity(id: 10, version: 4)),
        Row(
            name: "else the TC string's, a configured version replacing its own",
            payload: ConsentPayload(strings: ConsentStrings(tcString: TestStrings.acceptAll)),
            rules: ConsentCommit.Rules(cmpSDKVersion: 9), expected: CMPIdentity(id: 300, version: 9)),
        Row(
            name: "GPP-only consent without a configured id names no CMP",
            payload: ConsentPayload(strings: ConsentStrings(gppString: "DBABLA~BVQqAAAAAgA.QA")),
            rules: ConsentCommit.Rules(), expected: CMPIdentity(id: nil, version: nil)),
    ])
    func theCommitResolvesItOnceAndTheKeysCarryIt(_ row: Row) throws {
        let commit = try ConsentCommit(payload: row.payload, previous: nil, rules: row.rules, now: Self.now)
        #expect(commit.identity == row.expected)
        #expect(commit.keys.keySet.cmpIdentity == row.expected)
    }

    @Test func aGPPTCFSectionOtherThanTheTCStringCarriesTheCommitsIdentity() throws {
        let other = TestStrings.rejectAll
        let strings = ConsentStrings(tcString: TestStrings.acceptAll, gppString: "DBABMA~" + other)
        let commit = try ConsentCommit(
            payload: ConsentPayload(strings: strings, extras: GenericTCFDialect.Extras(cmpID: 10, cmpVersion: 4)),
            previous: nil, rules: ConsentCommit.Rules(), now: Self.now)
        #expect(commit.keys["IABGPP_TCFEU2_CmpSdkID"] == .int(10))
        #expect(commit.keys["IABGPP_TCFEU2_CmpSdkVersion"] == .int(4))
    }

    @Test func gppOnlyConsentsTCFSectionNamesItsOwnCMPInTheMirrorKeys() throws {
        let commit = try ConsentCommit(
            payload: ConsentPayload(strings: ConsentStrings(gppString: "DBABMA~" + TestStrings.acceptAll)),
            previous: nil, rules: ConsentCommit.Rules(), now: Self.now)
        #expect(commit.identity == CMPIdentity(id: nil, version: nil))
        #expect(commit.keys["IABGPP_TCFEU2_CmpSdkID"] == .int(300))
        #expect(commit.keys["IABGPP_TCFEU2_CmpSdkVersion"] == .int(2))
        #expect(commit.keys[.cmpSDKID] == nil, "no IABTCF_* key without a TC string")
    }

    @Test func historyAndRejectAllReadTheIdentityTheKeysCarry() throws {
        let store = ConsentStore.inMemory()
        let commit = try ConsentCommit(
            payload: ConsentPayload(
                strings: ConsentStrings(tcString: TestStrings.acceptAll),
                extras: GenericTCFDialect.Extras(cmpID: 10, cmpVersion: 4)),
            previous: nil, rules: ConsentCommit.Rules(), now: Self.now)
        try store.apply(commit.keys, record: commit.record, provenance: ConsentProvenance(.cmpPage, .userChoice), now: Self.now)
        #expect(store.consentHistory().last?.cmpID == 10)
        #expect(store.consentHistory().last?.cmpVersion == 4)
        _ = try store.rejectAll(now: Self.now.addingTimeInterval(60))
        #expect(store.iabKeys().cmpIdentity == CMPIdentity(id: 10, version: 4), "reject all keeps the CMP named")
    }
}

/// The summary an app is told about is the record the store keeps, with its TC string decoded.
@Suite struct ConsentSummaryLayeringTests {
    @Test func theSummaryIsTheRecordTheStoreReadsBack() throws {
        let store = ConsentStore.inMemory()
        let commit = try ConsentCommit(
            payload: ConsentPayload(
                strings: ConsentStrings(tcString: TestStrings.analyticsOnly),
                extras: GravitoDialect.Extras(nonTCFData: .object(["a": .number(1)]), configVersion: "3")),
            previous: nil, rules: ConsentCommit.Rules(), now: Date(timeIntervalSince1970: 1_780_000_000))
        try store.apply(commit.keys, record: commit.summary.record)
        #expect(store.record() == commit.summary.record)
        #expect(commit.summary.purposeConsents == [1, 8, 9])
        #expect(commit.summary.decoded == (try TCString(decoding: TestStrings.analyticsOnly)))
    }

    @Test func aMigratedRecordIsDatedByItsTCString() throws {
        let store = ConsentStore(storage: .inMemory([IABKey.tcString.rawValue: .string(TestStrings.acceptAll)]))
        let adopted = try #require(store.migrateIfNeeded(
            defaultSources: ConsentMigration.Source.bridgeDefaults, now: Date(timeIntervalSince1970: 1_780_000_000)))
        let lastUpdated = try TCString(decoding: TestStrings.acceptAll).lastUpdated
        #expect(adopted.savedAt == lastUpdated)
        #expect(store.record()?.savedAt == lastUpdated)
    }
}
