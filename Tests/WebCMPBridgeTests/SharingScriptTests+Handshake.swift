import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The `webcmp.readyForConsent` → `webcmp.loadConsent` handshake carries the stored consent strings: it is answered to
/// the asking document's origin only, never to `'*'`.
extension SharingScriptTests {
    @Test func handshakeIsAnsweredToTheRequestersOriginAndNeverToEveryOrigin() throws {
        let output = try runFrames("""
            \(try install())
            const named = child('https://articles.example');
            const sandboxed = child('null');
            const empty = child('');
            const missing = child(undefined);
            for (const frame of [named, sandboxed, empty, missing]) {
              send(frame, { name: 'webcmp.readyForConsent' });
              send(frame, 'webcmp.readyForConsent');
            }
            const pick = (frame) => frame.received.map(([m, target]) => [m.name, target, m.consent.gdpr.euconsent]);
            print({ named: pick(named), sandboxed: pick(sandboxed), empty: pick(empty), missing: pick(missing) });
            """)
        let answer = JSONValue.array([
            .string("webcmp.loadConsent"), .string("https://articles.example"), .string(TestStrings.acceptAll),
        ])
        #expect(output["named"] == .array([answer, answer]))
        // Without a nameable origin there is nobody to address: no answer, not an answer to every origin.
        #expect(output["sandboxed"] == .array([]))
        #expect(output["empty"] == .array([]))
        #expect(output["missing"] == .array([]))
    }
}
