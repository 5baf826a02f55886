#if canImport(WebKit)
import Foundation
import WebKit
import WebCMPBridge

extension WKWebView {
    /// Loads `request` in a content web view with the stored consent shared into it: the URL gets
    /// `_sp_pass_consent=true` (query and fragment kept) and ``preloadConsent(from:)`` installs the sharing script.
    @MainActor
    @discardableResult
    public func loadSharingConsent(_ request: URLRequest, from store: ConsentStore) -> WKNavigation? {
        preloadConsent(from: store)
        var request = request
        if let url = request.url { request.url = URLRewriting.passingConsent(url) }
        return load(request)
    }

    /// Installs (or replaces) the consent sharing user script built by the core (`ConsentSharing`), and updates a
    /// page that is already loaded. Idempotent: earlier sharing scripts are removed first, other scripts are kept,
    /// so calling it again after consent changed never leaves two scripts or stale consent.
    @MainActor
    public func preloadConsent(from store: ConsentStore) {
        let record = store.record()
        let keys = store.iabKeys()
        let controller = configuration.userContentController
        let others = controller.userScripts.filter { !ConsentSharing.isSharingScript($0.source) }
        if others.count != controller.userScripts.count {
            controller.removeAllUserScripts()
            others.forEach(controller.addUserScript)
        }
        let script = ConsentSharing.userScript(record: record, keys: keys)
        controller.addUserScript(WKUserScript(
            source: script.source, injectionTime: .atDocumentStart, forMainFrameOnly: script.forMainFrameOnly))
        evaluateJavaScript(ConsentSharing.updateScript(record: record, keys: keys), completionHandler: nil)
    }
}
#endif
