import Foundation
import WebCMPBridge

/// The save's rows of `webcmp bench` (issue 38 §1 and §6): a page's whole save, from the posted message body to the
/// keys written in real `UserDefaults`, through the bridge as apps run it (the runner, its machine, the consent
/// transaction, one write), with the storage's lock counted.
extension Bench {
    /// Target for the kit's own work in one whole save (message body → keys written, into an in-memory storage), in
    /// microseconds: a quarter of the real-engine save round trip's budget (`scripts/bench-e2e`, ≤ 2 ms median), so
    /// that WebKit's message delivery and the platform's `UserDefaults` keep most of it.
    ///
    /// The same save into real `UserDefaults` is printed beside it, without a target: on Linux it measures
    /// swift-corelibs-foundation's `UserDefaults`, whose every access looks the user's home directory up in
    /// `/etc/passwd` (`strace -f -e trace=openat`: about 200 opens of it per save), a cost Apple's in-process
    /// `UserDefaults` does not have.
    static let saveTargetMicroseconds = 500.0

    /// A page's save through a started Gravito bridge on a bench web view, in real `UserDefaults`; beside it the same
    /// save in memory and with a history of one entry, to show where the time goes.
    @MainActor
    static func savePath(iterations: Int) throws {
        let suite = "WebCMPBridge.bench.save." + UUID().uuidString
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let body = try saveBody()
        let (time, locks) = try timeSaves(iterations: iterations, store: .userDefaults(suiteName: suite), body: body)
        var inMemory = ConsentStore.inMemory()
        let (memoryTime, _) = try timeSaves(iterations: iterations, store: inMemory, body: body)
        inMemory = .inMemory()
        inMemory.historyMaximumEntries = 1
        let (shortHistoryTime, _) = try timeSaves(iterations: iterations, store: inMemory, body: body)
        let micro = memoryTime / 1_000
        print("A page's save, message body to keys written: the \(body.utf8.count)-byte Gravito save body of the parse "
            + "row and a save of the range string, alternating, through a started ConsentBridge (parse, decode, "
            + "ConsentCommit in the machine, one write with its history entry, the answer):")
        print(row("ConsentBridge: message → keys written (memory)", String(format: "%.2f µs", micro),
                  String(format: "target <= %.0f µs: %@ (the kit's own work)", saveTargetMicroseconds,
                         verdict(micro <= saveTargetMicroseconds))))
        print(row("  in memory, a history of 1 entry", nanoseconds(shortHistoryTime),
                  "(info: the default keeps 20 entries)"))
        print(row("  the same save into real UserDefaults", nanoseconds(time),
                  "(info: suite \(suite); swift-corelibs-foundation reads /etc/passwd on every access)"))
        print(row("storage locks per save", "\(locks)", "target 1: \(verdict(locks == 1))"))
    }

    /// Nanoseconds per save through a started Gravito bridge over `store`, alternating `body` and a save of the range
    /// string (so that every save writes: a save of the consent already stored is the CMP restating it), and the
    /// storage locks one save took.
    @MainActor
    private static func timeSaves(iterations: Int, store: ConsentStore, body: String) throws -> (Double, Int) {
        guard let other = try samples().dropFirst().first else { throw BenchError("no second sample") }
        let otherBody = #"{"type":"save","tcstring":"\#(other.string)"}"#
        let webView = BenchWebView()
        let bridge = ConsentBridge(
            configuration: BridgeConfiguration(cmpURL: URL(string: "https://cmp.example.com/app.html")!, dialect: .gravito),
            store: store)
        defer { bridge.invalidate() }
        bridge.attach(to: webView)
        bridge.start()
        webView.post(#"{"type":"CMP-loaded"}"#)
        var flip = false
        func save() {
            flip.toggle()
            webView.post(flip ? body : otherBody)
        }
        save()
        guard store.iabKeys()[.tcString] != nil, bridge.state == .ready else {
            throw BenchError("the bench save was not stored")
        }
        let identity = store.storage.identity
        let locksBefore = identity.lockAcquisitions
        save()
        let locks = identity.lockAcquisitions - locksBefore
        return (measure(iterations) { save() }, locks)
    }
}

/// A web view for the bench: it delivers posted messages to the bridge from the page's origin and does nothing else.
@MainActor
private final class BenchWebView: CMPWebView {
    var eventHandler: (@MainActor (WebViewEvent) -> Void)?
    var navigationPolicy: (@MainActor (NavigationRequest) -> NavigationDecision)?

    func load(_ url: URL, id: WebViewLoadID) {}
    func addUserScript(_ script: UserScript) {}
    func removeAllUserScripts() {}
    func evaluateJavaScript(_ source: String) {}
    func addMessageHandler(named name: String) throws(ConsentBridgeError) {}
    func removeMessageHandler(named name: String) {}

    /// Posts `json` to Gravito's handler from the main frame of the page's origin.
    func post(_ json: String) {
        eventHandler?(.message(ScriptMessage(
            handlerName: "jsHandler", body: .json(json), isMainFrame: true, origin: "https://cmp.example.com")))
    }
}
