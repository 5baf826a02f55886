/// What `webcmp-host --help` prints, and the usage errors show.
let usage = """
    usage: webcmp-host run URL [--dialect gravito|onesecondbefore|tcf|auto] [--click ID ...] [--state DIR]
                               [--timeout S] [--settle S] [--allow-origin ORIGIN ...] [--eval EXPRESSION ...] [--json]
                               [--raw] [--settings [--settings-url URL] [--settings-call CALL | --settings-preset NAME]
                               [--sourcepoint-pm ID] [--sourcepoint-usnat-pm ID]]
                               [--fallback FILE] [--terminate-web-process] [--app-context] [--size WxH]
                               [--slow-factor F]
           webcmp-host check URL [--dialect …] [--click ID ...] [--timeout S] [--settle S] [--settings]
                                 [--settings-url URL] [--settings-call CALL | --settings-preset NAME] [--fallback FILE]
                                 [--screenshot DIR [--size WxH]] [--raw] [--slow-factor F]
           webcmp-host share URL --state DIR [--content-origin ORIGIN ...] [--preset NAME ...]
                                 [--seed cookie|localStorage:NAME:VALUE ...] [--update-from DIR] [--eval EXPRESSION ...]
                                 [--gpc automatic|always|never] [--settle S] [--json]
           webcmp-host prewarm URL [--dialect …] [--click ID ...] [--state DIR] [--settle S] [--fallback FILE]
           webcmp-host reset URL --state DIR        (QA reset: consent and the page's website data)
           webcmp-host reject-all --state DIR       (programmatic reject-all of the stored consent)
           webcmp-host selftest-escaping [--count N]
           webcmp-host bench [URL] [--saves N=200] [--json]
           webcmp-host sharing-cost [--pairs N=200] [--with-frame] [--long-page] [--tc-string-only] [--json]
           webcmp-host soak [URL] [--saves N=10000] [--cycles M=200] [--minimal-bodies] [--retain-bridges] [--json]

    run    loads a hosted CMP page in real WebKit (WebKitGTK) through the WebCMPBridge bridge, clicks the given
           element ids in order once the page is ready, and prints the event log and the stored IAB keys.
           --json prints exactly one JSON object {"events": [...], "keys": {...}}; with --eval, also "eval": the
           values of the given JavaScript expressions in the page at the end of the run. Without --json, long bit
           fields and restriction strings (IABTCF_VendorConsents …) are printed as their length, how many positions
           are set and the first ids set; --raw prints the exact values.
           The run ends when the CMP UI finishes. Without --click it lasts at most --timeout seconds (default 30;
           also the ready timeout), so a page that saves late is still stored; after the clicks it also ends once
           the page has been quiet (no event) for --settle seconds (default 1). Links the page opens away from
           itself are logged as {"type": "openedExternally", "url": …} instead of opening a browser.
           --click clicks only what a person could click; an element that is there but not clickable is waited for
           while it (or an ancestor or descendant) still animates in, then given 3 s more before the click fails.
           --slow-factor F (1 to 20, default 1) multiplies that grace, --settle and each privacy-settings opener's
           window, for loaded machines such as shared CI runners: a slow CMP must not read as a non-conforming one.
           --app-context sends a fixed app context (AppContext: platform other, language with quotes and </script>,
           ATT denied after notDetermined, dark, accessibility2, Reduce Motion) as query items and window.webcmpAppContext.
           --terminate-web-process ends the page's web content process once when it is first ready (before any
           click), as iOS does to apps in the background: the bridge reloads the page once.
    check  a conformance report for a hosted CMP page; exit 0 when it conforms, 1 when not, 2 for usage errors.
           Each of its runs ends by the same rule as run's.
           It also reports whether the page reports gdprApplies, whether GPP-only consent was captured and whether
           "Privacy settings" works (the page reopened in settings mode with the stored consent stays open), and
           whether the saved TC string carries the DisclosedVendors segment TCF 2.3 requires of strings created on or
           after 2026-02-28 (row "TCF 2.3: disclosed vendors present"; FAIL when it does not).
    --screenshot DIR  (check) also writes PNG pictures of the page as an app user sees it on a phone, so the CMP
           page's owner can look at them: DIR/first-layer-light.png, first-layer-dark.png (the first layer, nothing
           stored), settings-light.png, settings-dark.png (settings mode, with the consent the check stored), each
           in its own run without clicks once the page shows its UI, its document is complete, its fonts are loaded
           and it has been quiet for 0.5 s; dark = the page sees prefers-color-scheme: dark. DIR is created if
           missing. Each file is a row (FAIL with the reason when it cannot be taken, has another size or the page
           saw the other color scheme); the report lists the files written.
    --size WxH  the web view's size in pixels (default 390x844, a phone); with --screenshot, the pictures' size.
    --settings  opens the page in settings mode (ConsentUIMode.settings: the stored record is injected and the
           dialect's PrivacySettingsOpener applies, e.g. layer=settings or __tcfapi('displayConsentUi')).
           --settings-url URL opens that page instead (PrivacySettingsOpener(url:); its origin is allowed).
           --settings-call CALL makes that call in the page once it is ready, like the app's PrivacySettingsCall:
           a function path from window and JSON arguments, e.g. 'Didomi.preferences.show()',
           '_sp_.gdpr.loadPrivacyManagerModal(123456)' or '__tcfapi("displayConsentUi", 2, callback)' (a last
           argument `callback` passes a callback whose success: false is a refusal). --settings-preset NAME uses a
           preset: didomi, cookiebot, osano, complianz, cookieyes, klaro, cookieconsent, tarteaucitron, onetrust,
           usercentrics, trustarc, iubenda, axeptio, ketch, fides, sirdata, consentmanager, termly, google, tcf.
           --sourcepoint-pm ID (--sourcepoint-usnat-pm ID) gives Sourcepoint's privacy manager id, as an app sets
           PrivacySettingsOpener.sourcepointPrivacyManagerID: _sp_.gdpr (_sp_.usnat).loadPrivacyManagerModal(ID) is
           tried first. Without either, the opener of the dialect (given, or detected when the page is ready) applies: a
           generic TCF page (also in automatic detection) gets __tcfapi('displayConsentUi'), then each preset whose
           function the page has. An opener is called again every 0.25 s until the CMP shows its UI, for at most 3 s,
           before the next is tried. The settings count as open only when the CMP shows its UI (cmpuishown, a TCF
           ping's displayStatus visible, GPP cmpDisplayStatus visible, or a preset's own event such as OneTrust's
           OneTrustPCLoaded; on Gravito and Onesecondbefore pages the same signals of their TCF/GPP API); otherwise the error privacySettingsNotOpened (consent unchanged).
    share  loads a content page as an app's content web view would, with the stored consent shared into it: the
           configured first-party entries seeded (cookie manager before loading, and a main-frame document-start
           script for the content origins; default origin: the URL's; default preset: euconsent-v2; presets:
           euconsent-v2, didomi, onetrust), plus the native-backed __tcfapi/__gpp/__uspapi for pages without a
           CMP (main frame only; the page's iframes are answered through the IAB locator frames and postMessage).
           Waits for the page to settle (--settle S, default 1) and prints what the page's own
           __tcfapi('getTCData') and ping return, whether its CMP showed UI, its __gpp ping, what its storage holds
           under the configured names, and with --eval the values of the expressions ("eval").
    --gpc automatic|always|never  (share) Global Privacy Control: navigator.globalPrivacyControl === true in every
           frame and Sec-GPC: 1 on the page's request; automatic (default): when the stored consent says the user
           opted out of sale or sharing (US Privacy opt-out Y, a GPP US section's SaleOptOut or SharingOptOut 1).
    --update-from DIR  (share) after the page settled, hands it the consent stored in DIR as an app does when
           consent changed (the sharing update script, in the main frame; listeners in the page and in its
           iframes are notified), waits --settle seconds again, then reports.
    --fallback FILE  serves FILE as the app's fallback page (webcmp-fallback://app/<name>) when URL fails; without
           URL, run and check use an unreachable loopback URL, so check reports whether FILE works as a fallback.
    prewarm  loads URL off-screen through a ConsentPrewarmer, presents it once ready (no new load), clicks, and
           prints JSON: events before/after presenting, keys, the history's provenance (source/action, oldest
           first), loads before/after, presentToReadyMs. After the clicks (or presenting, without clicks) it ends by
           run's rule: when the CMP UI finishes, or once the page has been quiet for --settle seconds. When the page
           finished off-screen (it saved on its own before any UI showed it), exit 1 with the error, keys and history.
    bench  real-engine save round trip (page save → keys stored → page acknowledged), median and p90, and load →
           ready for a cold vs a pre-warmed web view. Default page: SampleHost/index.html?dialect=gravito.
    sharing-cost  what the consent sharing scripts cost a content page: its DOMContentLoaded time with and without
           them (same page, --pairs N paired loads, alternating order), mean of the differences against 1 ms; exit 1
           when missed. Beside it the scripts' own parse + run time and the cost to the load event; --with-frame: the
           page has an iframe of its own (the sharing script then adds its locator frames); --long-page: 4,000
           paragraphs instead of 40, parsed in several chunks; --tc-string-only: the stored record has a TC string
           only (the usual record in the EU: one locator frame, not three).
    soak   memory of the host process over N saves in one page session, and over M create → load → save →
           invalidate cycles; exit 1 when a target is missed. --minimal-bodies posts {type: "save", tcstring} only
           (JavaScriptCore then collects the message values less often: resident memory rises between collections).
           --retain-bridges is the check's own check: it keeps every cycle's bridge alive after invalidate(), as a
           retain cycle would, so part (b) must fail.
    --state DIR  the app's own data: the stored consent (DIR/defaults.json) and the web views' website data
           (DIR/website-data: local storage, cookies, caches), as an app's sandbox keeps them. Without --state both
           live in memory only, so runs never see each other's data.
    Run under a display: xvfb-run -a webcmp-host …
    """
