#if canImport(WebKit)
import Foundation
import WebKit

/// An adapter that receives the script messages of the handlers it registered.
@MainActor
protocol ScriptMessageReceiver: AnyObject {
    /// A message WebKit delivered to one of the adapter's handlers.
    func receive(_ message: WKScriptMessage)
}

/// Forwards script messages to an adapter without retaining it (`WKUserContentController` retains its handlers).
@MainActor
final class WeakScriptMessageHandler: NSObject, WKScriptMessageHandler {
    weak var target: (any ScriptMessageReceiver)?

    init(_ target: any ScriptMessageReceiver) {
        self.target = target
    }

    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        target?.receive(message)
    }
}

extension WKUserContentController {
    /// Removes `scripts` (by identity) and keeps every other user script, in its order: the controller can only
    /// remove all of them at once.
    func removeUserScripts(_ scripts: [WKUserScript]) {
        guard !scripts.isEmpty else { return }
        let others = userScripts.filter { script in !scripts.contains { $0 === script } }
        removeAllUserScripts()
        others.forEach(addUserScript)
    }
}
#endif
