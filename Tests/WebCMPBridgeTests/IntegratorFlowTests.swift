// An app team's tests of its consent flow, written as an integrator writes them: plain `import WebCMPBridge` and
// `import WebCMPBridgeTesting`, no `@testable`. With DocumentationSamples.swift and the other Integrator*Tests files
// they use the public API the package keeps (README "Public surface"): what is public is used here, in a DocC
// sample, by the ExampleApp or by the Apple glue.
import Foundation
import Testing
import WebCMPBridge
import WebCMPBridgeTesting

/// Real TC strings (TCF 2.3, policy version 5, created 2026-03-02), decoded in the tests that use them.
enum IntegratorStrings {
    /// Purposes 1–11, vendors 1, 2, 755 (Google), 1001, special features 1–2, a publisher restriction, the
    /// DisclosedVendors and PublisherTC segments.
    static let acceptAll =
        "CQgcD4AQgcD4AEsACBDECWFsAP_gAEPgAAYgH0wA4AAgAEAvMB9IF5wAQF5gAhIAID6Q.IH0wA4AAgAEAvMB9I.eAAAAAAAAUA"
    /// Purposes 1, 8, 9 and vendor 2.
    static let analyticsOnly = "CQgcD4AQgcD4AEsACBDECWFgAIGAAAAAAAYgABEAAAAISACA-k.IH0wA4AAgAEAvMB9I"
    /// Like ``acceptAll`` without the DisclosedVendors segment that TCF 2.3 requires.
    static let withoutDisclosedVendors = "CQgcD4AQgcD4AEsACBDECWFgAP_gAAAAAAYgH0wA4AAgAEAvMB9IAAAAQkAEB9I"
    /// A GPP string with one MSPA US National section: sale, sharing and targeted advertising opted out, GPC set.
    static let usnatOptedOut = "DBABLA~CVVVkkkkkpFY.YA"

    static let cmpURL = URL(string: "https://cmp.example.com/app.html")!
    static let cmpOrigin = "https://cmp.example.com"
}

/// What an app's own code does with the kit's answers: the kind of function an integrator tests with these doubles.
enum AppConsentHandling {
    /// The log line an app writes for an error: its stable `code`, and for a refused or unstored consent the consent
    /// module's code (which string was broken); the descriptions are for logs only.
    static func logLine(for error: ConsentBridgeError) -> String {
        var line = (error.isSecurityEvent ? "SECURITY " : "") + error.code.rawValue
        if let consent = error.consentError { line += " (" + consent.code.rawValue + ")" }
        return line + ": " + error.description
    }

    /// What an app does about an error, by code (a switch over the stable codes, with a default for new ones).
    static func action(for error: ConsentBridgeError) -> String {
        switch error.code {
        case .timeout, .loadFailed, .webContentTerminated: return "retry later"
        case .invalidConsent: return "report the CMP page"
        case .forbiddenOrigin, .notMainFrame: return "security log"
        case .storageFailed: return "keep the previous consent"
        default: return "log"
        }
    }

    /// An app with its own consent UI: the text it shows for the failure that ended the UI, in its own localization
    /// (keyed by ``ConsentBridgeError/userFacingMessageKey``), falling back to the kit's English. Other events show
    /// nothing.
    static func message(for event: ConsentBridgeEvent, localized: [String: String]) -> String? {
        guard case .failed(let error) = event else { return nil }
        return localized[error.userFacingMessageKey] ?? error.userFacingMessage
    }
}

/// Yields to the tasks the bridge started until `condition` holds (a bounded wait: an issue, not a hang, when it never
/// does).
@MainActor
func yieldUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async {
    for _ in 0..<10_000 where !condition() { await Task.yield() }
    #expect(condition(), "the condition never held", sourceLocation: sourceLocation)
}

/// Collects a bridge's events as they happen (the testing product's recorder).
typealias EventRecorder = ConsentEventRecorder

