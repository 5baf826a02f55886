import Foundation
import WebCMPBridge
import WebCMPConformance
import WebCMPHostGTK

/// `--fallback FILE`: FILE as the app's bundled fallback page, served from `webcmp-fallback://app/<file name>` (only
/// that file is registered, as an app registers only the files it ships).
@MainActor
func fallbackPage(_ arguments: Arguments) -> FallbackPage? {
    guard let file = arguments.fallback else { return nil }
    do {
        let name = file.lastPathComponent
        return try FallbackPage(entry: name, files: [name: FallbackPage.File(contentsOf: file)])
    } catch {
        fail("cannot use \(file.path) as the fallback page: \(error)", code: 2)
    }
}

/// With `--fallback` and no URL: a loopback URL on a port nothing listens on (bound, then closed), so the hosted
/// load fails the way it does offline and the fallback is shown.
func unreachableURL(_ arguments: Arguments) -> URL? {
    guard arguments.fallback != nil else { return nil }
    return URL(string: "http://127.0.0.1:\(closedPort())/consent.html")
}

/// A TCP port on 127.0.0.1 that was free a moment ago and is closed now.
func closedPort() -> Int {
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return 9 }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
        }
    }
    return bound ? Int(UInt16(bigEndian: address.sin_port)) : 9
}

/// The `check --fallback` rows: the failure was reported as a diagnostic, the page became ready from the app's
/// scheme, and a save from it was stored with the fallback as its source.
@MainActor
func fallbackRows(_ arguments: Arguments, events: [ConsentBridgeEvent], store: ConsentStore) -> [ConformanceReport.Row] {
    guard let page = fallbackPage(arguments) else { return [] }
    var rows = ConformanceReport.Row.fallbackShown(events, origin: page.origin)
    if !arguments.clicks.isEmpty { rows.append(.savedFromFallback(stored: store.record()?.source)) }
    let refused = GTKFallbackScheme.refusals
    rows.append(ConformanceReport.Row("only registered files requested", nil, refused.isEmpty ? "no refused requests"
        : "refused: " + refused.map(\.description).joined(separator: "; ")))
    return rows
}

/// `check --fallback`: the restore run loads the fallback page directly from its scheme (consent saved on the
/// fallback is, by design, not shown the fallback again when the hosted page fails: ``FallbackDecision``), with its
/// origin allowed.
@MainActor
func fallbackRestoreURL(_ arguments: inout Arguments) -> URL? {
    guard arguments.url == nil, let page = fallbackPage(arguments) else { return nil }
    arguments.origins.insert(page.origin)
    return page.entryURL.appendingQueryItem("dialect", arguments.dialect?.rawValue ?? "gravito")
}

extension URL {
    /// The URL with one more query item.
    func appendingQueryItem(_ name: String, _ value: String) -> URL {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
        return components.url ?? self
    }
}
