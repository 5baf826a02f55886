import Foundation
import WebCMPBridge
import WebCMPHostGTK

/// `webcmp-host reset URL --state DIR`: the QA reset (``ConsentBridge/resetForQA(store:configuration:websiteData:)``)
/// through WebKitGTK's website data manager. Loads URL first (so the page can store its own data), then resets, then
/// loads it again and prints, as JSON: the page's `window.__siteData` before and after, the website data record names
/// before and after, and the stored keys.
@MainActor
func resetCommand(_ arguments: Arguments) -> Int32 {
    guard let url = arguments.url, arguments.state != nil else { fail("reset needs a URL and --state DIR", code: 2) }
    let store = makeStore(arguments)
    let view = GTKWebView()
    defer { view.close() }
    func load() -> JSONValue {
        var loaded = false
        view.eventHandler = { event in if case .didFinishLoading = event { loaded = true } }
        view.load(url)
        GTKRuntime.run(until: Date().addingTimeInterval(arguments.timeout)) { !loaded }
        let session = HostSession(options: .init(url: url, dialect: nil), store: store, view: view)
        return session.evaluate("window.__siteData || null") ?? .null
    }
    func names() -> JSONValue {
        var result: [String]?
        Task { @MainActor in result = await view.websiteDataNames() }
        GTKRuntime.run(until: Date().addingTimeInterval(10)) { result == nil }
        return .array((result ?? []).sorted().map(JSONValue.string))
    }
    let before = load()
    let namesBefore = names()
    var done = false
    Task { @MainActor in
        await ConsentBridge.resetForQA(
            store: store, configuration: BridgeConfiguration(cmpURL: url), websiteData: view.websiteDataClearing)
        done = true
    }
    GTKRuntime.run(until: Date().addingTimeInterval(10)) { !done }
    let namesAfter = names()
    let after = load()
    printJSON(.object([
        "before": before, "after": after, "websiteDataBefore": namesBefore, "websiteDataAfter": namesAfter,
        "keys": store.iabKeys().json,
    ]))
    return done ? 0 : 1
}

/// `webcmp-host reject-all --state DIR`: ``ConsentStore/rejectAll(now:)`` on the stored consent; prints the keys.
@MainActor
func rejectAllCommand(_ arguments: Arguments) -> Int32 {
    guard arguments.state != nil else { fail("reject-all needs --state DIR", code: 2) }
    let store = makeStore(arguments)
    do {
        try store.rejectAll()
    } catch {
        FileHandle.standardError.write(Data("webcmp-host: \(error)\n".utf8))
        return 1
    }
    printJSON(.object(["keys": store.iabKeys().json]))
    return 0
}
