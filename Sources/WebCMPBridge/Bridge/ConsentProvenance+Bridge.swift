import Foundation

/// The bridge's sources of consent: its pages.
extension ConsentProvenance.Source {
    /// The hosted CMP page (``BridgeConfiguration/cmpURL``).
    public static let cmpPage = Self(rawValue: "cmpPage")
    /// The app's bundled fallback CMP page (the hosted page could not be loaded; ``BridgeConfiguration/fallback``).
    public static let fallbackPage = Self(rawValue: "fallbackPage")
}

/// The bridge's details of a page's change in the history.
extension ConsentHistoryEntry {
    /// The detail name of ``dialect``.
    static let dialectDetail = "dialect"
    /// The detail name of ``pageURL``.
    static let pageURLDetail = "pageURL"

    /// The CMP page's message dialect (`gravito`, `tcf`, …) for a change from ``ConsentProvenance/Source/cmpPage`` or
    /// ``ConsentProvenance/Source/fallbackPage``.
    public var dialect: String? { details[Self.dialectDetail] }
    /// The hosted CMP page's URL as configured (without the query items the kit adds) for a change from a page.
    public var pageURL: String? { details[Self.pageURLDetail] }

    /// The details the bridge records with a page's change.
    static func pageDetails(dialect: CMPDialect?, pageURL: URL) -> [String: String] {
        var details = [pageURLDetail: pageURL.absoluteString]
        details[dialectDetail] = dialect?.rawValue
        return details
    }
}
