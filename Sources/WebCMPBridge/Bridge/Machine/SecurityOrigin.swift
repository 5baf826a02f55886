import Foundation

/// Web security origins (`scheme://host[:port]`), normalised so that they can be compared.
package enum SecurityOrigin {
    /// The normalised origin of `url`: lower-case scheme and host, default ports (80, 443) dropped.
    /// `file:` URLs have the origin `"file://"`.
    package static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        if scheme == "file" { return "file://" }
        guard let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let hostPart = host.utf8.contains(UInt8(ascii: ":")) && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = url.port, port != defaultPort(for: scheme) {
            return "\(scheme)://\(hostPart):\(port)"
        }
        return "\(scheme)://\(hostPart)"
    }

    /// Normalises an origin string as a page or platform reports it; `nil` when it is not an origin.
    package static func normalize(_ origin: String) -> String? {
        // Origins as platforms report them have nothing to trim; Foundation's trimming is costly on Linux.
        let trimmed = origin.hasNoEdgeWhitespace ? origin : origin.trimmingCharacters(in: .whitespaces)
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
        let hostPart = lowered.utf8.contains(UInt8(ascii: ":")) && !lowered.hasPrefix("[") ? "[\(lowered)]" : lowered
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

    /// A set of origins normalised once, for a bridge that checks every message and navigation against the same
    /// origins. It answers as `isAllowed(_:in:)` does for the same set.
    package struct AllowList: Sendable, Hashable {
        /// The normalised origins (origins that do not normalise are left out: they match nothing).
        private var normalized: Set<String>
        /// Those that normalise to themselves: an origin spelled exactly like one of them is allowed without being
        /// parsed (platforms report origins in this form).
        private var stable: Set<String>

        /// The allow list of `origins`.
        package init(_ origins: Set<String>) {
            normalized = Set(origins.compactMap(SecurityOrigin.normalize))
            stable = normalized.filter { SecurityOrigin.normalize($0) == $0 }
        }

        /// Whether `origin`, normalised, is one of the list's.
        package func contains(_ origin: String) -> Bool {
            stable.contains(origin) || SecurityOrigin.normalize(origin).map(normalized.contains) ?? false
        }

        /// Whether the origin of `url` is one of the list's (`false` for a URL without an origin).
        package func contains(_ url: URL) -> Bool {
            SecurityOrigin.origin(of: url).map(contains) ?? false
        }

        /// This list and `origin`.
        package func adding(_ origin: String) -> AllowList {
            var list = self
            if let origin = SecurityOrigin.normalize(origin) {
                list.normalized.insert(origin)
                if SecurityOrigin.normalize(origin) == origin { list.stable.insert(origin) }
            }
            return list
        }
    }

    private static func defaultPort(for scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }
}

extension String {
    /// Whether the string starts and ends with a printable ASCII character other than the space (so that trimming
    /// white space would leave it as it is).
    fileprivate var hasNoEdgeWhitespace: Bool {
        guard let first = utf8.first, let last = utf8.last else { return false }
        return (0x21...0x7E).contains(first) && (0x21...0x7E).contains(last)
    }
}
