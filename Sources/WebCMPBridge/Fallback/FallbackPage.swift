import Foundation

/// A CMP page the app ships in its bundle, shown when the hosted page cannot be loaded (no network, DNS, TLS, an HTTP
/// error, the ready timeout).
///
/// The page is served through a custom URL scheme handler (`WKURLSchemeHandler` on Apple platforms, WebKitGTK's URI
/// scheme API on Linux) under a fixed origin of its own, ``origin`` (`scheme://host`), never from `file://`, whose
/// origin is opaque: the bridge's origin policy keeps working, and the page can keep its storage. Only the files the
/// app registered are served; any other path, a `..` segment or another host is refused.
///
/// ```swift
/// let page = try FallbackPage(files: [
///     "index.html": FallbackPage.File(contents: Data("<html>…</html>".utf8)),
/// ])
/// var configuration = BridgeConfiguration(cmpURL: URL(string: "https://www.example.com/consent/app.html")!)
/// configuration.fallback = page
/// ```
public struct FallbackPage: Sendable, Hashable {
    /// One registered file.
    public struct File: Sendable, Hashable {
        /// The bytes served.
        public var contents: Data
        /// The `Content-Type` MIME type, e.g. `"text/html"`.
        public var mimeType: String

        /// Creates a file (``init(contentsOf:)`` takes the type from the file name's extension).
        public init(contents: Data, mimeType: String = "text/html") {
            self.contents = contents
            self.mimeType = mimeType
        }

        /// Reads the file at `url` (typically in the app bundle), with a MIME type from its extension.
        public init(contentsOf url: URL) throws {
            try self.init(contents: Data(contentsOf: url), mimeType: FallbackPage.mimeType(forPath: url.path))
        }
    }

    /// What the scheme handler answers for a registered file.
    package struct Response: Sendable, Hashable {
        /// The request URL.
        package var url: URL
        /// The body.
        package var data: Data
        /// The `Content-Type` MIME type.
        package var mimeType: String
        /// The text encoding of text types (`"utf-8"`), `nil` for binary types.
        package var textEncodingName: String?
    }

    /// Why a configuration is not usable as a fallback page.
    package enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The scheme is not a valid URL scheme, or one WebKit handles itself (`http`, `https`, `file`, …).
        case invalidScheme(String)
        /// The host is empty or not a plain lower-case host name.
        case invalidHost(String)
        /// A registered path is empty, contains a `..` or `.` segment, a backslash, `%`, `?` or `#`.
        case invalidPath(String)
        /// The entry file is not among the registered files.
        case entryNotRegistered(String)

