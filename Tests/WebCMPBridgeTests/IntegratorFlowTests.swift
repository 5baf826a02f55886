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
    /// The log line an app writes for an error (its `code` is stable; its description is for logs only).
    static func logLine(for error: ConsentBridgeError) -> String {
        let detail: String
        switch error {
        case .timeout(let seconds): detail = "no ready message in \(seconds) s"
        case .invalidMessage(let handler, let reason): detail = "\(handler): \(Self.describe(reason))"
        case .forbiddenOrigin(let handler, let origin): detail = "\(handler) from \(origin)"
        case .notMainFrame(let handler): detail = "\(handler) from a frame"
        case .unexpectedDialect(let handler, let expected): detail = "\(handler), page speaks \(expected.rawValue)"
        case .invalidConsent(let reason): detail = Self.describe(reason)
        case .missingDisclosedVendors(let created): detail = "TCF 2.3 string of \(created) without disclosed vendors"
        case .storageFailed(let reason): detail = Self.describe(reason)
        case .loadFailed(let failure):
            detail = "\(failure.url?.absoluteString ?? "?") \(failure.statusCode ?? 0) \(failure.reason)"
        case .webContentTerminated: detail = "web content terminated"
        case .webViewSetupFailed(let reason): detail = Self.describe(reason)
        case .privacySettingsNotOpened(let reason): detail = reason
        case .trackingAuthorizationFailed(let reason): detail = Self.describe(reason)
        }
        return (error.isSecurityEvent ? "SECURITY " : "") + error.code.rawValue + ": " + detail
    }

    static func describe(_ error: InboundMessageError) -> String {
        switch error {
        case .tooLarge(let bytes, let limit): return "\(bytes) > \(limit) bytes"
        case .tooDeep(let limit): return "deeper than \(limit)"
        case .stringTooLong(let bytes, let limit): return "string \(bytes) > \(limit)"
        case .tooManyElements(let count, let limit): return "\(count) > \(limit) elements"
        case .malformedJSON(let reason, let offset): return "bad JSON at \(offset): \(reason)"
        case .unsupportedValue(let value): return "unsupported \(value)"
        case .notAnObject: return "not an object"
        case .unknownMessageType(let type): return "unknown type \(type ?? "none")"
        case .invalidField(let field, let expected): return "\(field) is not \(expected)"
        case .missingField(let field): return "no \(field)"
        case .unknownHandler(let handler): return "unknown handler \(handler)"
        }
    }

    static func describe(_ error: ConsentCommitError) -> String {
        switch error {
        case .noConsent: return "no consent"
        case .notServiceSpecific: return "not service-specific"
        case .invalidMapping(let mapping): return describe(mapping)
        case .missingDisclosedVendors(let created): return "no disclosed vendors (\(created))"
        }
    }

    static func describe(_ error: IABMappingError) -> String {
        switch error {
        case .invalidTCString(let reason): return "TC string: \(describe(reason))"
        case .invalidAdditionalConsent(let reason): return "AC string: \(reason.description)"
        case .invalidGPPString(let reason): return "GPP string: \(reason.description)"
        case .invalidGPPSection(let id, let reason): return "GPP section \(id): \(reason)"
        case .invalidGPPTCFSection(let reason): return "GPP TCF section: \(describe(reason))"
        case .invalidGPPUSSection(let reason): return "GPP US section: \(reason.description)"
        case .invalidUSPrivacy(let value): return "US Privacy \(value)"
        case .invalidCMPSDKID(let id): return "CMP SDK id \(id)"
        case .invalidCMPSDKVersion(let version): return "CMP SDK version \(version)"
        case .invalidApplicableSection(let id): return "applicable section \(id)"
        }
    }

    static func describe(_ error: TCStringError) -> String { error.description }

    static func describe(_ error: ConsentStoreError) -> String {
        switch error {
        case .foreignKey(let key): return "foreign key \(key.rawValue)"
        case .wrongValueType(let key, let expected, let found):
            return "\(key) should be \(expected.rawValue), is \(found.rawValue)"
        case .invalidValue(let key, let value): return "\(key) = \(value)"
        case .tooLarge(let bytes, let limit): return "\(bytes) > \(limit)"
        case .recordNotEncodable(let reason): return reason
        case .storageUnavailable(let suiteName): return "no suite \(suiteName ?? "standard")"
        }
    }

    static func describe(_ error: WebViewSetupError) -> String { error.description }

    static func describe(_ error: TrackingAuthorizationError) -> String {
        switch error {
        case .missingUsageDescription: return "add NSUserTrackingUsageDescription"
        case .unavailable(let reason): return reason
        }
    }

    /// An app with its own consent UI: the text it shows for an error that ends the UI, in its own localization
    /// (keyed by ``ConsentBridgeError/userFacingMessageKey``), falling back to the kit's English.
    static func message(for error: ConsentBridgeError, localized: [String: String]) -> String? {
        guard error.endsUI else { return nil }
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

/// Collects a bridge's events as a delegate does.
@MainActor
final class EventRecorder: ConsentBridgeDelegate {
    var events: [ConsentBridgeEvent] = []
    func bridge(_ bridge: ConsentBridge, didReceive event: ConsentBridgeEvent) { events.append(event) }

    var errors: [ConsentBridgeError] { events.compactMap { if case .error(let error) = $0 { error } else { nil } } }
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
            bridge.delegate = recorder
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
            .forbiddenOrigin, .notMainFrame, .invalidMessage, .unexpectedDialect, .invalidTCString,
        ])
        #expect(flow.recorder.errors.map(\.isSecurityEvent) == [true, true, false, false, false])
        #expect(flow.recorder.errors.allSatisfy { !$0.endsUI })
        let lines = flow.recorder.errors.map(AppConsentHandling.logLine(for:))
        #expect(lines[0].hasPrefix("SECURITY forbiddenOrigin: jsHandler"))
        #expect(lines[3] == "unexpectedDialect: osbCmpMessageHandler, page speaks gravito")
        #expect(lines[4].hasPrefix("invalidTCString: TC string:"))
        #expect(flow.recorder.errors.allSatisfy { AppConsentHandling.message(for: $0, localized: [:]) == nil })
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
        #expect(refuse.recorder.codes == [.missingDisclosedVendors])
        let error = try #require(refuse.recorder.errors.first)
        #expect(error == .missingDisclosedVendors(created: Date(timeIntervalSince1970: 1_772_409_600)))
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
        let timedOut = try #require(timeout.recorder.errors.first)
        #expect(timedOut == .timeout(seconds: 30))
        #expect(timedOut.endsUI)
        #expect(UIFinishReason.timedOut.keepsErrorOnScreen && !UIFinishReason.closed.keepsErrorOnScreen)
        #expect(timedOut.userFacingMessageKey == "WebCMPBridge.error.notLoaded")
        #expect(timedOut.userFacingMessage
            == "The privacy settings could not be loaded. Check your connection and try again.")
        #expect(AppConsentHandling.message(for: timedOut, localized: [timedOut.userFacingMessageKey: "Nicht geladen."])
            == "Nicht geladen.")
        #expect(!timedOut.description.isEmpty)

        let http = Flow()
        http.bridge.attach(to: http.webView)
        http.bridge.start()
        http.webView.respond(statusCode: 503)
        let loadFailed = try #require(http.recorder.errors.first)
        guard case .loadFailed(let failure) = loadFailed else { Issue.record("\(loadFailed)"); return }
        #expect(failure.url == IntegratorStrings.cmpURL)
        #expect(failure.statusCode == 503)
        #expect(AppConsentHandling.logLine(for: loadFailed).hasPrefix("loadFailed: \(IntegratorStrings.cmpURL) 503"))
        #expect(WebViewLoadError(url: nil, reason: "offline").description == "offline")

        let offline = Flow()
        offline.bridge.attach(to: offline.webView)
        offline.bridge.start()
        offline.webView.failLoading()
        #expect(offline.recorder.codes == [.loadFailed])

        let crashing = Flow()
        crashing.bridge.attach(to: crashing.webView)
        crashing.bridge.start()
        crashing.post(#"{"type":"CMP-loaded"}"#)
        crashing.webView.terminateContentProcess()   // reloaded once
        #expect(crashing.webView.loads.count == 2)
        crashing.webView.terminateContentProcess()   // again before the reloaded page was ready
        #expect(crashing.recorder.errors.last == .webContentTerminated)
        #expect(crashing.recorder.errors.last?.userFacingMessageKey == "WebCMPBridge.error.stopped")

        let taken = Flow()
        taken.webView.foreignHandlerNames = ["jsHandler"]   // the app registered a handler of that name itself
        taken.bridge.attach(to: taken.webView)
        taken.bridge.start()
        #expect(taken.recorder.errors.first == .webViewSetupFailed(.messageHandlerNameInUse("jsHandler")))
        #expect(taken.webView.loads.isEmpty)
        #expect(taken.recorder.errors.first?.userFacingMessageKey == "WebCMPBridge.error.unavailable")

        #expect(ConsentBridgeError.Code.allCases.count == 14)
    }

    @Test func trackingBeforeTheCMPAndAFailingClient() async throws {
        let before = Flow { $0.tracking = .beforeCMP }
        before.tracking.active = false   // the app is not active yet: the request waits
        before.tracking.settlesStatusOnRequest = false   // iOS 17.4: `.denied` while the alert is still up
        before.tracking.answer = .denied
        before.bridge.attach(to: before.webView)
        before.bridge.start()
        await yieldUntil { before.tracking.waitingCount > 0 }
        #expect(before.webView.loads.isEmpty, "the prompt comes first")
        before.tracking.becomeActive()
        await yieldUntil { before.tracking.requests == 1 }
        for _ in 0..<20 { await Task.yield() }   // the request's task hands its answer to the bridge
        before.webView.resignActive()          // the alert is on screen
        #expect(before.webView.loads.isEmpty, "an early denial settles first")
        before.tracking.status = .authorized   // the user's real answer
        before.webView.becomeActive()          // the alert is gone: the status is read again
        await yieldUntil { !before.webView.loads.isEmpty }
        #expect(before.recorder.events.first == .trackingAuthorization(.authorized))
        #expect(TrackingPolicy.beforeCMP != TrackingPolicy.disabled)

        let failing = TrackingAuthorizer(
            status: { .notDetermined },
            request: { () async throws(TrackingAuthorizationError) -> TrackingAuthorizationStatus in
                throw .missingUsageDescription
            },
            waitUntilActive: {})
        let webView = FakeWebView()
        let recorder = EventRecorder()
        var configuration = BridgeConfiguration(cmpURL: IntegratorStrings.cmpURL, dialect: .gravito)
        configuration.tracking = .afterConsent(marketingPurposes: [1])
        let bridge = ConsentBridge(
            configuration: configuration, store: .inMemory(), scheduler: ManualScheduler(),
            trackingAuthorizer: failing)
        bridge.delegate = recorder
        let stream = bridge.events()
        bridge.attach(to: webView)
        bridge.start()
        webView.post("jsHandler", json: #"{"type":"save","tcstring":"\#(IntegratorStrings.analyticsOnly)"}"#,
                     origin: IntegratorStrings.cmpOrigin)
        webView.post("jsHandler", json: #"{"type":"close"}"#, origin: IntegratorStrings.cmpOrigin)
        for await _ in stream {}
        #expect(recorder.errors == [.trackingAuthorizationFailed(.missingUsageDescription)])
        #expect(AppConsentHandling.logLine(for: recorder.errors[0])
            == "trackingAuthorizationFailed: add NSUserTrackingUsageDescription")
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
