import Foundation

/// Removes a web view engine's stored website data (cookies, local storage, IndexedDB, caches …) for given origins:
/// what a CMP page keeps about the user on its own side. Each platform provides one (`WebsiteDataClearing.webKit` on
/// Apple platforms, `GTKWebView.websiteDataClearing` in the Linux host); tests use a closure.
public struct WebsiteDataClearing: Sendable {
    /// Removes the data of every origin (`scheme://host[:port]`) of the set; returns when it is gone.
    public var clear: @MainActor @Sendable (_ origins: Set<String>) async -> Void

    /// Creates a client from its operation.
    public init(clear: @escaping @MainActor @Sendable (_ origins: Set<String>) async -> Void) {
        self.clear = clear
    }

    /// Removes nothing.
    public static let none = WebsiteDataClearing { _ in }

    /// The host names of `origins` (website data is kept per host name by WebKit's data managers).
    package static func hosts(of origins: Set<String>) -> Set<String> {
        Set(origins.compactMap { URL(string: $0)?.host?.lowercased() })
    }

    /// Whether the website data record called `name` (WebKit names a record by a host or a domain) holds data of one
    /// of `hosts`: it is one of them or a parent domain of one. The one rule of the platforms' clearing
    /// (`WebsiteDataClearing.webKit`, `GTKWebView.websiteDataClearing`).
    package static func record(named name: String, isFor hosts: Set<String>) -> Bool {
        hosts.contains { $0 == name || $0.hasSuffix("." + name) }
    }
}

extension ConsentBridge {
    /// Resets consent for QA: ``IABInAppConsent/ConsentStore/clearAll()`` and the CMP page's own website data for the configured
    /// origins (``BridgeConfiguration/allowedOrigins``, by default the CMP URL's), so the next run is a first run in
    /// the app and in the page. Consent a previous SDK left in `UserDefaults` is not adopted again
    /// (``IABInAppConsent/ConsentStore/migrationCheckedKey`` stays).
    public static func resetForQA(
        store: ConsentStore, configuration: BridgeConfiguration, websiteData: WebsiteDataClearing
    ) async {
        store.clearAll()
        await websiteData.clear(configuration.allowedOrigins)
    }
}