extension ConsentEventRecorder {
    /// Every error, those the UI survives and the one that ended it.
    var errors: [ConsentBridgeError] {
        events.compactMap {
            switch $0 {
            case .error(let error), .failed(let error): error
            default: nil
            }
        }
    }
    /// The error that ended the UI (``ConsentBridgeEvent/failed(_:)``), if any.
    var failures: [ConsentBridgeError] { events.compactMap { if case .failed(let error) = $0 { error } else { nil } } }
    var codes: [ConsentBridgeError.Code] { errors.map(\.code) }
}

@MainActor
@Suite struct IntegratorFlowTests {
    /// A Gravito page on the fake web view, with a manual clock and a tracking client the test controls.
    @MainActor
    struct Flow {
        let webView = FakeWebView()
        let clock = ManualScheduler()
        let tracking = FakeTrackingAuthorizer()
        let recorder = EventRecorder()
        let store: ConsentStore
        let bridge: ConsentBridge

        init(store: ConsentStore = .inMemory(), configure: (inout BridgeConfiguration) -> Void = { _ in }) {
            var configuration = BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito)
            configure(&configuration)
            self.store = store
            bridge = ConsentBridge(
                configuration: configuration, store: store, scheduler: clock,
                trackingAuthorizer: tracking.client)
            recorder.record(bridge)
        }

        func post(_ json: String, isMainFrame: Bool = true, origin: String? = IntegratorStrings.cmpOrigin) {
            webView.post("jsHandler", json: json, isMainFrame: isMainFrame, origin: origin)
        }

        func save(_ tcString: String, extra: String = "") {
            post(#"{"type":"save","tcstring":"\#(tcString)"\#(extra)}"#)
        }
    }

