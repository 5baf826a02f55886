import Foundation

/// Web security origins (`scheme://host[:port]`), normalised so that they can be compared.
package enum SecurityOrigin {
    /// The normalised origin of `url`: lower-case scheme and host, default ports (80, 443) dropped.
    /// `file:` URLs have the origin `"file://"`.
    package static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        if scheme == "file" { return "file://" }
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = url.port, port != defaultPort(for: scheme) {
            return "\(scheme)://\(hostPart):\(port)"
        }
        return "\(scheme)://\(hostPart)"
    }

    /// Normalises an origin string as a page or platform reports it; `nil` when it is not an origin.
    package static func normalize(_ origin: String) -> String? {
        let trimmed = origin.trimmingCharacters(in: .whitespaces)
        if trimmed == "file://" || trimmed.lowercased() == "file:///" { return "file://" }
        guard let url = URL(string: trimmed), url.path.isEmpty || url.path == "/", url.query == nil,
            url.fragment == nil, url.user == nil
        else { return nil }
        return self.origin(of: url)
    }

    /// The origin string for a platform's origin parts (`WKSecurityOrigin`'s `protocol`, `host`, `port`, where port 0
    /// means the scheme's default). The result is normalised like ``origin(of:)``.
    package static func origin(protocol scheme: String, host: String, port: Int) -> String {
        let scheme = scheme.lowercased()
        if scheme == "file" { return "file://" }
        let lowered = host.lowercased()
        let hostPart = lowered.contains(":") && !lowered.hasPrefix("[") ? "[\(lowered)]" : lowered
        if port != 0, port != defaultPort(for: scheme) { return "\(scheme)://\(hostPart):\(port)" }
        return "\(scheme)://\(hostPart)"
    }

    /// Whether `origin` is one of `allowed` (after normalisation of both).
    package static func isAllowed(_ origin: String, in allowed: Set<String>) -> Bool {
        guard let normalized = normalize(origin) else { return false }
        return allowed.contains { normalize($0) == normalized }
    }

    /// Whether the origin of `url` is one of `allowed` (`false` for a URL without an origin).
    package static func isAllowed(_ url: URL, in allowed: Set<String>) -> Bool {
        guard let origin = origin(of: url) else { return false }
        return isAllowed(origin, in: allowed)
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }
}
