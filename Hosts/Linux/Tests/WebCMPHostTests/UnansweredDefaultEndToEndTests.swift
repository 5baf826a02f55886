import Foundation
import Testing
import WebCMPBridge

/// Issue 37 §3 in real WebKit: a GPP-only US CMP that signals its default as ready while its banner shows. The signal
/// is stored (ad SDKs read it), but the app ended before the user acted asks again at the next launch
/// (`.notAnswered`); the same CMP that never shows a banner is answered by its signal.
@Suite(.serialized, .needsDisplay) struct UnansweredDefaultEndToEndTests {
    typealias E2E = EndToEndTests
    static var page: String { E2E.servers.0 + "/\(E2E.pages)/gpp-us-cmp.html?default=usnat" }

    /// What `needsConsentUI` says at the next launch over the record a run left in `state` (`defaults.json`).
    static func nextLaunch(_ state: String) throws -> (ConsentRenewalReason?, String) {
        let data = try Data(contentsOf: URL(fileURLWithPath: state).appendingPathComponent("defaults.json"))
        let object = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        let record = try #require(object["WebCMPBridge.record.v1"]?["string"]?.stringValue)
        let suite = "WebCMPHostTests." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        UserDefaults(suiteName: suite)?.set(record, forKey: "WebCMPBridge.record.v1")
        return (ConsentBridge.needsConsentUI(store: .userDefaults(suiteName: suite), migration: .disabled), record)
    }

    @Test func theBannerLeftUnansweredAsksAgainAtTheNextLaunch() async throws {
        let state = E2E.newState()
        let run = try await E2E.run([Self.page, "--state", state, "--timeout", "3"])
        #expect(run.errorCodes == [])
        #expect(run.keys["IABGPP_HDR_GppString"] == .string("DBABLA~CAAAAAAAAABA.QA"))
        #expect(run.events("userAction").isEmpty)
        let (reason, record) = try Self.nextLaunch(state)
        #expect(reason == .notAnswered, "\(record)")
        #expect(record.contains("\"action\":\"noChoiceWhileUIShown\""))
    }

    @Test func aCMPThatNeverShowsItsBannerIsAnsweredByItsSignal() async throws {
        let state = E2E.newState()
        let run = try await E2E.run([Self.page + "&ui=never", "--state", state, "--timeout", "3"])
        #expect(run.errorCodes == [])
        #expect(run.keys["IABGPP_HDR_GppString"] == .string("DBABLA~CAAAAAAAAABA.QA"))
        let (reason, record) = try Self.nextLaunch(state)
        #expect(reason == nil, "\(record)")
    }
}