        /// One sentence naming the value (quoted safely).
        package var description: String {
            switch self {
            case .invalidScheme(let scheme):
                return "the fallback scheme \(UntrustedText.quoted(scheme)) is not a custom URL scheme"
            case .invalidHost(let host): return "the fallback host \(UntrustedText.quoted(host)) is not a plain host name"
            case .invalidPath(let path): return "the fallback path \(UntrustedText.quoted(path)) is not a plain relative path"
            case .entryNotRegistered(let entry):
                return "the fallback entry \(UntrustedText.quoted(entry)) is not among the registered files"
            }
        }
    }

    /// The URL scheme, e.g. `"webcmp-fallback"`. Lower case.
    public let scheme: String
    /// The host, e.g. `"app"`. Lower case.
    public let host: String
    /// The path of the page the bridge loads, e.g. `"/index.html"`.
    let entryPath: String
    /// The registered files by path (each starting with `/`).
    public let files: [String: File]

    /// Creates a fallback page.
    /// - Parameters:
    ///   - scheme: a custom scheme (letters, digits, `+`, `-`, `.`; starting with a letter), not one WebKit handles.
    ///   - host: the host of the page's origin.
    ///   - entry: the registered file the bridge loads.
    ///   - files: the files served, by path relative to the origin (`"index.html"`, `"css/cmp.css"`).
    /// - Throws: ``ConsentBridgeError`` with the code ``ConsentBridgeError/Code/webViewSetupFailed`` for an invalid
    ///   scheme, host or path, or an entry that is not registered.
    public init(
        scheme: String = "webcmp-fallback", host: String = "app", entry: String = "index.html",
        files: [String: File]
    ) throws(ConsentBridgeError) {
        do {
            try self.init(validating: scheme, host: host, entry: entry, files: files)
        } catch {
            throw .invalidFallbackPage(error)
        }
    }

    /// ``init(scheme:host:entry:files:)`` with the precise refusal.
    package init(validating scheme: String, host: String, entry: String, files: [String: File]) throws(ConfigurationError) {
        let scheme = scheme.lowercased()
        guard FallbackPage.isCustomScheme(scheme) else { throw .invalidScheme(scheme) }
        let host = host.lowercased()
        guard !host.isEmpty, host.utf8.allSatisfy({ FallbackPage.hostBytes.contains($0) }),
            host.first != ".", host.last != ".", !host.contains("..")
        else { throw .invalidHost(host) }
        var registered: [String: File] = [:]
        for (name, file) in files {
            guard let path = FallbackPage.normalizedPath(name) else { throw .invalidPath(name) }
            registered[path] = file
        }
        guard let entryPath = FallbackPage.normalizedPath(entry), registered[entryPath] != nil else {
            throw .entryNotRegistered(entry)
        }
        self.scheme = scheme
        self.host = host
        self.entryPath = entryPath
        self.files = registered
    }

    /// The page's security origin, `scheme://host`: what the page's messages carry and what the bridge allows while
    /// the fallback is shown.
    public var origin: String { "\(scheme)://\(host)" }

    /// The URL of the entry file.
    package var entryURL: URL {
        // The scheme, host and path were validated: the URL always parses.
        URL(string: origin + entryPath) ?? URL(fileURLWithPath: "/")
    }

    /// The registered file for `url`, or why it is refused. Pure: the scheme handlers of every platform call it.
    ///
    /// Refused: another scheme or host, a port or user info, a path with a `..`/`.` segment (also percent-encoded), a
    /// backslash or an encoded `/`, and every path that was not registered. The query and fragment are ignored.
    package func response(for url: URL?) -> Result<Response, FallbackRefusal> {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return .failure(.malformedURL)
        }
        guard components.scheme?.lowercased() == scheme else { return .failure(.wrongScheme(components.scheme ?? "")) }
        guard components.host?.lowercased() == host else { return .failure(.wrongHost(components.host ?? "")) }
        guard components.port == nil, components.user == nil, components.password == nil else {
            return .failure(.wrongHost(components.host ?? ""))
        }
        let raw = components.percentEncodedPath
        let lowered = raw.lowercased()
        guard !lowered.contains("%2e"), !lowered.contains("%2f"), !lowered.contains("%5c") else {
            return .failure(.pathTraversal(raw))
        }
        let path = raw.removingPercentEncoding ?? raw
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard path.hasPrefix("/"), !path.contains("\\"),
            !segments.dropLast().contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
            segments.last != ".", segments.last != ".."
        else { return .failure(.pathTraversal(raw)) }
        guard let file = files[path] else { return .failure(.notRegistered(path)) }
        let isText = file.mimeType.hasPrefix("text/") || file.mimeType.hasSuffix("javascript")
            || file.mimeType.hasSuffix("json") || file.mimeType.hasSuffix("svg+xml")
        return .success(Response(
            url: url, data: file.contents, mimeType: file.mimeType, textEncodingName: isText ? "utf-8" : nil))
    }

    /// A MIME type from a path's extension: HTML, CSS, JavaScript, JSON, SVG, PNG, JPEG, WebP, WOFF2;
    /// `application/octet-stream` otherwise.
    static func mimeType(forPath path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html"
        case "css": return "text/css"
        case "js", "mjs": return "text/javascript"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }

    /// Schemes WebKit (or the web platform) handles itself; a scheme handler cannot be registered for them.
    static let reservedSchemes: Set<String> = [
        "http", "https", "file", "about", "data", "blob", "javascript", "ws", "wss", "ftp", "ftps", "mailto", "tel",
        "resource", "webkit", "applewebdata", "x-apple-ql-id",
    ]

    private static let hostBytes = Set("abcdefghijklmnopqrstuvwxyz0123456789-.".utf8)

    /// Whether `scheme` (lower case) is a syntactically valid scheme (RFC 3986) that WebKit does not handle itself.
    static func isCustomScheme(_ scheme: String) -> Bool {
        guard let first = scheme.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789+-.".utf8)
        return scheme.utf8.allSatisfy(allowed.contains) && !reservedSchemes.contains(scheme)
    }

    /// `name` as an absolute path (`/a/b.html`), or `nil` when it has an empty, `.` or `..` segment, a backslash, `%`,
    /// `?`, `#` or a control character.
    static func normalizedPath(_ name: String) -> String? {
        let trimmed = name.hasPrefix("/") ? String(name.dropFirst()) : name
        guard !trimmed.isEmpty else { return nil }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || "\\%?#".unicodeScalars.contains($0) })
        else { return nil }
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return "/" + trimmed
    }
}

/// Why a fallback scheme handler refused a request. Nothing is served.
package enum FallbackRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL cannot be parsed.
    case malformedURL
    /// The request is for another scheme.
    case wrongScheme(String)
    /// The request is for another host (or has a port or user info).
    case wrongHost(String)
    /// The path tries to leave the registered files (`..`, `.`, an encoded `/` or `.`, a backslash).
    case pathTraversal(String)
    /// The path is not one the app registered.
    case notRegistered(String)

    public var description: String {
        switch self {
        case .malformedURL: return "the URL cannot be parsed"
        case .wrongScheme(let scheme): return "the scheme '\(LogText.sanitized(scheme))' is not the fallback's"
        case .wrongHost(let host): return "the host '\(LogText.sanitized(host))' is not the fallback's"
        case .pathTraversal(let path): return "the path '\(LogText.sanitized(path))' leaves the registered files"
        case .notRegistered(let path): return "the path '\(LogText.sanitized(path))' is not registered"
        }
    }
}