    @Test func aGravitoRunStoresTheChoiceReportsItAndChainsTracking() async throws {
        let flow = Flow { $0.tracking = .afterConsent() }
        let stream = flow.bridge.events()
        #expect(flow.bridge.state == .idle)
        flow.bridge.attach(to: flow.webView)
        flow.bridge.start()
        #expect(flow.bridge.state == .loading)
        #expect(flow.webView.handlers == ["jsHandler"])
        #expect(flow.webView.loadedURLs == [IntegratorStrings.cmpURL])
        #expect(flow.webView.loads.count == 1)
        #expect(flow.webView.url == IntegratorStrings.cmpURL)
        #expect(flow.clock.pendingCount == 1, "the ready timeout")
        #expect(!flow.bridge.allowsInteractiveDismissal, "modal until the user chose")

        flow.webView.finishLoading()
        flow.post(#"{"type":"CMP-loaded"}"#)
        #expect(flow.bridge.state == .ready)
        #expect(flow.bridge.dialect == .gravito)
        #expect(flow.webView.evaluated.count == 1, "the stored record (none yet) handed to the page")
        flow.bridge.beginPresentation()

        flow.save(
            IntegratorStrings.acceptAll,
            extra: #","acString":"2~1.35.41~dv.9.21","nontcfdata":{"analytics":true},"configversion":"7""#)
        #expect(flow.bridge.allowsInteractiveDismissal)
        flow.post(#"{"type":"close"}"#)
        #expect(flow.bridge.state == .finished(.closed))
        #expect(flow.tracking.requests == 0, "never while the UI is up")
        flow.bridge.endPresentation()

        var events: [ConsentBridgeEvent] = []
        for await event in stream { events.append(event) }   // finishes when the bridge invalidated itself
        #expect(flow.bridge.state == .invalidated)
        #expect(flow.webView.handlers.isEmpty && flow.webView.userScripts.isEmpty)
        #expect(flow.webView.removedAllUserScripts == 1)
        #expect(flow.webView.loads.map(\.url) == [IntegratorStrings.cmpURL])
        #expect(flow.recorder.events == events)
        #expect(flow.tracking.requests == 1)
        #expect(events.first == .uiReady(.gravito))
        #expect(events.contains(.userAction(isRejectAll: nil)))
        #expect(events.contains(.uiFinished(.closed)))
        #expect(events.last == .trackingAuthorization(.authorized))
        #expect(events.filter(\.endsPresentation) == [.uiFinished(.closed)])

        let summaries = events.compactMap { if case .consentReady(let summary) = $0 { summary } else { nil } }
        let summary = try #require(summaries.first)
        #expect(summary.tcString == IntegratorStrings.acceptAll)
        #expect(summary.strings.additionalConsent == "2~1.35.41~dv.9.21")
        #expect(summary.gppString == nil)
        #expect(summary.gdprApplies == true)
        #expect(summary.expirationDate == nil)
        #expect(summary.savedAt == flow.clock.now)
        #expect(summary.source == .cmpPage)
        #expect(summary.purposeConsents == IDSet(1...11))
        #expect(summary.purposeLegitimateInterests == [2, 7, 8, 9, 10, 11])
        #expect(summary.specialFeatureOptIns == [1, 2])
        #expect(summary.vendorConsents.sorted == [1, 2, 755, 1001])
        #expect(summary.vendorLegitimateInterests == [755])
        #expect(summary.decoded?.cmpID == 300)
        let consentMode = try #require(summary.googleConsentMode)
        #expect(consentMode == GoogleConsentMode(
            adStorage: true, adUserData: true, adPersonalization: true, analyticsStorage: true))
        #expect(consentMode.adStorage && consentMode.adUserData && consentMode.adPersonalization)
        #expect(consentMode.analyticsStorage)
        #expect(consentMode.dictionary["ad_user_data"] == "granted")
        #expect(summary.usPrivacySignals == nil)

        // What an app reads afterwards, without a web view.
        let record = try #require(flow.store.record())
        #expect(record.strings == summary.strings)
        #expect(record.nonTCFData?["analytics"]?.boolValue == true)
        #expect(record.configVersion == "7")
        #expect(flow.store.record(includingNonTCFData: false)?.nonTCFData == nil)
        #expect(ConsentBridge.needsConsentUI(store: flow.store, now: flow.clock.now) == nil)
        #expect(flow.store.iabKeys()[.tcString] == .string(IntegratorStrings.acceptAll))
    }

    @Test func runInAWebViewReturnsTheOutcome() async throws {
        let flow = Flow()
        let run = Task { await flow.bridge.run(in: flow.webView) }
        await yieldUntil { !flow.webView.handlers.isEmpty }
        flow.post(#"{"type":"CMP-loaded"}"#)
        flow.save(IntegratorStrings.analyticsOnly)
        flow.post(#"{"type":"close"}"#)
        let outcome = await run.value
        #expect(outcome.finishReason == .closed)
        #expect(outcome.summary?.purposeConsents == [1, 8, 9])
        #expect(outcome.trackingAuthorization == nil, "tracking is off by default")
        #expect(outcome.errors.isEmpty)
        #expect(outcome == ConsentOutcome(summary: outcome.summary, finishReason: .closed))
    }

    @Test func refusedMessagesAreReportedAndChangeNothing() {
        let flow = Flow { $0.dialect = nil }   // automatic detection: every dialect's handler is registered
        flow.bridge.attach(to: flow.webView)
        flow.bridge.start()
        #expect(flow.webView.handlers.count == CMPDialect.allCases.count)
        flow.post(#"{"type":"CMP-loaded"}"#, origin: "https://evil.example")
        flow.post(#"{"type":"CMP-loaded"}"#, isMainFrame: false)
        flow.post(#"{"type":"#)
        flow.post(#"{"type":"CMP-loaded"}"#)
        flow.webView.post(
            "osbCmpMessageHandler", json: #"{"consent":{"tcString":"x"}}"#, origin: IntegratorStrings.cmpOrigin)
        flow.save("not-a-tc-string")
        #expect(flow.recorder.codes == [
            .forbiddenOrigin, .notMainFrame, .invalidMessage, .unexpectedDialect, .invalidConsent,
        ])
        #expect(flow.recorder.errors.map(\.isSecurityEvent) == [true, true, false, false, false])
        #expect(flow.recorder.failures.isEmpty, "a rejected message or refused save does not end the UI")
        let lines = flow.recorder.errors.map(AppConsentHandling.logLine(for:))
        #expect(lines[0].hasPrefix("SECURITY forbiddenOrigin: rejected a message on 'jsHandler'"))
        #expect(lines[3] == "unexpectedDialect: rejected a message on 'osbCmpMessageHandler': the page speaks the gravito dialect")
        #expect(lines[4].hasPrefix("invalidConsent (invalidTCString): the saved consent was refused: The TC string is invalid:"))
        #expect(flow.recorder.errors.map(AppConsentHandling.action(for:)) == [
            "security log", "security log", "log", "log", "report the CMP page",
        ])
        #expect(flow.recorder.events.allSatisfy { AppConsentHandling.message(for: $0, localized: [:]) == nil })
        #expect(flow.store.record() == nil)
        #expect(flow.store.iabKeys().isEmpty)
    }

    @Test func tcf23StringsWithoutDisclosedVendorsAreStoredWithADiagnosticOrRefused() throws {
        let warn = Flow()
        warn.bridge.attach(to: warn.webView)
        warn.bridge.start()
        warn.save(IntegratorStrings.withoutDisclosedVendors)
        #expect(warn.recorder.events.contains {
            if case .diagnostic(let text) = $0 { text.contains("DisclosedVendors") } else { false }
        })
        #expect(warn.store.record()?.tcString == IntegratorStrings.withoutDisclosedVendors)

        let refuse = Flow { $0.missingDisclosedVendors = .refuse }
        #expect(refuse.bridge.configuration.missingDisclosedVendors == .refuse)
        refuse.bridge.attach(to: refuse.webView)
        refuse.bridge.start()
        refuse.save(IntegratorStrings.withoutDisclosedVendors)
        #expect(refuse.recorder.codes == [.invalidConsent])
        let error = try #require(refuse.recorder.errors.first)
        #expect(error.consentError?.code == .missingDisclosedVendors)
        #expect(error.description.contains("DisclosedVendors"))
        #expect(refuse.recorder.failures.isEmpty, "a refused save does not end the UI")
        #expect(error.userFacingMessageKey == "WebCMPBridge.error.pageOutdated")
        #expect(refuse.store.record() == nil)
        #expect(MissingDisclosedVendorsPolicy.allCases == [.warn, .refuse])
    }

    @Test func errorsThatEndTheUIHaveTextsForPeople() throws {
        let timeout = Flow()
        timeout.bridge.attach(to: timeout.webView)
        timeout.bridge.start()
        timeout.clock.advance(by: timeout.bridge.configuration.readyTimeout)
        #expect(timeout.recorder.events.contains(.uiFinished(.timedOut)))
        let timedOut = try #require(timeout.recorder.failures.first, "the timeout ends the UI")
        #expect(timedOut.code == .timeout)
        #expect(timeout.recorder.errors == [timedOut])
        #expect(UIFinishReason.timedOut.keepsErrorOnScreen && !UIFinishReason.closed.keepsErrorOnScreen)
        #expect(timedOut.userFacingMessageKey == "WebCMPBridge.error.notLoaded")
        #expect(timedOut.userFacingMessage
            == "The privacy settings could not be loaded. Check your connection and try again.")
        #expect(AppConsentHandling.message(for: .failed(timedOut), localized: [timedOut.userFacingMessageKey: "Nicht geladen."])
            == "Nicht geladen.")
        #expect(AppConsentHandling.action(for: timedOut) == "retry later")
        #expect(!timedOut.description.isEmpty)

        let http = Flow()
        http.bridge.attach(to: http.webView)
        http.bridge.start()
        http.webView.respond(statusCode: 503)
        let loadFailed = try #require(http.recorder.failures.first)
        #expect(loadFailed.code == .loadFailed)
        #expect(AppConsentHandling.logLine(for: loadFailed) == "loadFailed: the CMP page failed to load: HTTP status 503 (the server answered an error)")

        let offline = Flow()
        offline.bridge.attach(to: offline.webView)
        offline.bridge.start()
        offline.webView.failLoading()
        #expect(offline.recorder.codes == [.loadFailed])
        #expect(offline.recorder.failures.map(\.code) == [.loadFailed])

        let crashing = Flow()
        crashing.bridge.attach(to: crashing.webView)
        crashing.bridge.start()
        crashing.post(#"{"type":"CMP-loaded"}"#)
        crashing.webView.terminateContentProcess()   // reloaded once
        #expect(crashing.webView.loads.count == 2)
        crashing.webView.terminateContentProcess()   // again before the reloaded page was ready
        #expect(crashing.recorder.failures.map(\.code) == [.webContentTerminated])
        #expect(crashing.recorder.errors.last?.userFacingMessageKey == "WebCMPBridge.error.stopped")

        let taken = Flow()
        taken.webView.foreignHandlerNames = ["jsHandler"]   // the app registered a handler of that name itself
        taken.bridge.attach(to: taken.webView)
        taken.bridge.start()
        #expect(taken.recorder.failures.map(\.code) == [.webViewSetupFailed])
        #expect(taken.recorder.errors.first?.description.contains("jsHandler") == true)
        #expect(taken.webView.loads.isEmpty)
        #expect(taken.recorder.errors.first?.userFacingMessageKey == "WebCMPBridge.error.unavailable")

        // Codes are an open set of stable names: read back from a log, a name is its code.
        #expect(ConsentBridgeError.Code(rawValue: "webViewSetupFailed") == .webViewSetupFailed)
        #expect(taken.recorder.failures.first?.code.description == "webViewSetupFailed")
    }

    @Test func trackingBeforeTheCMPAndAFailingClient() async throws {
        let before = Flow { $0.tracking = .beforeCMP }
        before.tracking.active = false   // the app is not active yet: the request waits
        before.tracking.prompt = .showsLate   // iOS 17.4: `.denied` before the alert is up
        before.tracking.lifecycle = before.webView
        before.bridge.attach(to: before.webView)
        before.bridge.start()
        await yieldUntil { before.tracking.waitingCount > 0 }
        #expect(before.webView.loads.isEmpty, "the prompt comes first")
        before.tracking.becomeActive()
        await yieldUntil { before.tracking.requests == 1 }
        for _ in 0..<20 { await Task.yield() }   // the request's task hands its answer to the bridge
        before.tracking.showPrompt()           // the alert is on screen
        #expect(before.webView.loads.isEmpty, "an early denial settles first")
        before.tracking.answerPrompt(.authorized)   // the user's real answer; the alert is gone: read again
        await yieldUntil { !before.webView.loads.isEmpty }
        #expect(before.recorder.events.first == .trackingAuthorization(.authorized))
        #expect(TrackingPolicy.beforeCMP != TrackingPolicy.disabled)

        let failing = TrackingAuthorizer(
            status: { .notDetermined },
            request: { () async throws(ConsentBridgeError) -> TrackingAuthorizationStatus in
                throw .trackingAuthorizationFailed(reason: "no usage description")
            },
            waitUntilActive: {})
        let webView = FakeWebView()
        let recorder = EventRecorder()
        var configuration = BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito)
        configuration.tracking = .afterConsent(marketingPurposes: [1])
        let bridge = ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: ManualScheduler(),
            trackingAuthorizer: failing)
        recorder.record(bridge)
        let stream = bridge.events()
        bridge.attach(to: webView)
        bridge.start()
        webView.post("jsHandler", json: #"{"type":"save","tcstring":"\#(IntegratorStrings.analyticsOnly)"}"#,
                     origin: IntegratorStrings.cmpOrigin)
        webView.post("jsHandler", json: #"{"type":"close"}"#, origin: IntegratorStrings.cmpOrigin)
        for await _ in stream {}
        #expect(recorder.errors.map(\.code) == [.trackingAuthorizationFailed])
        #expect(recorder.failures.isEmpty, "the UI was gone already")
        #expect(AppConsentHandling.logLine(for: recorder.errors[0])
            == "trackingAuthorizationFailed: tracking authorization failed: tracking authorization is unavailable: no usage description")
        #expect(TrackingAuthorizer.unavailable.status() == .unavailable)
    }

    @Test func privacySettingsReopenTheCMPWithTheStoredConsent() throws {
        let store = ConsentStore.inMemory()
        let first = Flow(store: store)
        first.bridge.attach(to: first.webView)
        first.bridge.start()
        first.save(IntegratorStrings.analyticsOnly)

        let settings = Flow(store: store) {
            $0.mode = .settings
            $0.privacySettings = PrivacySettingsOpener(queryItems: [PrivacySettingsOpener.layerQueryItem])
        }
        #expect(settings.bridge.allowsInteractiveDismissal, "consent is already stored")
        settings.bridge.attach(to: settings.webView)
        settings.bridge.start()
        #expect(settings.webView.loadedURLs == [URL(string: "https://cmp.example.com/app.html?layer=settings")!])
        #expect(settings.bridge.privacySettingsOpenedBy == nil)
        settings.post(#"{"type":"CMP-loaded"}"#)
        #expect(settings.bridge.privacySettingsOpenedBy == nil)   // a ready message is no evidence
        settings.webView.post("webcmpTCF", json: #"{"type":"tcf","eventStatus":"cmpuishown"}"#,
                              origin: IntegratorStrings.cmpOrigin)   // the page's TCF API: its UI shows
        let opener = try #require(settings.bridge.privacySettingsOpenedBy)
        #expect(opener == "the page itself")
        #expect(settings.webView.evaluated.first?.contains(IntegratorStrings.analyticsOnly) == true)
        #expect(ConsentUIMode.allCases == [.consent, .settings])
    }

    @Test func linksLeaveTheConsentUIAndTheFallbackServesOffline() throws {
        let flow = Flow {
            $0.externalLinks = .openExternally
            $0.fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("<p>".utf8))])
        }
        flow.bridge.attach(to: flow.webView)
        flow.bridge.start()
        flow.post(#"{"type":"CMP-loaded"}"#)
        let policy = URL(string: "https://www.example.com/privacy")!
        flow.webView.followLink(to: policy)
        flow.webView.openNewWindow(policy)
        #expect(flow.webView.openedExternally == [policy, policy])
        flow.webView.followLink(to: IntegratorStrings.cmpURL)   // the CMP page itself stays in the view
        #expect(flow.webView.openedExternally == [policy, policy])
        #expect(ExternalLinkPolicy.allCases.contains(.openExternally))

        // Offline: the ready timeout shows the bundled page; WebKit then reports the replaced load as cancelled.
        let offline = Flow {
            $0.fallback = try? FallbackPage(files: ["index.html": FallbackPage.File(contents: Data("<p>".utf8))])
        }
        offline.bridge.attach(to: offline.webView)
        offline.bridge.start()
        offline.clock.advance(by: 30)
        offline.webView.deliverPendingEvents()
        let fallbackOrigin = try #require(offline.bridge.configuration.fallback?.origin)
        #expect(offline.webView.loadedURLs.last?.absoluteString.hasPrefix(fallbackOrigin) == true)
        offline.post(#"{"type":"save","tcstring":"\#(IntegratorStrings.analyticsOnly)"}"#, origin: fallbackOrigin)
        #expect(offline.recorder.errors.isEmpty)
        #expect(offline.store.record()?.source == .fallbackPage)
        #expect(ConsentBridge.needsConsentUI(store: offline.store, now: offline.clock.now) == .hostedPageNotShown)
        var keepFallbackConsent = ConsentExpiryPolicy()
        keepFallbackConsent.retriesHostedPage = false
        #expect(ConsentBridge.needsConsentUI(
            store: offline.store, expiry: keepFallbackConsent, now: offline.clock.now) == nil)
    }
}
