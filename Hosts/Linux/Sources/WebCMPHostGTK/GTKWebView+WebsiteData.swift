import CWebKitGTK
import Foundation
import WebCMPBridge

extension GTKWebView {
    /// Removes every kind of website data (cookies, local storage, IndexedDB, caches …) WebKitGTK keeps for the hosts of
    /// the given origins, through this web view's website data manager (`webkit_website_data_manager_fetch`, then
    /// `_remove` for the records whose name is one of the hosts or a parent domain of one).
    package var websiteDataClearing: WebsiteDataClearing {
        WebsiteDataClearing { [weak self] origins in
            guard let self, !self.isClosed else { return }
            await self.removeWebsiteData(hosts: WebsiteDataClearing.hosts(of: origins))
        }
    }

    /// The names of the website data records WebKitGTK holds (for tests and `webcmp-host`).
    package func websiteDataNames() async -> [String] {
        guard let manager = webkit_web_view_get_website_data_manager(view) else { return [] }
        let list = await fetchWebsiteData(manager)
        defer { g_list_free_full(list, websiteDataUnref) }
        return Self.records(list).map(\.name)
    }

    private func removeWebsiteData(hosts: Set<String>) async {
        guard !hosts.isEmpty, let manager = webkit_web_view_get_website_data_manager(view) else { return }
        let list = await fetchWebsiteData(manager)
        defer { g_list_free_full(list, websiteDataUnref) }
        var matching: UnsafeMutablePointer<GList>?
        for record in Self.records(list) where WebsiteDataClearing.record(named: record.name, isFor: hosts) {
            matching = g_list_append(matching, record.pointer)
        }
        guard let matching else { return }
        defer { g_list_free(matching) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let box = Unmanaged.passRetained(VoidBox(continuation))
            webkit_website_data_manager_remove(
                manager, WEBKIT_WEBSITE_DATA_ALL, matching, nil, removeFinished, box.toOpaque())
        }
    }

    private func fetchWebsiteData(_ manager: UnsafeMutablePointer<WebKitWebsiteDataManager>) async -> UnsafeMutablePointer<GList>? {
        let address: UInt? = await withCheckedContinuation { (continuation: CheckedContinuation<UInt?, Never>) in
            let box = Unmanaged.passRetained(ListBox(continuation))
            webkit_website_data_manager_fetch(manager, WEBKIT_WEBSITE_DATA_ALL, nil, fetchFinished, box.toOpaque())
        }
        return address.flatMap { UnsafeMutablePointer<GList>(bitPattern: $0) }
    }

    private static func records(_ list: UnsafeMutablePointer<GList>?) -> [(name: String, pointer: UnsafeMutableRawPointer)] {
        var result: [(name: String, pointer: UnsafeMutableRawPointer)] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data, let name = webkit_website_data_get_name(OpaquePointer(data)) {
                result.append((String(cString: name), data))
            }
            node = current.pointee.next
        }
        return result
    }
}

/// Carries a continuation through GLib's async callbacks (the list pointer travels as an integer: Sendable).
private final class ListBox: @unchecked Sendable {
    let continuation: CheckedContinuation<UInt?, Never>
    init(_ continuation: CheckedContinuation<UInt?, Never>) { self.continuation = continuation }
}

private final class VoidBox: @unchecked Sendable {
    let continuation: CheckedContinuation<Void, Never>
    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
}

private let fetchFinished: GAsyncReadyCallback = { source, result, userData in
    guard let userData else { return }
    let box = Unmanaged<ListBox>.fromOpaque(userData).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    let list = webkit_website_data_manager_fetch_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebsiteDataManager.self), result, &error)
    if let error { g_error_free(error) }
    box.continuation.resume(returning: list.map { UInt(bitPattern: $0) })
}

private let removeFinished: GAsyncReadyCallback = { source, result, userData in
    guard let userData else { return }
    let box = Unmanaged<VoidBox>.fromOpaque(userData).takeRetainedValue()
    var error: UnsafeMutablePointer<GError>?
    _ = webkit_website_data_manager_remove_finish(UnsafeMutableRawPointer(source)?.assumingMemoryBound(to: WebKitWebsiteDataManager.self), result, &error)
    if let error { g_error_free(error) }
    box.continuation.resume()
}

private let websiteDataUnrefFunction: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
    if let data { webkit_website_data_unref(OpaquePointer(data)) }
}
private let websiteDataUnref = websiteDataUnrefFunction
