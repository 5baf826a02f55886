import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

extension SharingScriptTests {
    /// A page CMP that loads after the sharing script (the IAB reference stub checks for its locator frame, not for an
    /// existing `__tcfapi`) replaces the native-backed APIs and answers itself; `active()` reports which one answers.
    @Test func pageCMPLoadingLaterReplacesTheNativeBackedAPIs() throws {
        let record = ConsentRecord(
            strings: ConsentStrings(tcString: TestStrings.acceptAll, gppString: "DBABMA~" + TestStrings.acceptAll),
            savedAt: Date())
        let script = Self.page + """
            \(ConsentSharing.userScript(record: record, keys: try keys(TestStrings.acceptAll)).source)
            const before = window.__webcmpSharing.active();
            window.__tcfapi = (cmd, v, cb) => cb({ tcString: 'page', cmpId: 999 }, true);
            const middle = window.__webcmpSharing.active();
            window.__gpp = (cmd, cb) => cb({ gppString: 'page' }, true);
            const after = window.__webcmpSharing.active();
            window.__tcfapi('getTCData', 2, (d) => process.stdout.write(JSON.stringify({ before, middle, after, answer: d.cmpId })));
            """
        let output = try JSONValue(parsing: try NodeRunner.run(script))
        #expect(output["before"] == .object(["tcfapi": .bool(true), "gpp": .bool(true)]))
        #expect(output["middle"] == .object(["tcfapi": .bool(false), "gpp": .bool(true)]))
        #expect(output["after"] == .object(["tcfapi": .bool(false), "gpp": .bool(false)]))
        #expect(output["answer"] == .number(999))
    }
}
