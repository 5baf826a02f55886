import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The native-backed `__uspapi` of the sharing script (USP API v1.0, `getUSPData`), run in Node.
extension SharingScriptTests {
    static func usp(_ script: String) -> String {
        "new Promise(r => window.__uspapi(\(script), (d, ok) => r([d, ok])))"
    }

    @Test func uspapiAnswersFromTheStoredUSPrivacyStringAndFollowsUpdates() throws {
        let record = ConsentRecord(
            strings: ConsentStrings(tcString: TestStrings.acceptAll, usPrivacy: "1YNN"),
            savedAt: Date(timeIntervalSince1970: 1))
        let updated = ConsentRecord(
            strings: ConsentStrings(tcString: TestStrings.acceptAll, usPrivacy: "1YYN"),
            savedAt: Date(timeIntervalSince1970: 2))
        let keys = try keys(TestStrings.acceptAll)
        let script = Self.page + """
            \(ConsentSharing.userScript(record: record, keys: keys).source)
            \(ConsentSharing.userScript(record: record, keys: keys).source)
            (async () => {
              const first = await \(Self.usp("'getUSPData', 1"));
              const own = window.__uspapi;
              \(ConsentSharing.updateScript(record: updated, keys: keys))
              const after = await \(Self.usp("'getUSPData', 1"));
              const unknown = await \(Self.usp("'setUSPData', 1"));
              process.stdout.write(JSON.stringify({ first, after, unknown, same: own === window.__uspapi,
                type: typeof window.__uspapi, noCallback: window.__uspapi('getUSPData', 1) === undefined }));
            })();
            """
        let output = try JSONValue(parsing: try NodeRunner.run(script))
        #expect(output["first"] == .array([.object(["version": .number(1), "uspString": .string("1YNN")]), .bool(true)]))
        #expect(output["after"] == .array([.object(["version": .number(1), "uspString": .string("1YYN")]), .bool(true)]))
        #expect(output["unknown"] == .array([.null, .bool(false)]))
        #expect(output["same"] == .bool(true))
        #expect(output["type"] == .string("function"))
        #expect(output["noCallback"] == .bool(true))
    }

    /// No stored US Privacy string: "no uspData object could be returned" (success false), not "1---", which would say
    /// US Privacy does not apply; a string stored later is answered without reloading the page.
    @Test func uspapiWithoutAStoredStringReportsNoData() throws {
        let record = ConsentRecord(
            strings: ConsentStrings(tcString: TestStrings.acceptAll), savedAt: Date(timeIntervalSince1970: 1))
        let later = ConsentRecord(
            strings: ConsentStrings(tcString: TestStrings.acceptAll, usPrivacy: "1---"),
            savedAt: Date(timeIntervalSince1970: 2))
        let keys = try keys(TestStrings.acceptAll)
        let script = Self.page + """
            \(ConsentSharing.userScript(record: nil, keys: IABKeySet()).source)
            (async () => {
              const none = await \(Self.usp("'getUSPData', 1"));
              \(ConsentSharing.updateScript(record: record, keys: keys))
              const tcfOnly = await \(Self.usp("'getUSPData', 1"));
              \(ConsentSharing.updateScript(record: later, keys: keys))
              const stored = await \(Self.usp("'getUSPData', 1"));
              process.stdout.write(JSON.stringify({ none, tcfOnly, stored }));
            })();
            """
        let output = try JSONValue(parsing: try NodeRunner.run(script))
        #expect(output["none"] == .array([.null, .bool(false)]))
        #expect(output["tcfOnly"] == .array([.null, .bool(false)]))
        #expect(output["stored"] == .array([.object(["version": .number(1), "uspString": .string("1---")]), .bool(true)]))
    }

    @Test func pageWithItsOwnUSPAPIKeepsIt() throws {
        let record = ConsentRecord(
            strings: ConsentStrings(tcString: TestStrings.acceptAll, usPrivacy: "1YNN"), savedAt: Date())
        let script = Self.page + """
            window.__uspapi = (command, version, callback) => callback({ version: 1, uspString: '1NNN' }, true);
            \(ConsentSharing.userScript(record: record, keys: try keys(TestStrings.acceptAll)).source)
            window.__uspapi('getUSPData', 1, (d, ok) => process.stdout.write(JSON.stringify([d.uspString, ok])));
            """
        #expect(try JSONValue(parsing: try NodeRunner.run(script)) == .array([.string("1NNN"), .bool(true)]))
    }
}
