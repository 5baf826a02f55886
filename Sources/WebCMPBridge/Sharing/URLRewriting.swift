import Foundation

/// Query-item rewriting for CMP and content URLs.
package enum URLRewriting {
    /// The query item Sourcepoint's web SDK reads to accept consent passed in by an app instead of showing its own
    /// message: `_sp_pass_consent=true`. With it, Sourcepoint's page waits for Sourcepoint's own `sp.loadConsent`
    /// message (its `uuid` and server-issued `webConsentPayload`, sent by Sourcepoint's app SDK `preloadConsent`);
    /// this package does not send that message, so add the item only when the app also runs Sourcepoint's SDK.
    package static let passConsentQueryItem = URLQueryItem(name: "_sp_pass_consent", value: "true")

    /// `url` with `_sp_pass_consent=true` set, keeping every other query item (order included) and the fragment.
    package static func passingConsent(_ url: URL) -> URL {
        settingQueryItems([passConsentQueryItem], in: url)
    }

    /// `url` with `items` set: an existing item of the same name is replaced in place, new ones are appended. Other
    /// query items and the fragment are kept. URLs that cannot be parsed are returned unchanged.
    package static func settingQueryItems(_ items: [URLQueryItem], in url: URL) -> URL {
        guard !items.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var query = components.queryItems ?? []
        for item in items {
            if let index = query.firstIndex(where: { $0.name == item.name }) {
                query[index] = item
                var later = query.count - 1
                while later > index {
                    if query[later].name == item.name { query.remove(at: later) }
                    later -= 1
                }
            } else {
                query.append(item)
            }
        }
        components.queryItems = query
        // URLComponents leaves '+' unescaped in query values; a server reads it as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? url
    }
}
