// The web view adapter contract (`CMPWebView`, the events and the load identity) and the generic prewarmer are the
// package's own since issue 31: apps use the adapters the kit ships (`WKCMPWebView`, `WebPageCMPWebView`,
// `FakeWebView`), the package adds the others (the WebKitGTK host's). These rules, once integrator tests, hold the
// contract for the package's adapters: what another adapter implements and how the core answers it.
import Foundation
import Testing
import WebCMPBridge
import WebCMPBridgeTesting

@MainActor
@Suite struct WebViewAdapterContractTests {
    @Test func aPrewarmedPageIsHandedOverOnlyForTheSameRequest() {
        let clock = ManualScheduler()
        var released: [FakeWebView] = []
        let prewarmer = ConsentPrewarmer<FakeWebView>(idleTimeout: 60, scheduler: clock.scheduler) {
            released.append($0)
        }
        #expect(prewarmer.idleTimeout == 60)
        let configuration = BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito)
        let webView = FakeWebView()
        let store = ConsentStore.inMemory()
        let prewarmed = prewarmer.prewarm(
            configuration: configuration, store: store, trackingAuthorizer: .unavailable) { webView }
        #expect(prewarmed)
        #expect(webView.loadedURLs == [IntegratorStrings.cmpURL])
        webView.post("jsHandler", json: #"{"type":"CMP-loaded"}"#, origin: IntegratorStrings.cmpOrigin)

        var settings = configuration
        settings.mode = .settings
        #expect(prewarmer.take(matching: settings, store: store) == nil, "a settings request never gets the first layer")
        #expect(prewarmer.take(matching: configuration, store: .inMemory()) == nil, "another store")
        let taken = prewarmer.take(matching: configuration, store: store, trackingAuthorizer: .unavailable)
        #expect(taken?.webView === webView)
        #expect(taken?.eventsBeforePresentation == [.uiReady(.gravito)])
        #expect(taken?.bridge.state == .ready)
        #expect(prewarmer.take() == nil, "handed over once")
        taken?.bridge.beginPresentation()   // presented: the prewarmer never releases it

        // Released on a memory warning, on request, and after the idle time.
        let releases: [() -> Void] = [
            { prewarmer.didReceiveMemoryWarning() }, { prewarmer.releasePrewarmed() }, { clock.advance(by: 60) },
        ]
        for release in releases {
            prewarmer.prewarm(configuration: configuration, store: .inMemory()) { FakeWebView() }
            release()
        }
        #expect(released.count == 3)
    }

    @Test func aPrewarmedPageWaitsForAWindowAndIsReleasedWhenTakenButNeverShown() {
        let clock = ManualScheduler()
        final class Windows { var ready = false; var placed = 0 }
        let windows = Windows()   // launch: no foreground scene has a window yet
        var released: [FakeWebView] = []
        let prewarmer = ConsentPrewarmer<FakeWebView>(
            idleTimeout: 60, handoverTimeout: 5, scheduler: clock.scheduler,
            release: { released.append($0) },
            place: { _ in
                guard windows.ready else { return false }
                windows.placed += 1
                return true
            })
        #expect(prewarmer.handoverTimeout == 5)
        let configuration = BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito)
        let store = ConsentStore.inMemory()
        prewarmer.prewarm(configuration: configuration, store: store) { FakeWebView() }
        windows.ready = true
        prewarmer.sceneActivated()
        #expect(windows.placed == 1)
        let taken = prewarmer.take(matching: configuration, store: store)
        #expect(taken != nil)
        clock.advance(by: 5)   // never presented
        #expect(released.count == 1 && released.first === taken?.webView)
        #expect(taken?.bridge.state == .invalidated)
    }

    @Test func anAdapterForAnotherWebView() throws {
        let adapter = MinimalWebView()
        let recorder = EventRecorder()
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .tcf),
            store: .inMemory(), scheduler: ManualScheduler())
        recorder.record(bridge)
        bridge.attach(to: adapter)
        bridge.start()
        #expect(adapter.handlers == ["webcmpTCF"])
        #expect(adapter.scripts.contains { !$0.source.isEmpty && $0.forMainFrameOnly })
        let load = try #require(adapter.lastLoad)
        #expect(WebViewLoadID(rawValue: load.rawValue) == load)
        #expect(load.description.hasPrefix("load #"))
        adapter.eventHandler?(.didReceiveResponse(IntegratorStrings.cmpURL, statusCode: 200, load: load))
        adapter.eventHandler?(.didFinishLoading(IntegratorStrings.cmpURL, load: load))
        // The page posts through the adapter: an object (as `WKScriptMessage.body` hands it over) or JSON text.
        adapter.eventHandler?(.message(ScriptMessage(
            handlerName: "webcmpTCF", body: .foundation(["type": "ready"]), isMainFrame: true,
            origin: IntegratorStrings.cmpOrigin)))
        adapter.eventHandler?(.message(ScriptMessage(
            handlerName: "webcmpTCF", body: .json(#"{"type":"tcf","eventStatus":"cmpuishown"}"#), isMainFrame: true,
            origin: IntegratorStrings.cmpOrigin)))
        #expect(bridge.state == .ready)
        #expect(recorder.events.first == .uiReady(.tcf))
        #expect(adapter.navigationPolicy?(NavigationRequest(
            url: URL(string: "https://www.example.com/vendors")!, isMainFrame: true, opensNewWindow: true))
            == .openExternally(URL(string: "https://www.example.com/vendors")!))
        // A cancelled load (replaced by another) is not a failure.
        adapter.eventHandler?(.didFailLoading(
            WebViewLoadFailure(
                url: IntegratorStrings.cmpURL, domain: "NSURLErrorDomain", code: -999, description: "cancelled"),
            load: WebViewLoadID(rawValue: 999)))
        #expect(recorder.errors.isEmpty)
        adapter.eventHandler?(.contentProcessDidTerminate)
        #expect(adapter.loadCount == 2, "reloaded once")
        bridge.invalidate()
        #expect(bridge.state == .invalidated)
        #expect(adapter.handlers.isEmpty && adapter.scripts.isEmpty && adapter.eventHandler == nil)
        #expect(WebViewSetupError.messageHandlerNameInUse("x").description.contains("x"))
        #expect(WebViewLoadFailure(url: nil, description: "offline").description == "offline")
    }
}

/// The smallest `CMPWebView`: what an adapter for another web view implements.
@MainActor
final class MinimalWebView: CMPWebView {
    var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?
    private(set) var handlers: Set<String> = []
    private(set) var scripts: [UserScript] = []
    private(set) var evaluated: [String] = []
    private(set) var lastLoad: WebViewLoadID?
    private(set) var loadCount = 0

    func load(_ url: URL, id: WebViewLoadID) {
        lastLoad = id
        loadCount += 1
    }

    func addUserScript(_ script: UserScript) { scripts.append(script) }
    func removeAllUserScripts() { scripts.removeAll() }
    func evaluateJavaScript(_ source: String) { evaluated.append(source) }

    func addMessageHandler(named name: String) throws(ConsentBridgeError) {
        guard handlers.insert(name).inserted else { throw .webViewSetupFailed(.messageHandlerNameInUse(name)) }
    }

    func removeMessageHandler(named name: String) { handlers.remove(name) }
}
