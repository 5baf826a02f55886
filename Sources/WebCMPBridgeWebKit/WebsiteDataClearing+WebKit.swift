#if canImport(WebKit)
import WebKit
import WebCMPBridge

extension WebsiteDataClearing {
    /// Removes every kind of website data `WKWebsiteDataStore.default()` keeps for the hosts of the given origins
    /// (records whose display name is the host or a parent domain of it): what ``ConsentBridge/resetForQA(store:configuration:websiteData:)``
    /// needs on Apple platforms. Use ``webKit(_:)`` for a web view with its own data store.
    @MainActor public static var webKit: WebsiteDataClearing { webKit(.default()) }

    /// The same for `dataStore`.
    @MainActor public static func webKit(_ dataStore: WKWebsiteDataStore) -> WebsiteDataClearing {
        WebsiteDataClearing { origins in
            let hosts = WebsiteDataClearing.hosts(of: origins)
            guard !hosts.isEmpty else { return }
            let types = WKWebsiteDataStore.allWebsiteDataTypes()
            let records = await dataStore.dataRecords(ofTypes: types)
            let matching = records.filter { WebsiteDataClearing.record(named: $0.displayName, isFor: hosts) }
            guard !matching.isEmpty else { return }
            await dataStore.removeData(ofTypes: types, for: matching)
        }
    }
}
#endif
