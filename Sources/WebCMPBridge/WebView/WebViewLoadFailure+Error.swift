import Foundation

extension WebViewLoadFailure {
    /// A navigation's error as the platform reported it (`NSError` on Apple platforms): its domain and code (the core
    /// tells cancellations and policy interruptions apart, ``kind``) and the URL that failed, taken from the error
    /// (`NSURLErrorFailingURLErrorKey`, else its string form `NSURLErrorFailingURLStringErrorKey`), else
    /// `requestedURL` — never the web view's current URL, which during a replaced load is the next one.
    package init(_ error: any Error, requestedURL: URL?) {
        let nsError = error as NSError
        let failingURL = nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL
            ?? (nsError.userInfo[Self.failingURLStringKey] as? String).flatMap(URL.init(string:))
            ?? requestedURL
        self.init(
            url: failingURL, domain: nsError.domain, code: nsError.code, description: nsError.localizedDescription)
    }

    /// The value of `NSURLErrorFailingURLStringErrorKey`, which WebKit's errors may still carry (the constant is
    /// deprecated in swift-corelibs-foundation, and deprecations are errors here).
    package static let failingURLStringKey = "NSErrorFailingURLStringKey"
}
