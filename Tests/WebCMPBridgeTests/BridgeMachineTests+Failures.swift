import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// Which failures end the UI is the machine's decision, not a list kept beside the error: a failure that ends it is
/// reported as ``ConsentBridgeEvent/failed(_:)`` just before ``ConsentBridgeEvent/uiFinished(_:)``; every other
/// failure as ``ConsentBridgeEvent/error(_:)``, and the run goes on.
extension BridgeMachineTests {
    /// A row: the inputs, the one error code they report, and whether that failure ends the UI.
    /// A row of ``whichFailuresEndTheUI(_:)``.
    struct Failure: @unchecked Sendable, CustomTestStringConvertible {
        let name: String
        let configure: Configure
        let inputs: [Input]
        let code: ConsentBridgeError.Code
        let endsUI: Bool

        init(_ name: String, configure: @escaping Configure = gravitoDialect, _ inputs: [Input],
             _ code: ConsentBridgeError.Code, endsUI: Bool) {
            self.name = name
            self.configure = configure
            self.inputs = inputs
            self.code = code
            self.endsUI = endsUI
        }

        var testDescription: String { name }
    }

    /// A TC string with `IsServiceSpecific = 0`, which the TCF declares invalid in an app.
    static let notServiceSpecific: String = {
        var model = TCString(cmpID: 300, vendorListVersion: 1, policyVersion: 5)
        model.isServiceSpecific = false
        return (try? model.encoded()) ?? "encoding-failed"
    }()

    /// A Gravito save of a valid TC string.
    static var save: Input { .gravito(MachineBody.gravitoSave(TestStrings.acceptAll)) }

    @Test(arguments: [
        Failure("a web view that cannot be set up",
                [.attached(setupFailure: .webViewSetupFailed(.messageHandlerNameInUse("jsHandler"))),
                 .start(trackingStatus: .notDetermined)],
                .webViewSetupFailed, endsUI: true),
        Failure("the ready timeout", started + [.timerFired(.ready)], .timeout, endsUI: true),
        Failure("a failed load", started + [offlineInput], .loadFailed, endsUI: true),
        Failure("an HTTP error status", started + [.response("https://cmp.example.com/app.html", status: 503, load: 1)],
                .loadFailed, endsUI: true),
        Failure("the web content process terminated twice",
                started + [.webView(.contentProcessDidTerminate), .webView(.contentProcessDidTerminate)],
                .webContentTerminated, endsUI: true),
        Failure("a message that is not JSON", started + [.gravito("{")], .invalidMessage, endsUI: false),
        Failure("a sub-frame's message", started + [.message("jsHandler", #"{"type":"close"}"#, mainFrame: false)],
                .notMainFrame, endsUI: false),
        Failure("a forbidden origin's message",
                started + [.message("jsHandler", #"{"type":"close"}"#, origin: "https://evil.example")],
                .forbiddenOrigin, endsUI: false),
        Failure("another dialect's message", started + [.osb(MachineBody.osbSave(TestStrings.acceptAll))],
                .unexpectedDialect, endsUI: false),
        Failure("an undecodable TC string", started + [.gravito(MachineBody.gravitoSave("AAAA"))],
                .invalidConsent, endsUI: false),
        Failure("refused consent", started + [.gravito(MachineBody.gravitoSave(notServiceSpecific))],
                .invalidConsent, endsUI: false),
        Failure("a store that cannot write", started + [save, storageFailed], .storageFailed, endsUI: false),
    ])
    func whichFailuresEndTheUI(_ row: Failure) {
        var feeder = RowFeeder(MachinePage.machine(renewalReason: .noConsent, row.configure))
        var effects: [Effect] = []
        for input in row.inputs { effects += feeder.feed(input) }
        let events = effects.compactMap { if case .report(let event) = $0 { event } else { nil } }
        let errors = events.compactMap(\.reportedError)
        #expect(errors.map(\.code) == [row.code])
        let failed = events.firstIndex { if case .failed = $0 { true } else { false } }
        let finished = events.firstIndex(where: \.endsPresentation)
        if row.endsUI {
            #expect(failed != nil, "reported as the failure that ends the UI")
            #expect(failed.map { $0 + 1 } == finished, "the UI finishes right after the failure")
            #expect(finished.map { events[$0] == .uiFinished(.failed) || events[$0] == .uiFinished(.timedOut) } == true)
        } else {
            #expect(failed == nil && finished == nil, "reported as an error; the UI goes on")
            #expect(feeder.machine.state != .invalidated)
        }
    }
}
