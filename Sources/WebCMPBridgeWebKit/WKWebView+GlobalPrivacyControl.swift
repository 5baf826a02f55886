#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge

/// The last URL each web view re-issued with `Sec-GPC: 1` (the core's loop guard), dropped with the web view.
@MainActor private let navigationGuards = NSMapTable<WKWebView, GPCNavigationGuardBox>.weakToStrongObjects()

/// A reference box for the value guard, so the weak-keyed map can hold it.
@MainActor private final class GPCNavigationGuardBox {
    var state = GPCNavigationGuard()
}

extension WKWebView {
    /// Whether this content web view sends Global Privacy Control: the kit's all-frames GPC script is installed
    /// (``preloadConsent(from:)`` and ``preloadConsent(from:sharing:)`` install it when the signal is on for the
    /// stored consent, and remove it when it is not).
    @MainActor
    public var sendsGlobalPrivacyControl: Bool {
        let script = ConsentSharing.globalPrivacyControlScript().source
        return configuration.userContentController.userScripts.contains { $0.source == script }
    }

    /// Adds `Sec-GPC: 1` to the page's own main-frame navigations where WebKit allows it. Call it first in your
    /// `WKNavigationDelegate`'s `webView(_:decidePolicyFor:decisionHandler:)` and return when it answers `.cancel`:
    ///
    /// ```swift
    /// func webView(_ webView: WKWebView, decidePolicyFor action: WKNavigationAction,
    ///              decisionHandler: @escaping @MainActor (WKNavigationActionPolicy) -> Void) {
    ///     if webView.globalPrivacyControlPolicy(for: action) == .cancel { return decisionHandler(.cancel) }
    ///     decisionHandler(.allow)
    /// }
    /// ```
    ///
    /// WebKit has no way to add a header to a navigation it is about to perform (`WKNavigationAction.request` is a
    /// read-only copy; the decision handler only allows or cancels), so a navigation that should carry the header is
    /// cancelled and the same `URLRequest` (URL, method, other header fields) is loaded with it, which is a new
    /// navigation with a history entry of its own. **GPC never changes how a page navigates**, so the core's
    /// ``GPCNavigationGuard`` re-issues only a user's link activation: a main-frame GET without a body of type
    /// `.linkActivated`. Scripts' navigations, `location.replace`, meta refresh and redirects (`.other`), form
    /// submissions (the GET after a POST included), form resubmissions, reloads, back/forward navigations and frame
    /// navigations go ahead without the header (re-issuing them would add history entries, send a body again or
    /// replace the main document), and a re-issued request that comes back without the header goes ahead, so it never
    /// loops. Nothing happens while ``sendsGlobalPrivacyControl`` is `false`.
    ///
    /// Relies on: `WKNavigationAction.navigationType` (`WKNavigationType.linkActivated`: "A link with an href
    /// attribute was activated", `WKNavigationAction.h`), `WKNavigationAction.targetFrame` ("If the target of the
    /// navigation is a new window, this property is `nil`": such actions are never re-issued) and
    /// `WKFrameInfo.isMainFrame` (<https://developer.apple.com/documentation/webkit/wknavigationaction/targetframe>);
    /// the header on a `load(_:)` of a `URLRequest` is verified in WebKitGTK only (the same `WebKitURIRequest` path),
    /// not on a device.
    @MainActor
    public func globalPrivacyControlPolicy(for action: WKNavigationAction) -> WKNavigationActionPolicy {
        let request = action.request
        let box = navigationGuards.object(forKey: self) ?? GPCNavigationGuardBox()
        navigationGuards.setObject(box, forKey: self)
        let decision = box.state.decide(
            GPCNavigationGuard.Action(
                url: request.url, httpMethod: request.httpMethod,
                hasBody: request.httpBody != nil || request.httpBodyStream != nil,
                gpcHeader: request.value(forHTTPHeaderField: GlobalPrivacyControl.headerName),
                isMainFrame: action.targetFrame?.isMainFrame, kind: Self.kind(action.navigationType), currentURL: url),
            enabled: sendsGlobalPrivacyControl)
        guard decision == .reissueWithHeader else { return .allow }
        var reissued = request
        reissued.setValue(GlobalPrivacyControl.headerValue, forHTTPHeaderField: GlobalPrivacyControl.headerName)
        load(reissued)
        return .cancel
    }

    /// The core's kind of a WebKit navigation type.
    private static func kind(_ type: WKNavigationType) -> GPCNavigationGuard.Action.Kind {
        switch type {
        case .linkActivated: return .linkActivated
        case .formSubmitted: return .formSubmitted
        case .backForward: return .backForward
        case .reload: return .reload
        case .formResubmitted: return .formResubmitted
        case .other: return .other
        @unknown default: return .reload  // unknown kinds are never re-issued
        }
    }
}
#endif
