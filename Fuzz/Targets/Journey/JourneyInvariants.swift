import Foundation

// The promises of issue 36 (1–6) as the journey target's invariants: each a small function over the journey's world,
// called after every step (and at the end of the journey, once everything had time to end). Each traps through
// `fuzzCheck` with the promise's number, so that a crash names what broke.

/// `WEBCMP_JOURNEY_KEEP_GOING=1`: a broken promise is counted (by its number) instead of ending the process, and the
/// counts are printed every 100 000 journeys and at exit: for measuring the target on a tree where promises break.
let journeyKeepGoing = ProcessInfo.processInfo.environment["WEBCMP_JOURNEY_KEEP_GOING"] != nil
@MainActor var journeyViolations: [String: Int] = [:]
/// `WEBCMP_JOURNEY_PROMISE=N`: only promise N ends the process; the others are counted as under
/// `WEBCMP_JOURNEY_KEEP_GOING` (scripts/fuzz-faults checks one promise per deliberate fault this way).
let journeyOnlyPromise = ProcessInfo.processInfo.environment["WEBCMP_JOURNEY_PROMISE"]

extension JourneyWorld {
    /// `fuzzCheck`, with the world's state in the message; counted instead under `WEBCMP_JOURNEY_KEEP_GOING`.
    func journeyCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        guard !condition() else { return }
        let text = message()
        let promise = String(text.prefix { $0 != ":" })
        if journeyKeepGoing || (journeyOnlyPromise != nil && journeyOnlyPromise != promise) {
            journeyViolations[promise + ": " + String(text.drop { $0 != ":" }.dropFirst().prefix(60)), default: 0] += 1
            return
        }
        fuzzCheck(false, "promise \(text)\n   world: \(state)")
    }

    /// Promise 1: "The outcome reaches the app exactly once per presentation, after the run has ended, tracking prompt
    /// included, whether or not the app keeps a reference to the controller, and when SwiftUI tears its sheet down
    /// first." — at a delivery: the run is over, no tracking prompt may be on screen, and it is the first one.
    func checkOutcomeDelivery(_ record: PresentationRecord) {
        journeyCheck(record.deliveries == 1, "1: outcome delivered \(record.deliveries) times to one presentation")
        journeyCheck(record.bridge == nil || record.bridge?.state == .invalidated,
                  "1: outcome delivered before the run ended (bridge \(String(describing: record.bridge?.state)))")
        journeyCheck(!promptMayBeOnScreen, "1: outcome delivered while the tracking prompt may be on screen")
    }

    /// Promise 1, at the end of a journey (everything dismissed, the clock run out): "The outcome reaches the app
    /// exactly once per presentation" — every presentation that was on screen got its outcome.
    func checkEveryOutcomeDelivered() {
        for record in records where record.wasShown {
            journeyCheck(record.deliveries == 1,
                      "1: a presentation that was shown got its outcome \(record.deliveries) times (app holds it: \(record.appHeld))")
        }
    }

    /// Promise 2: "`ConsentGate` never resumes while the consent UI or the kit's tracking prompt may be on screen, and
    /// resumes as soon as neither is. It never waits on a pre-warmed page nobody shows. It answers `consentRequired:
    /// false` as soon as no UI is on screen."
    func checkGate() {
        let decision = kit.gateDecision()
        if decision != nil {
            journeyCheck(!uiMayBeOnScreen, "2: the gate resumed (\(decision!)) while the consent UI may be on screen")
            journeyCheck(!promptMayBeOnScreen, "2: the gate resumed (\(decision!)) while the tracking prompt may be on screen")
        }
        // Liveness: nothing on screen, no prompt, no presented run going on (an untaken pre-warm does not count).
        guard !uiMayBeOnScreen, !promptMayBeOnScreen, records.allSatisfy(\.runIsOver) else { return }
        if !kit.consentRequired {
            journeyCheck(decision == .notRequired, "2: consentRequired false, no UI on screen, the gate answers \(String(describing: decision))")
        } else if kit.configuration.expiry.renewalReason(for: kit.store.record(includingNonTCFData: false), now: kit.clock.now) == nil {
            journeyCheck(decision != nil, "2: consent in force and no UI on screen, yet the gate waits (pre-warm held: \(kit.isPrewarmed))")
        }
    }

    /// Promise 2: "It uses the app's configured migration, and a disabled migration never adopts a previous SDK's
    /// keys."
    func checkMigration() {
        guard !kit.migrationEnabled, seededPreviousSDK else { return }
        journeyCheck(!kit.historyHasMigration(), "2: migration disabled, yet a previous SDK's keys were adopted")
    }

    /// Promise 3: "A tracking answer is never settled while the prompt may be on screen. […] A status still
    /// `.notDetermined` afterwards is not reported as `.denied`."
    func checkTrackingReport(_ status: TrackingAuthorizationStatus) {
        if case .onScreen = kit.tracking.alert {
            journeyCheck(false, "3: tracking answer \(status) settled while the prompt is on screen")
        }
        if case .pending(showIn: .some) = kit.tracking.alert {
            journeyCheck(false, "3: tracking answer \(status) settled while the prompt is about to show")
        }
        journeyCheck(!(status == .denied && kit.tracking.status == .notDetermined),
                  "3: status .notDetermined reported as .denied")
    }

    /// Promise 4: "A second `present(from:)` (a double tap) never tears down the first."
    func checkSecondPresent(_ record: PresentationRecord, wasLive: Bool) {
        guard wasLive else { return }
        journeyCheck(record.bridge?.state != .invalidated || record.deliveries == 1,
                  "4: a second present(from:) ended the first presentation's run")
    }

    /// Promise 4: "A released pre-warm is never shown dead: taking it after its release gives a fresh bridge."
    func checkShownAlive(_ record: PresentationRecord) {
        guard record.wasPrewarmed, let webView = record.webView else { return }
        journeyCheck(!webView.released, "4: a released pre-warmed page was shown (its handlers are gone)")
    }

    /// Promise 4, at the end of a journey: "Every run ends. […] A screen torn down without a dismissal ends its run."
    func checkEveryRunEnded() {
        // A bridge still idle never began a run (a SwiftUI sheet asked for that never appeared). Nor did a session
        // never asked for nor started whose bridge is a taken pre-warm: the pre-warmer started that bridge, loading
        // off-screen (it holds nothing: `BridgeMachine.holdsConsentUI`), and the session's run begins only at its
        // `start()`; the app that keeps such a session keeps the page, as it keeps any view it never shows.
        for record in records where record.bridge?.state != .idle && !record.neverBegan {
            journeyCheck(record.bridge == nil || record.bridge?.state == .invalidated,
                      "4: a run never ended (torn down: \(record.tornDown), state \(String(describing: record.bridge?.state)))")
        }
    }

    /// Promise 5: "A history entry tells a user's choice apart from a CMP re-reporting stored consent on load
    /// (`tcloaded`) […]. Re-reports do not push the user's real choice out of the capped history."
    func checkHistory(lastCommitWasUserChoice: Bool, sameConsentAgain: Bool) {
        let history = kit.consentHistory()
        guard let newest = history.last else { return journeyCheck(false, "5: a commit without a history entry") }
        journeyCheck(sameConsentAgain || kit.saysUserChose(newest) == lastCommitWasUserChoice,
                  "5: the newest history entry says the user chose: \(kit.saysUserChose(newest)); it was \(lastCommitWasUserChoice ? "a user's choice" : "a re-report")")
        if userChoseSinceClear {
            journeyCheck(history.contains(where: kit.saysUserChose), "5: re-reports pushed the user's choice out of the history")
        }
    }

    /// Promise 6: "A page cannot misuse 'open iOS Settings'. It opens through its own path […], never through the
    /// app's external-link opener. […] At most one opening per foreground period." — per page: a presentation's
    /// page (one bridge; a double present keeps it) opens Settings at most once per foreground period. App-wide
    /// this is the same: an opening launches the Settings app (the app leaves for the background: a new period), and
    /// only one consent UI is presented at a time; only an opener that cannot open (an app extension's) leaves the
    /// app in front, where a new presentation's page has its own one opening (SessionPromises.md, promise 6).
    func checkSettingsOpenings(by webView: JourneyWebView) {
        let openings = settingsOpenedThisForeground[ObjectIdentifier(webView), default: 0]
        journeyCheck(openings <= 1, "6: Settings opened \(openings) times in one foreground period by one page")
    }

    /// Promise 6: never through the external-link opener.
    func checkNavigationDecision(_ decision: NavigationDecision) {
        if case .openExternally(let url) = decision {
            journeyCheck(url.scheme?.lowercased() != "app-settings", "6: app-settings: handed to the external-link opener")
        }
    }
}
