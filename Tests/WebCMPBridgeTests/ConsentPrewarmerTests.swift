import Foundation
import Testing
@testable import IABInAppConsent
@testable import WebCMPBridge

@MainActor
@Suite struct ConsentPrewarmerTests {
    static let hosted = URL(string: "https://cmp.example.com/app/index.html")!
    let clock = ManualScheduler()
    let configuration = BridgeConfiguration(
        cmpURL: URL(string: "https://cmp.example.com/app/index.html")!, dialect: .gravito, readyTimeout: 600)

    func make(_ released: @escaping @MainActor (FakeWebView) -> Void = { _ in }) -> ConsentPrewarmer<FakeWebView> {
        ConsentPrewarmer<FakeWebView>(idleTimeout: 60, scheduler: clock.scheduler, release: released)
    }

    @Test func prewarmsOnceAndHandsTheReadyPageOverWithoutANewLoad() throws {
        let prewarmer = make()
        let store = ConsentStore.inMemory()
        #expect(prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() })
        #expect(prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() })
        #expect(prewarmer.createdCount == 1)
        let webView = try #require(prewarmer.take()).webView
        #expect(!prewarmer.isPrewarmed)
        #expect(prewarmer.take() == nil)
        #expect(webView.loadedURLs.count == 1)

        // A second prewarm after a take creates a new one; the page becomes ready off-screen.
        #expect(prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() })
        #expect(prewarmer.createdCount == 2)
        let held = try #require(prewarmer.take())
        held.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        #expect(held.bridge.state == .ready)
        #expect(held.bridge.eventLog.first == .uiReady(.gravito))
        #expect(held.eventsBeforePresentation.isEmpty)   // taken before it became ready
        // Presenting runs the same bridge: no new load, no second web view.
        held.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll),
        ]))
        #expect(held.webView.loadedURLs.count == 1)
        #expect(store.record() != nil)
    }

    @Test func aChoiceStatedByAPrewarmedPageNobodySawIsStoredAsAReportAndNotAskedAgain() throws {
        let prewarmer = make()
        let store = ConsentStore.inMemory()
        #expect(prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() })
        let held = try #require(prewarmer.take())   // taken, but no UI has shown it yet
        held.webView.post("jsHandler", .object(["type": .string("CMP-loaded")]))
        held.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.acceptAll)]))
        // The consent is in force for the ad SDKs, but the record and the history do not claim the user chose it.
        let record = try #require(store.record())
        #expect(record.tcString == TestStrings.acceptAll)
        #expect(record.provenance == ConsentProvenance(.cmpPage, .reReport))
        #expect(store.consentHistory().map(\.provenance.action) == [.reReport])
        #expect(!held.bridge.eventLog.contains { if case .userAction = $0 { true } else { false } })
        #expect(held.bridge.eventLog.contains(.diagnostic(BridgeMachine.unseenChoice)))
        // Answered: the next launch does not ask again (a CMP that saves on load outside consent regions never loops).
        #expect(ConsentBridge.needsConsentUI(store: store, expiry: configuration.expiry, now: clock.now) == nil)

        // Once a UI shows the page, the same kind of save is the user's choice.
        held.bridge.beginPresentation()
        held.webView.post("jsHandler", .object(["type": .string("save"), "tcstring": .string(TestStrings.rejectAll)]))
        #expect(try #require(store.record()).provenance == ConsentProvenance(.cmpPage, .userChoice))
        #expect(store.consentHistory().map(\.provenance.action) == [.reReport, .userChoice])
    }

    @Test func doesNothingWhenStoredConsentIsGood() {
        let store = ConsentStore.inMemory()
        let harness = BridgeHarness(store: store)
        harness.webView.post("jsHandler", .object([
            "type": .string("save"), "tcstring": .string(TestStrings.acceptAll),
        ]))
        let prewarmer = make()
        #expect(!prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() })
        #expect(prewarmer.createdCount == 0)
    }

    @Test func releasesOnMemoryWarningAndAfterTheIdleTime() async throws {
        var released: [FakeWebView] = []
        let prewarmer = make { released.append($0) }
        let store = ConsentStore.inMemory()
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        prewarmer.didReceiveMemoryWarning()
        #expect(!prewarmer.isPrewarmed)
        #expect(released.count == 1)
        #expect(released.first?.handlers.isEmpty == true)   // the bridge was invalidated

        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        clock.advance(by: 59)
        #expect(prewarmer.isPrewarmed)
        clock.advance(by: 1)
        #expect(!prewarmer.isPrewarmed)
        #expect(released.count == 2)

        // Taken and presented views are never released by the prewarmer; its idle timer is cancelled.
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        let taken = try #require(prewarmer.take())
        taken.bridge.beginPresentation()
        clock.advance(by: 120)
        prewarmer.didReceiveMemoryWarning()
        #expect(released.count == 2)
        #expect(!released.contains { $0 === taken.webView })
    }

    @Test func aRunThatEndsOffScreenIsReleased() {
        var released = 0
        let prewarmer = make { _ in released += 1 }
        prewarmer.prewarm(configuration: configuration, store: .inMemory()) { FakeWebView() }
        clock.advance(by: 601)   // the ready timeout: the run ends before it was presented
        #expect(!prewarmer.isPrewarmed)
        #expect(released == 1)
    }

    @Test func handsOverWhatHappenedOffScreen() throws {
        var fallback = configuration
        fallback.fallback = try FallbackPage(files: ["index.html": FallbackPage.File(contents: Data())])
        let prewarmer = make()
        var view: FakeWebView?
        prewarmer.prewarm(configuration: fallback, store: .inMemory()) {
            view = FakeWebView()
            return view!
        }
        view?.eventHandler?(.didFailLoading(WebViewLoadFailure(url: nil, description: "offline")))
        view?.post("jsHandler", .object(["type": .string("CMP-loaded")]), origin: "webcmp-fallback://app")
        #expect(prewarmer.isReady)
        let taken = try #require(prewarmer.take())
        #expect(taken.bridge.delegate == nil)
        #expect(taken.eventsBeforePresentation.count == 2)
        #expect(taken.eventsBeforePresentation.last == .uiReady(.gravito))
        #expect(taken.webView.loadedURLs.count == 2)
    }

    @Test func doesNotRetainWhatItReleased() {
        weak var weakBridge: ConsentBridge?
        weak var weakView: FakeWebView?
        let prewarmer = make()
        prewarmer.prewarm(configuration: configuration, store: .inMemory()) {
            let view = FakeWebView()
            weakView = view
            return view
        }
        weakBridge = prewarmer.take()?.bridge
        prewarmer.prewarm(configuration: configuration, store: .inMemory()) { FakeWebView() }
        prewarmer.releasePrewarmed()
        clock.advance(by: 10)   // the dropped bridge was never presented: released after its handover time
        #expect(weakBridge == nil)
        #expect(weakView == nil)
    }

    @Test func aTakenPageThatIsNeverPresentedIsReleasedAfterItsHandoverTime() throws {
        var released: [FakeWebView] = []
        let prewarmer = make { released.append($0) }
        let store = ConsentStore.inMemory()
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        let refused = try #require(prewarmer.take(matching: configuration, store: store))
        clock.advance(by: 9.9)
        #expect(released.isEmpty)
        clock.advance(by: 0.1)   // the presentation was refused, or the sheet never appeared
        #expect(released.count == 1 && released.first === refused.webView)
        #expect(refused.bridge.state == .invalidated)
        #expect(refused.webView.handlers.isEmpty)

        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        let shown = try #require(prewarmer.take(matching: configuration, store: store))
        shown.bridge.beginPresentation()
        clock.advance(by: 60)
        #expect(released.count == 1)
        #expect(shown.bridge.state != .invalidated)
    }

    @Test func aPageIsHandedOverOnlyForTheSameStoreAndCommitRules() {
        let store = ConsentStore.inMemory()
        let prewarmer = make()
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        var sdkID = configuration
        sdkID.cmpSDKID = 42
        var applies = configuration
        applies.gdprApplies = false
        var version = configuration
        version.cmpSDKVersion = 3
        var vendors = configuration
        vendors.missingDisclosedVendors = .refuse
        var clears = configuration
        clears.clearsConsentOnTimeout = true
        for other in [sdkID, applies, version, vendors, clears] {
            #expect(prewarmer.take(matching: other, store: store) == nil)
        }
        #expect(prewarmer.take(matching: configuration, store: .inMemory()) == nil)   // another storage
        #expect(prewarmer.isPrewarmed)
        #expect(prewarmer.take(matching: configuration, store: ConsentStore(storage: store.storage)) != nil)
    }

    @Test func aPageWithoutAWindowAtLaunchIsPlacedWhenASceneActivates() throws {
        final class Scenes { var windows = 0; var placed: [FakeWebView] = [] }
        let scenes = Scenes()   // no scene is in the foreground yet
        let prewarmer = ConsentPrewarmer<FakeWebView>(
            idleTimeout: 60, scheduler: clock.scheduler, release: { _ in },
            place: { view in
                guard scenes.windows > 0 else { return false }
                scenes.placed.append(view)
                return true
            })
        let store = ConsentStore.inMemory()
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        #expect(prewarmer.isPrewarmed && !prewarmer.isPlaced)
        prewarmer.sceneActivated()   // still no window
        #expect(!prewarmer.isPlaced && scenes.placed.isEmpty)
        scenes.windows = 1
        prewarmer.sceneActivated()
        #expect(prewarmer.isPlaced && scenes.placed.count == 1)
        prewarmer.sceneActivated()   // placed once
        #expect(scenes.placed.count == 1)
        _ = try #require(prewarmer.take())
        prewarmer.sceneActivated()   // nothing held: nothing to place
        #expect(scenes.placed.count == 1 && !prewarmer.isPlaced)
    }

    @Test func aPrewarmedPagesReadyTimeoutStartsWhenItIsPresented() throws {
        let clock = ManualScheduler()
        let prewarmer = ConsentPrewarmer<FakeWebView>(idleTimeout: 600, scheduler: clock.scheduler)
        let configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito, readyTimeout: 10)
        let store = ConsentStore.inMemory()
        #expect(prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() })
        clock.advance(by: 60)   // off-screen and throttled: no timeout, no fallback, nothing stored
        let taken = try #require(prewarmer.take(matching: configuration, store: store))
        #expect(taken.bridge.state == .loading)
        #expect(taken.eventsBeforePresentation.isEmpty)
        taken.bridge.beginPresentation()
        clock.advance(by: 9.9)
        #expect(taken.bridge.state == .loading)
        clock.advance(by: 0.2)
        #expect(taken.bridge.eventLog.contains(.failed(.timeout(seconds: 10))))
    }

    @Test func aPrewarmedBridgeIsHandedOverOnlyForTheSameRequest() throws {
        let prewarmer = ConsentPrewarmer<FakeWebView>(scheduler: ManualScheduler().scheduler)
        let configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito)
        let authorizer = FakeTrackingAuthorizer().client
        let store = ConsentStore.inMemory()
        prewarmer.prewarm(configuration: configuration, store: store, trackingAuthorizer: authorizer) {
            FakeWebView()
        }
        var settings = configuration
        settings.mode = .settings
        #expect(prewarmer.take(matching: settings, store: store, trackingAuthorizer: authorizer) == nil)   // not the first layer
        var other = configuration
        other.cmpURL = URL(string: "https://cmp.example.com/other.html")!
        #expect(prewarmer.take(matching: other, store: store, trackingAuthorizer: authorizer) == nil)
        var tracking = configuration
        tracking.tracking = .afterConsent()
        #expect(prewarmer.take(matching: tracking, store: store, trackingAuthorizer: authorizer) == nil)
        #expect(prewarmer.take(matching: configuration, store: store, trackingAuthorizer: FakeTrackingAuthorizer().client) == nil)
        #expect(prewarmer.take(matching: configuration, store: store) == nil)   // .unavailable is another client
        #expect(prewarmer.isPrewarmed)
        let copy = authorizer
        #expect(prewarmer.take(matching: configuration, store: store, trackingAuthorizer: copy) != nil)
        #expect(!prewarmer.isPrewarmed)
    }

    @Test func aPrewarmedPageNobodySawThatSavesMarketingConsentNeverPromptsForTracking() async {
        let tracking = FakeTrackingAuthorizer()
        let clock = ManualScheduler()
        let prewarmer = ConsentPrewarmer<FakeWebView>(scheduler: clock.scheduler)
        var configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .tcf)
        configuration.tracking = .afterConsent()
        var view: FakeWebView?
        let store = ConsentStore.inMemory()
        #expect(prewarmer.prewarm(configuration: configuration, store: store, trackingAuthorizer: tracking.client) {
            view = FakeWebView()
            return view!
        })
        // The CMP saves on load, off-screen: a TCF useractioncomplete with every marketing purpose.
        view?.post("webcmpTCF", .object([
            "type": .string("tcf"), "eventStatus": .string("useractioncomplete"),
            "tcString": .string(TestStrings.acceptAll),
        ]))
        await settle()
        clock.advance(by: 5)
        await settle()
        #expect(store.record()?.provenance == ConsentProvenance(.cmpPage, .reReport))
        #expect(tracking.requests == 0)
    }

    @Test func trackingBeforeTheCMPIsNeverPrewarmedSoItNeverPromptsAtLaunch() async {
        let tracking = FakeTrackingAuthorizer()
        let prewarmer = ConsentPrewarmer<FakeWebView>(scheduler: ManualScheduler().scheduler)
        var configuration = BridgeConfiguration(cmpURL: Self.hosted, dialect: .gravito)
        configuration.tracking = .beforeCMP
        var created = 0
        let held = prewarmer.prewarm(configuration: configuration, store: .inMemory(), trackingAuthorizer: tracking.client) {
            created += 1
            return FakeWebView()
        }
        await settle()
        #expect(!held)
        #expect(created == 0)
        #expect(tracking.requests == 0)
    }
}
