import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

/// The script message handler names the bridge registers: a name another owner holds is a typed setup error that
/// loads nothing and leaves the other owner's handler alone; a stale registration is replaced.
@MainActor
@Suite struct MessageHandlerRegistrationTests {
    static let hosted = URL(string: "https://cmp.example.com/app/index.html")!

    @Test func aHandlerNameTakenBySomeoneElseIsATypedErrorAndNothingLoads() {
        let webView = FakeWebView()
        webView.foreignHandlerNames = ["jsHandler"]   // the app still registers Gravito's handler itself
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito), store: .inMemory(),
            scheduler: ManualScheduler().scheduler)
        bridge.attach(to: webView)
        bridge.start()
        #expect(bridge.eventLog.first == .failed(.webViewSetupFailed(.messageHandlerNameInUse("jsHandler"))))
        #expect(bridge.eventLog.contains(.uiFinished(.failed)))
        #expect(webView.loadedURLs.isEmpty)
        #expect(bridge.state == .invalidated)
        #expect(webView.handlers.isEmpty)            // nothing of ours left registered
        #expect(webView.foreignHandlerNames == ["jsHandler"])   // and the app's handler never touched
        #expect(!bridge.eventLog.contains { if case .error = $0 { true } else { false } }, "the failure is the one that ends the UI")
    }

    /// The registry decision behind `WKCMPWebView.addMessageHandler(named:)`.
    @Test func aHandlerNameIsRegisteredReplacedWhenStaleAndNeverTakenFromALiveOwner() {
        #expect(MessageHandlerClaim(previousOwnerAlive: nil) == .register)
        #expect(MessageHandlerClaim(previousOwnerAlive: false) == .replaceStale)
        #expect(MessageHandlerClaim(previousOwnerAlive: true) == .refuse)
    }
}
