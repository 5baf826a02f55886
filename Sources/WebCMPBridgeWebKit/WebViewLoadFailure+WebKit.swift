#if canImport(WebKit)
import Foundation
import WebCMPBridge

extension WebViewLoadFailure {
    /// A navigation's error as WebKit reported it: its domain and code (the core tells cancellations and policy
    /// interruptions apart) and the URL that failed, from the error (`NSURLErrorFailingURLErrorKey`, or its string
    /// form), else `requestedURL` — never the web view's current URL, which during a replaced load is the next one.
    init(_ error: any Error, requestedURL: URL?) {
        let nsError = error as NSError
        let failingURL = nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL
            ?? (nsError.userInfo[NSURLErrorFailingURLStringErrorKey] as? String).flatMap(URL.init(string:))
            ?? requestedURL
        self.init(
            url: failingURL, domain: nsError.domain, code: nsError.code, description: nsError.localizedDescription)
    }
}
#endif
