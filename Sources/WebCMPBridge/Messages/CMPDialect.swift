/// A postMessage protocol that a hosted CMP page speaks to the app.
public enum CMPDialect: String, Sendable, Hashable, CaseIterable, Codable {
    /// Gravito: handler `jsHandler`, messages `{type: "CMP-loaded" | "save" | "load" | "close"}` or the older
    /// `{event: "start" | "save" | "close"}`. The app answers the ready message with a `cookieData` post.
    case gravito
    /// Onesecondbefore: handler `osbCmpMessageHandler`, messages `{consent, cduid, expirationDate}`.
    case onesecondbefore
    /// Any TCF v2 CMP: an injected script listens through the page's standard `__tcfapi` (and `__gpp`) and forwards
    /// its events to the handler `webcmpTCF`.
    case tcf

    /// The script message handler name the page posts to.
    public var handlerName: String {
        switch self {
        case .gravito: return "jsHandler"
        case .onesecondbefore: return "osbCmpMessageHandler"
        case .tcf: return "webcmpTCF"
        }
    }

    /// The dialect whose handler is `name`, if any.
    public init?(handlerName name: String) {
        guard let dialect = CMPDialect.allCases.first(where: { $0.handlerName == name }) else { return nil }
        self = dialect
    }
}
