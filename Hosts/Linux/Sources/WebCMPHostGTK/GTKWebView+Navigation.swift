import CWebKitGTK
import Foundation
import WebCMPBridge

/// Navigation policy and the main document's HTTP status on WebKitGTK (`decide-policy`).
///
/// WebKitGTK's navigation-action decision does not say whether the main frame or a sub-frame navigates, but its
/// response decision does (`webkit_response_policy_decision_is_main_frame_main_resource`). So:
/// - a new-window action (`target="_blank"`, `window.open`) is asked as ``NavigationRequest/opensNewWindow`` and, unless
///   allowed, ignored (no window opens; the adapter connects no `create` handler, so none could);
/// - a navigation action to an `http(s)`, `file`, `about`, `data` or `blob` URL goes ahead to its response: only there
///   is it known to be the main frame's document, and then its status is reported (``WebViewEvent/didReceiveResponse(_:statusCode:)``)
///   and the policy is asked — a main-frame document the policy does not allow is ignored, so the CMP page stays (the
///   request to the other origin has been sent by then, but nothing of it is shown);
/// - a navigation action to any other scheme (`mailto:`, `tel:`, `javascript:`, custom) has no response: it is asked
///   as a main-frame navigation at once.
/// - `window.open` (the `create` signal): asked as a new window; no web view is created.
/// ``NavigationDecision/openExternally(_:)`` stops the navigation and hands the URL to ``openExternally``.
extension GTKWebView {
    /// Decides one `decide-policy` signal; `true` when it was handled (used or ignored), `false` for WebKit's default.
    func decidePolicy(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType) -> Bool {
        switch type {
        case WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION, WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION:
            let navigation = UnsafeMutableRawPointer(decision).assumingMemoryBound(to: WebKitNavigationPolicyDecision.self)
            guard let action = webkit_navigation_policy_decision_get_navigation_action(navigation),
                let request = webkit_navigation_action_get_request(action)
            else { return false }
            let url = webkit_uri_request_get_uri(request).flatMap { URL(string: String(cString: $0)) }
            let newWindow = type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION
            if !newWindow, let scheme = url?.scheme?.lowercased(), Self.schemesDecidedAtResponse.contains(scheme) {
                return false
            }
            return carryOut(NavigationRequest(url: url, isMainFrame: true, opensNewWindow: newWindow), decision)
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            let response = UnsafeMutableRawPointer(decision).assumingMemoryBound(to: WebKitResponsePolicyDecision.self)
            guard webkit_response_policy_decision_is_main_frame_main_resource(response) != 0,
                let request = webkit_response_policy_decision_get_request(response)
            else { return false }
            let url = webkit_uri_request_get_uri(request).flatMap { URL(string: String(cString: $0)) }
            let navigation = NavigationRequest(url: url, isMainFrame: true)
            if let policy = navigationPolicy, policy(navigation) != .allow {
                return carryOut(navigation, decision)
            }
            if let answer = webkit_response_policy_decision_get_response(response),
                let scheme = url?.scheme?.lowercased(), scheme == "http" || scheme == "https"
            {
                eventHandler?(.didReceiveResponse(
                    url, statusCode: Int(webkit_uri_response_get_status_code(answer)), load: activeLoad))
            }
            return false
        default:
            return false
        }
    }

    /// Lets scripts open windows without a user gesture (WebKitGTK's `javascript-can-open-windows-automatically`), so
    /// that `window.open` from a scripted click (the host's `--click`, which WebKit does not count as a gesture) reaches
    /// the navigation policy like a user's tap does in an app. The policy still decides every new window (the core
    /// never lets one open). Off by default, as in WebKit.
    package var allowsScriptsToOpenWindows: Bool {
        get { webkit_settings_get_javascript_can_open_windows_automatically(webkit_web_view_get_settings(view)) != 0 }
        set { webkit_settings_set_javascript_can_open_windows_automatically(webkit_web_view_get_settings(view), newValue ? 1 : 0) }
    }

    /// Whether `error` is WebKit's "frame load interrupted by policy change": the end of a main-frame load that
    /// ``decidePolicy(_:type:)`` ignored (the CMP page stays). Reported like any failure (the core knows it is none).
    nonisolated static func isInterruptedByPolicy(_ error: UnsafeMutablePointer<GError>) -> Bool {
        error.pointee.domain == webkit_policy_error_quark()
            && error.pointee.code == Int32(WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE.rawValue)
    }

    /// `window.open`: WebKitGTK asks for a new web view (`create`) without a new-window policy decision. It is asked
    /// as a new-window request; no web view is ever created (the signal returns `NULL`).
    func windowRequested(_ action: OpaquePointer) {
        guard let request = webkit_navigation_action_get_request(action) else { return }
        let url = webkit_uri_request_get_uri(request).flatMap { URL(string: String(cString: $0)) }
        if case .openExternally(let target) = navigationPolicy?(NavigationRequest(url: url, isMainFrame: true, opensNewWindow: true)) {
            openExternally?(target)
        }
    }

    /// URL schemes whose main-frame navigations are decided when their response arrives.
    static let schemesDecidedAtResponse: Set<String> = ["http", "https", "file", "about", "data", "blob"]

    private func carryOut(_ request: NavigationRequest, _ decision: UnsafeMutablePointer<WebKitPolicyDecision>) -> Bool {
        switch navigationPolicy?(request) ?? .allow {
        case .allow:
            webkit_policy_decision_use(decision)
        case .cancel:
            webkit_policy_decision_ignore(decision)
        case .openExternally(let url):
            webkit_policy_decision_ignore(decision)
            openExternally?(url)
        }
        return true
    }
}

private let decidePolicyFunction: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitPolicyDecision>?, UInt32, UnsafeMutableRawPointer?) -> Int32 = {
    _, decision, type, userData in
    guard let userData, let pointer = decision else { return 0 }
    // GLib calls this on the main thread; the decision object lives for the duration of the call.
    nonisolated(unsafe) let decision = pointer
    let box = Unmanaged<CallbackBox>.fromOpaque(userData).takeUnretainedValue()
    return MainActor.assumeIsolated {
        box.target?.decidePolicy(decision, type: WebKitPolicyDecisionType(rawValue: type)) == true ? 1 : 0
    }
}
let decidePolicyCallback = unsafeBitCast(decidePolicyFunction, to: GCallback.self)

private let createFunction: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = {
    _, action, userData in
    guard let userData, let pointer = action else { return nil }
    nonisolated(unsafe) let action = pointer  // valid for the duration of the call, on the main thread
    let box = Unmanaged<CallbackBox>.fromOpaque(userData).takeUnretainedValue()
    MainActor.assumeIsolated { box.target?.windowRequested(action) }
    return nil
}
let createCallback = unsafeBitCast(createFunction, to: GCallback.self)
